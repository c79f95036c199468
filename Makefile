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
# Package flags are asked for lazily (=, not :=), when the first recipe runs:
# by then `deps` has installed what was missing on a fresh machine.
PKGS    := sdl2 SDL2_ttf libpng libedit cmocka zlib
# The eval makes each a simple variable at its first use, so pkg-config runs once.
PKGCFLAGS = $(eval PKGCFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null))$(PKGCFLAGS)
PKGLIBS   = $(eval PKGLIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null))$(PKGLIBS)
LDLIBS  += $(PKGLIBS) -lpthread -ldl -lm

LESSON_SRCS := $(wildcard lessons/*.c lessons/*/*.c lessons/*/exercise/*.c)
CLI_SRCS    := $(filter-out cli/main.c,$(wildcard cli/*.c))
TEST_SRCS   := $(wildcard tests/test_*.c)
LIB_SRCS    := $(wildcard $(LIBDIRS:%=%*.c)) $(LESSON_SRCS) $(CLI_SRCS)

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
TESTS     := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
BENCH_SRCS := $(wildcard tests/bench_*.c)
BENCHES   := $(BENCH_SRCS:tests/%.c=$(BUILD)/tests/%)

.SECONDARY:
.PHONY: all test asan ubsan bench help deps lesson1 clean ptx fuzz fuzz-exec fuzz-trace
all: deps $(BUILD)/warpsim

deps:
	@sh scripts/deps.sh

# Order-only on deps: every compile waits until the packages are there.
$(BUILD)/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(SANFLAGS) $(PKGCFLAGS) -c $< -o $@

# Floating-point semantics files must not let the compiler assume the default
# rounding mode: they switch it for .rz/.rm/.rp.
$(BUILD)/obj/sim/alu_float.o $(BUILD)/obj/sim/alu_cvt.o $(BUILD)/obj/sim/exec_float.o $(BUILD)/obj/sim/alu_sfu.o: CFLAGS += -frounding-math -ffp-contract=off
# The measured SFU tables are assembled into the library (.incbin).
$(BUILD)/obj/sim/sfu_blob.o: sim/sfu_tables.bin
$(BUILD)/obj/tests/test_alu.o $(BUILD)/obj/tests/test_exec.o $(BUILD)/obj/tests/test_exec_ops.o: CFLAGS += -frounding-math -ffp-contract=off

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
	@$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

test: all $(TESTS)
	@sh tests/run_tests.sh $(BUILD) $(TESTS)

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
	@for f in lessons/[0-9]*/kernel.cu tests/kernels/*.cu; do sh scripts/gen_ptx.sh $$f || exit 1; done

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
	    sim/trace_read.c sim/trace_write.c sim/error.c tests/fuzz_trace.c -o build/fuzz-trace/fuzz_trace -lz
	build/fuzz-trace/fuzz_trace -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	    -artifact_prefix=build/fuzz-trace/ build/fuzz-trace/corpus tests/corpus/trace

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
	@echo "  make clean      remove build/"

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
