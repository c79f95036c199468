# warpsim: one Makefile for the whole tree.  `make help` lists the targets.
#
# Libraries are built per folder (sim/ at the bottom, then gpu/, viz/,
# lessons/), cli/ links them into build/warpsim.  Tests are one cmocka binary
# per tests/test_*.c, linked with every library.  Sanitizer builds go to their
# own folders (build/asan, build/ubsan) so they never mix with the normal one.

BUILD   ?= build
CC      ?= cc
OPT     ?= -O2 -g
CFLAGS  ?=
# Every top-level folder with C sources is a library (sim/, gpu/, viz/, the job
# libraries such as grade/ ...); lessons/ and cli/ are listed apart because
# lessons/ has sources one and two folders down and cli/main.c is the program.
NOT_LIBS := cli/ tests/ build/ scripts/ docs/ traces/ lessons/
LIBDIRS := $(filter-out $(NOT_LIBS),$(sort $(dir $(wildcard */*.c))))
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(OPT) -MMD -MP $(LIBDIRS:%/=-I%) -Ilessons -Icli
SANFLAGS ?=

# Packages first, then pkg-config: on a fresh Debian machine deps.sh installs
# what is missing (as root) before anything below asks whether it is there.
ifeq ($(filter clean help,$(MAKECMDGOALS)),)
DEPS_RC := $(shell sh scripts/deps.sh >&2; echo $$?)
ifneq ($(DEPS_RC),0)
$(error scripts/deps.sh: required packages are missing (see above))
endif
endif

# Optional parts, each found with $(PKG_CONFIG) and simply absent when it
# fails (PKG_CONFIG=false builds the minimal warpsim: C compiler, libc, zlib):
#   SDL2 + SDL2_ttf + libpng  the visualizer's window and PNG frames (viz/)
#   libedit                   line editing and completion at the stepper's prompt
#   cmocka                    the test suite
#   libxxhash                 XXH64 from the library (launch/hash.c has its own)
PKG_CONFIG ?= pkg-config
pc_has = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && echo y)
HAVE_SDL    := $(if $(and $(call pc_has,sdl2),$(call pc_has,SDL2_ttf),$(call pc_has,libpng)),y)
HAVE_EDIT   := $(call pc_has,libedit)
HAVE_CMOCKA := $(call pc_has,cmocka)
HAVE_XXHASH := $(call pc_has,libxxhash)
FEATURE_PKGS := $(if $(HAVE_SDL),sdl2 SDL2_ttf libpng) $(if $(HAVE_EDIT),libedit) $(if $(HAVE_XXHASH),libxxhash)
PKGCFLAGS := $(if $(strip $(FEATURE_PKGS)),$(shell $(PKG_CONFIG) --cflags $(FEATURE_PKGS)))
PKGLIBS   := $(if $(strip $(FEATURE_PKGS)),$(shell $(PKG_CONFIG) --libs $(FEATURE_PKGS)))
CFLAGS  += $(if $(HAVE_SDL),-DWARPSIM_HAVE_SDL) $(if $(HAVE_EDIT),-DWARPSIM_HAVE_LIBEDIT) \
           $(if $(HAVE_XXHASH),-DWARPSIM_HAVE_XXHASH)
LDLIBS  += $(PKGLIBS) -lz -lpthread -ldl -lm
TEST_CFLAGS := $(if $(HAVE_CMOCKA),$(shell $(PKG_CONFIG) --cflags cmocka))
TEST_LIBS   := $(if $(HAVE_CMOCKA),$(shell $(PKG_CONFIG) --libs cmocka))

# Objects depend on this file, rewritten only when the set of features (or the
# optimisation and sanitizer flags) changes, so installing or losing a package,
# or switching flags in one BUILD folder, rebuilds what it affects.
FEATURES := sdl=$(HAVE_SDL) libedit=$(HAVE_EDIT) xxhash=$(HAVE_XXHASH) flags=$(OPT) $(SANFLAGS)
$(shell mkdir -p $(BUILD); [ "$$(cat $(BUILD)/.features 2>/dev/null)" = "$(FEATURES)" ] || echo "$(FEATURES)" > $(BUILD)/.features)

LESSON_SRCS := $(wildcard lessons/*.c lessons/*/*.c lessons/*/exercise/*.c)
CLI_SRCS    := $(filter-out cli/main.c,$(wildcard cli/*.c))
TEST_SRCS   := $(wildcard tests/test_*.c)
LIB_SRCS    := $(wildcard $(LIBDIRS:%=%*.c)) $(LESSON_SRCS) $(CLI_SRCS)
# Without SDL2 the visualizer keeps its trace model (plain C) and viz_absent.c
# answers every drawing call with the package to install.
VIZ_PLAIN   := viz/viz_model.c viz/viz_query.c viz/viz_options.c viz/viz_tiles.c viz/viz_states.c
ifeq ($(HAVE_SDL),y)
LIB_SRCS    := $(filter-out viz/viz_absent.c,$(LIB_SRCS))
else
LIB_SRCS    := $(filter-out $(filter-out $(VIZ_PLAIN) viz/viz_absent.c,$(wildcard viz/*.c)),$(LIB_SRCS))
endif

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
TESTS     := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
BENCH_SRCS := $(wildcard tests/bench_*.c)
BENCHES   := $(BENCH_SRCS:tests/%.c=$(BUILD)/tests/%)

.SECONDARY:
.PHONY: all test asan ubsan bench help deps lesson1 clean ptx fuzz fuzz-exec fuzz-trace install uninstall
all: $(BUILD)/warpsim

# (deps.sh already ran while this Makefile was read; this target is for people.)
deps:
	@sh scripts/deps.sh

$(BUILD)/obj/%.o: %.c $(BUILD)/.features
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(SANFLAGS) $(PKGCFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c $(BUILD)/.features
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(SANFLAGS) $(PKGCFLAGS) $(TEST_CFLAGS) -c $< -o $@

# Floating-point semantics files must not let the compiler assume the default
# rounding mode: they switch it for .rz/.rm/.rp.
$(BUILD)/obj/sim/alu_float.o $(BUILD)/obj/sim/alu_cvt.o $(BUILD)/obj/sim/exec_float.o $(BUILD)/obj/sim/alu_sfu.o: CFLAGS += -frounding-math -ffp-contract=off
# The measured SFU tables are assembled into the library (.incbin).
$(BUILD)/obj/sim/sfu_blob.o: sim/sfu_tables.bin
$(BUILD)/obj/tests/test_alu.o $(BUILD)/obj/tests/test_exec.o $(BUILD)/obj/tests/test_exec_ops.o: CFLAGS += -frounding-math -ffp-contract=off

# The version: VERSION, and the commit when built from a git checkout.
WARPSIM_VERSION := $(shell cat VERSION)$(shell git rev-parse --short HEAD >/dev/null 2>&1 && echo " ($$(git rev-parse --short HEAD))")
$(BUILD)/obj/cli/main.o: CFLAGS += -DWARPSIM_VERSION='"$(WARPSIM_VERSION)"'

$(BUILD)/libwarpsim.a: $(LIB_OBJS)
	@rm -f $@
	@echo "  AR      $@"
	@ar rcs $@ $^

$(BUILD)/warpsim: $(BUILD)/obj/cli/main.o $(BUILD)/libwarpsim.a
	@echo "  LD      $@"
	@$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(BUILD)/libwarpsim.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(SANFLAGS) -o $@ $^ $(TEST_LIBS) $(LDLIBS)

ifeq ($(HAVE_CMOCKA),y)
test: all $(TESTS)
	@sh tests/build_checks.sh
	@sh tests/run_tests.sh $(BUILD) $(TESTS)
else
test:
	@echo "make test: the tests need cmocka; install libcmocka-dev (Debian) and run make test again" >&2
	@exit 2
endif

bench: all $(BENCHES)
	@for b in $(BENCHES); do $$b || exit 1; done

asan:
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fno-omit-frame-pointer" SANFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" test

ubsan:
	$(MAKE) BUILD=build/ubsan OPT="-O1 -g" SANFLAGS="-fsanitize=undefined,float-cast-overflow -fno-sanitize-recover=all" test

lesson1: all
	$(BUILD)/warpsim lesson 1

# Regenerate every lesson's committed kernel.ptx (needs nvcc).
ptx:
	@for f in lessons/[0-9]*/kernel.cu tests/kernels/*.cu tests/conformance/*.cu; do sh scripts/gen_ptx.sh $$f || exit 1; done

# libFuzzer on the PTX parser; new finds go to the corpus that test_ptx replays.
FUZZ_SECONDS ?= 60
fuzz:
	@mkdir -p build/fuzz
	clang -std=c11 -D_GNU_SOURCE -g -O1 -Isim -fsanitize=fuzzer,address,undefined \
	    sim/ptx_*.c sim/error.c tests/fuzz_ptx.c -o build/fuzz/fuzz_ptx
	build/fuzz/fuzz_ptx -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build/fuzz tests/corpus/ptx

# libFuzzer on the decoder and executor (PTX text, first .entry launched);
# new finds go to build/fuzz-exec, the small ones worth keeping to
# tests/corpus/exec, which test_exec_corpus replays.
fuzz-exec:
	@mkdir -p build/fuzz-exec/corpus build/fuzz-exec/seed tests/corpus/exec
	@cp tests/kernels/*.ptx build/fuzz-exec/seed/
	@for f in lessons/*/kernel.ptx; do cp $$f build/fuzz-exec/seed/$$(basename $$(dirname $$f)).ptx; done
	clang -std=c11 -D_GNU_SOURCE -g -O1 -Isim -fsanitize=fuzzer,address,undefined \
	    -frounding-math -ffp-contract=off sim/*.c tests/fuzz_exec.c -o build/fuzz-exec/fuzz_exec -lm -lz
	build/fuzz-exec/fuzz_exec -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=20 \
	    -artifact_prefix=build/fuzz-exec/ build/fuzz-exec/corpus tests/corpus/exec \
	    tests/corpus/ptx build/fuzz-exec/seed

# libFuzzer on the trace reader; new finds go to build/fuzz-trace/corpus,
# the small ones worth keeping to tests/corpus/trace, which test_trace replays.
fuzz-trace:
	@mkdir -p build/fuzz-trace/corpus tests/corpus/trace
	clang -std=c11 -D_GNU_SOURCE -g -O1 -Isim -fsanitize=fuzzer,address,undefined \
	    sim/trace_read.c sim/trace_names.c sim/trace_tile.c sim/trace_write.c sim/file_read.c sim/error.c tests/fuzz_trace.c -o build/fuzz-trace/fuzz_trace -lz
	build/fuzz-trace/fuzz_trace -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	    -artifact_prefix=build/fuzz-trace/ build/fuzz-trace/corpus tests/corpus/trace

# make install [PREFIX=/usr/local] [DESTDIR=...]: the command, the lessons'
# kernels and texts, the recorded hardware results, the font and the bash
# completion; an installed warpsim finds them from PREFIX/bin/../share/warpsim.
PREFIX  ?= /usr/local
DATADIR := $(DESTDIR)$(PREFIX)/share/warpsim
COMPDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
LESSON_FILES := $(wildcard lessons/*/kernel.cu lessons/*/kernel.ptx lessons/*/README.md lessons/*/xcheck.txt \
                lessons/*/*.md lessons/*/*.png lessons/*/exercise/* lessons/include/*)
FONTS := $(wildcard $(addprefix /usr/share/fonts/truetype/dejavu/,DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf))
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DATADIR)/fonts $(COMPDIR)
	install -m 755 $(BUILD)/warpsim $(DESTDIR)$(PREFIX)/bin/warpsim
	for f in $(filter-out %.c,$(LESSON_FILES)); do install -D -m 644 $$f $(DATADIR)/$$f || exit 1; done
	for f in $$(find traces -type f); do install -D -m 644 $$f $(DATADIR)/$$f || exit 1; done
	$(if $(FONTS),install -m 644 $(FONTS) $(DATADIR)/fonts/)
	install -m 644 scripts/warpsim-completion.bash $(COMPDIR)/warpsim
	@echo "installed $(DESTDIR)$(PREFIX)/bin/warpsim; try: warpsim lesson 1"

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/warpsim $(COMPDIR)/warpsim
	rm -rf $(DATADIR)

clean:
	rm -rf build

help:
	@echo "warpsim make targets:"
	@echo "  make            build build/warpsim (installs missing Debian packages when root)"
	@echo "  make lesson1    build, then run lesson 1 in the simulator"
	@echo "  make test       build and run every cmocka test (tests/test_*.c)"
	@echo "  make asan       the whole suite under AddressSanitizer+UBSan (build/asan)"
	@echo "  make ubsan      the whole suite under UBSan with float-cast checks (build/ubsan)"
	@echo "  make bench      simulated warp instructions per second for a few kernels"
	@echo "  make ptx        regenerate the committed PTX of lessons and test kernels (nvcc)"
	@echo "  make fuzz       fuzz the PTX parser for FUZZ_SECONDS (60) with libFuzzer"
	@echo "  make fuzz-exec  fuzz the decoder and executor for FUZZ_SECONDS (60) with libFuzzer"
	@echo "  make fuzz-trace fuzz the trace reader for FUZZ_SECONDS (60) with libFuzzer"
	@echo "  make install    install warpsim, lessons, font, completion (PREFIX=/usr/local, DESTDIR)"
	@echo "  make uninstall  remove what make install put there"
	@echo "  make clean      remove build/"

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
