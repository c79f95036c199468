/* isa.c: the PTX ISA 8.x instruction set of sm_90 (PTX ISA manual, chapter
 * 9.7 "Instructions"), row by row, with the reason for each one the
 * simulator does not run; supported is decided by the decoder's own opcode
 * table (exec_decode.c), so docs/ptx-support.md, written from here, cannot
 * claim what the decoder lacks. */
#include "isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INT "Integer arithmetic"
#define EXT "Extended-precision integer arithmetic"
#define FP "Floating-point"
#define HALF "Half precision (f16, f16x2, bf16, bf16x2)"
#define CMP "Comparison and selection"
#define LOGIC "Logic and shift"
#define MOV "Data movement and conversion"
#define ASYNC "Asynchronous copies and TMA"
#define TEX "Texture and surface"
#define CTRL "Control flow"
#define SYNC "Synchronization and communication"
#define MMA "Matrix multiply-accumulate"
#define VIDEO "Video (SIMD within a register)"
#define MISC "Miscellaneous"

#define NO_TEX "textures and surfaces need texture objects the launch API does not create yet"
#define NO_VIDEO "the SIMD video instructions are not implemented"
#define NO_MMA "warp-level matrix multiply (tensor cores) is not implemented"
#define NO_WGMMA "warpgroup MMA (sm_90a tensor cores, with matrix descriptors) is not implemented"
#define NO_TMA "the Tensor Memory Accelerator (bulk and tensor copies, transaction counts) is not implemented"
#define NO_ASYNC_DSMEM "writes another CTA's shared memory and completes its mbarrier's transaction count, which is not implemented (distributed shared memory itself is: ld/st/atom/red .shared::cluster)"
#define CLUSTERS "across the CTAs of a cluster (sim/exec_cluster.c); without clusters each CTA is a cluster of one"
#define NO_MULTIMEM "multimem (NVLink multicast objects) has no meaning on one simulated GPU"

static const IsaRow rows[] = {
    {"add", "add", INT, NULL, ".sat for s32"},
    {"sub", "sub", INT, NULL, NULL},
    {"mul", "mul", INT, NULL, ".lo .hi .wide"},
    {"mad", "mad", INT, NULL, ".lo .hi .wide"},
    {"mul24", "mul24", INT, NULL, NULL},
    {"mad24", "mad24", INT, NULL, NULL},
    {"sad", "sad", INT, NULL, NULL},
    {"div", "div", INT, NULL, "division by zero gives the hardware's values"},
    {"rem", "rem", INT, NULL, NULL},
    {"abs", "abs", INT, NULL, NULL},
    {"neg", "neg", INT, NULL, NULL},
    {"min", "min", INT, NULL, NULL},
    {"max", "max", INT, NULL, NULL},
    {"popc", "popc", INT, NULL, NULL},
    {"clz", "clz", INT, NULL, NULL},
    {"bfind", "bfind", INT, NULL, NULL},
    {"fns", "fns", INT, NULL, NULL},
    {"brev", "brev", INT, NULL, NULL},
    {"bfe", "bfe", INT, NULL, NULL},
    {"bfi", "bfi", INT, NULL, NULL},
    {"szext", "szext", INT, NULL, NULL},
    {"bmsk", "bmsk", INT, NULL, NULL},
    {"dp4a", "dp4a", INT, NULL, NULL},
    {"dp2a", "dp2a", INT, NULL, NULL},
    {"add.cc", "add", EXT, NULL, "CC.CF per thread"},
    {"addc", "addc", EXT, NULL, NULL},
    {"sub.cc", "sub", EXT, NULL, "CC.CF holds the borrow, as the ISA writes it"},
    {"subc", "subc", EXT, NULL, NULL},
    {"mad.cc", "mad", EXT, NULL, NULL},
    {"madc", "madc", EXT, NULL, NULL},
    {"testp", "testp", FP, NULL, NULL},
    {"copysign", "copysign", FP, NULL, NULL},
    {"add.f32/f64", "add", FP, NULL, "every rounding mode, .ftz, .sat"},
    {"sub.f32/f64", "sub", FP, NULL, NULL},
    {"mul.f32/f64", "mul", FP, NULL, NULL},
    {"fma", "fma", FP, NULL, NULL},
    {"mad.f32/f64", "mad", FP, NULL, NULL},
    {"div.f32/f64", "div", FP, NULL, ".approx and .full: the special function unit's bits are another helper's work"},
    {"abs.f32/f64", "abs", FP, NULL, NULL},
    {"neg.f32/f64", "neg", FP, NULL, NULL},
    {"min.f32/f64", "min", FP, NULL, ".NaN"},
    {"max.f32/f64", "max", FP, NULL, ".NaN"},
    {"rcp", "rcp", FP, NULL, ".approx is correctly rounded, not yet the hardware's bits"},
    {"rcp.approx.ftz.f64", "rcp", FP, NULL, NULL},
    {"sqrt", "sqrt", FP, NULL, NULL},
    {"rsqrt", "rsqrt", FP, NULL, ".approx: correctly rounded, not yet the hardware's bits"},
    {"rsqrt.approx.ftz.f64", "rsqrt", FP, NULL, NULL},
    {"sin", "sin", FP, NULL, ".approx: not yet the hardware's bits"},
    {"cos", "cos", FP, NULL, ".approx: not yet the hardware's bits"},
    {"lg2", "lg2", FP, NULL, ".approx: not yet the hardware's bits"},
    {"ex2", "ex2", FP, NULL, ".approx f32: not yet the hardware's bits"},
    {"tanh", "tanh", FP, NULL, ".approx f32: not yet the hardware's bits"},
    {"add.f16/bf16", "add", HALF, NULL, "rounded once from the exact value; NaN results 0x7fff"},
    {"sub.f16/bf16", "sub", HALF, NULL, NULL},
    {"mul.f16/bf16", "mul", HALF, NULL, NULL},
    {"fma.f16/bf16", "fma", HALF, NULL, ".relu, .sat, .ftz"},
    {"neg.f16/bf16", "neg", HALF, NULL, "NaN in, 0x7fff out (as the H100)"},
    {"abs.f16/bf16", "abs", HALF, NULL, NULL},
    {"min.f16/bf16", "min", HALF, NULL, ".NaN"},
    {"max.f16/bf16", "max", HALF, NULL, ".NaN"},
    {"ex2.approx.f16/bf16", "ex2", HALF, NULL, "computed as the f32 form, rounded: not yet the hardware's bits"},
    {"tanh.approx.f16/bf16", "tanh", HALF, NULL, "computed as the f32 form, rounded: not yet the hardware's bits"},
    {"set", "set", CMP, NULL, "f16/bf16 and packed sources and destinations too"},
    {"setp", "setp", CMP, NULL, NULL},
    {"selp", "selp", CMP, NULL, NULL},
    {"slct", "slct", CMP, NULL, NULL},
    {"and", "and", LOGIC, NULL, NULL},
    {"or", "or", LOGIC, NULL, NULL},
    {"xor", "xor", LOGIC, NULL, NULL},
    {"not", "not", LOGIC, NULL, NULL},
    {"cnot", "cnot", LOGIC, NULL, NULL},
    {"lop3", "lop3", LOGIC, NULL, NULL},
    {"shf", "shf", LOGIC, NULL, NULL},
    {"shl", "shl", LOGIC, NULL, NULL},
    {"shr", "shr", LOGIC, NULL, NULL},
    {"mov", "mov", MOV, NULL, "packing and unpacking {a, b}"},
    {"shfl.sync", "shfl", MOV, NULL, "waits for its member mask (independent thread scheduling)"},
    {"prmt", "prmt", MOV, NULL, NULL},
    {"ld", "ld", MOV, NULL, ".L2::cache_hint policies are read and ignored"},
    {"ld.global.nc", "ld", MOV, NULL, NULL},
    {"ldu", "ldu", MOV, NULL, NULL},
    {"st", "st", MOV, NULL, NULL},
    {"st.async", "st", MOV, NO_ASYNC_DSMEM, NULL},
    {"red.async", "red", MOV, NO_ASYNC_DSMEM, NULL},
    {"multimem.ld_reduce, multimem.st, multimem.red", "multimem", MOV, NO_MULTIMEM, NULL},
    {"prefetch", "prefetch", MOV, NULL, "no effect on values"},
    {"prefetchu", "prefetchu", MOV, NULL, "no effect on values"},
    {"applypriority", "applypriority", MOV, NULL, "a hint; the 128 bytes are checked"},
    {"discard", "discard", MOV, NULL, "keeps the contents (one of the values the ISA allows)"},
    {"createpolicy", "createpolicy", MOV, NULL, "the opaque policy is 0"},
    {"isspacep", "isspacep", MOV, NULL, "`.global`, `.shared`, `.local`, `.const`, `.param` (a kernel parameter's generic address)"},
    {"cvta", "cvta", MOV, NULL, "`.param` of a kernel parameter (`__grid_constant__`: a generic address every thread shares, read-only), not of a device function's"},
    {"cvt", "cvt", MOV, NULL, "every rounding mode; f16x2/bf16x2 from two f32; .relu, .satfinite"},
    {"cvt.pack", "cvt", MOV, "cvt.pack is not implemented", NULL},
    {"cvt to e4m3/e5m2 (fp8)", "cvt", MOV, "fp8 conversions are not implemented", NULL},
    {"mapa", "mapa", MOV, NULL, CLUSTERS "; a rank outside the cluster faults"},
    {"getctarank", "getctarank", MOV, NULL, CLUSTERS},
    {"cp.async", "cp", ASYNC, NULL, "copies land when the issuing thread waits"},
    {"cp.async.commit_group, cp.async.wait_group, cp.async.wait_all", "cp", ASYNC, NULL, NULL},
    {"cp.async.mbarrier.arrive", "cp", ASYNC, NULL, NULL},
    {"cp.async.bulk", "cp", ASYNC, NO_TMA, NULL},
    {"cp.reduce.async.bulk", "cp", ASYNC, NO_TMA, NULL},
    {"cp.async.bulk.prefetch", "cp", ASYNC, NO_TMA, NULL},
    {"cp.async.bulk.tensor", "cp", ASYNC, NO_TMA, NULL},
    {"cp.reduce.async.bulk.tensor", "cp", ASYNC, NO_TMA, NULL},
    {"cp.async.bulk.prefetch.tensor", "cp", ASYNC, NO_TMA, NULL},
    {"cp.async.bulk.commit_group, cp.async.bulk.wait_group", "cp", ASYNC, NO_TMA, NULL},
    {"tensormap.replace, tensormap.cp_fenceproxy", "tensormap", ASYNC, NO_TMA, NULL},
    {"tex, tld4, txq, istypep", "tex", TEX, NO_TEX, NULL},
    {"suld, sust, sured, suq", "suld", TEX, NO_TEX, NULL},
    {"bra", "bra", CTRL, NULL, "direct targets"},
    {"brx.idx", "brx", CTRL, "indirect branches through a label table are not implemented", NULL},
    {"call", "call", CTRL, NULL, "recursion through a per-thread stack; vprintf, malloc, free, __assertfail"},
    {"call (indirect, through a register)", "call", CTRL, "indirect calls are not implemented", NULL},
    {"ret", "ret", CTRL, NULL, NULL},
    {"exit", "exit", CTRL, NULL, NULL},
    {"bar, barrier", "barrier", SYNC, NULL, ".sync .arrive .red, named barriers with counts"},
    {"bar.warp.sync", "bar", SYNC, NULL, NULL},
    {"barrier.cluster", "barrier", SYNC, NULL, CLUSTERS "; .arrive/.wait split, exits release it, a wait that "
     "cannot complete is a deadlock fault"},
    {"clusters of several CTAs (__cluster_dims__, --cluster, distributed shared memory)", "mapa", SYNC, NULL,
     "gang-dispatched onto SMs of one GPC; ld/st/atom/red .shared::cluster reach any CTA of the cluster, an "
     "exited one faults; the race checker orders accesses across a completed barrier.cluster"},
    {"membar", "membar", SYNC, NULL, "the simulator is sequentially consistent"},
    {"fence", "fence", SYNC, NULL, "the simulator is sequentially consistent"},
    {"fence.proxy.tensormap", "fence", SYNC, NO_TMA, NULL},
    {"atom", "atom", SYNC, NULL, "32 and 64 bits; element order by policy"},
    {"atom.add.noftz (f16, f16x2, bf16, bf16x2)", "atom", SYNC, NULL, "rounded to nearest, subnormals kept"},
    {"atom (vector .v2/.v4, f16 min/max)", "atom", SYNC, "vector and half-precision min/max atomics are not implemented",
     NULL},
    {"red", "red", SYNC, NULL, NULL},
    {"vote.sync", "vote", SYNC, NULL, NULL},
    {"match.sync", "match", SYNC, NULL, NULL},
    {"activemask", "activemask", SYNC, NULL, NULL},
    {"redux.sync", "redux", SYNC, NULL, NULL},
    {"griddepcontrol", "griddepcontrol", SYNC, NULL, "launches run one after another: no effect"},
    {"elect.sync", "elect", SYNC, NULL, "the lowest lane of the mask leads (as the H100)"},
    {"//@ tile markers (lessons/include/tile.cuh)", "tile", SYNC, NULL,
     "not a PTX instruction: a comment ptxas ignores; the simulator records a tile event"},
    {"mbarrier.init, arrive, arrive_drop, test_wait, try_wait, pending_count, inval", "mbarrier", SYNC, NULL,
     ".shared::cta and .shared::cluster spellings"},
    {"mbarrier.expect_tx, complete_tx", "mbarrier", SYNC, NO_TMA, NULL},
    {"setmaxnreg", "setmaxnreg", SYNC, "register reallocation between warpgroups is not modelled", NULL},
    {"stacksave, stackrestore, alloca", "alloca", MISC, "dynamic local allocation is not implemented", NULL},
    {"wmma.load, wmma.store, wmma.mma", "wmma", MMA, NO_MMA, NULL},
    {"mma, mma.sp", "mma", MMA, NO_MMA, NULL},
    {"ldmatrix, stmatrix, movmatrix", "ldmatrix", MMA, NO_MMA, NULL},
    {"wgmma.mma_async, wgmma.mma_async.sp", "wgmma", MMA, NO_WGMMA, NULL},
    {"wgmma.fence, wgmma.commit_group, wgmma.wait_group", "wgmma", MMA, NO_WGMMA, NULL},
    {"vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vmad, vset", "vadd", VIDEO, NO_VIDEO, NULL},
    {"vadd2, vsub2, vavrg2, vabsdiff2, vmin2, vmax2, vset2", "vadd2", VIDEO, NO_VIDEO, NULL},
    {"vadd4", "vadd4", VIDEO, NULL, "the plain form: default byte selectors and mask, .sat; not .add"},
    {"vsub4", "vsub4", VIDEO, NULL, "the plain form"},
    {"vabsdiff4", "vabsdiff4", VIDEO, NULL, "the plain form"},
    {"vmin4", "vmin4", VIDEO, NULL, "the plain form"},
    {"vmax4", "vmax4", VIDEO, NULL, "the plain form"},
    {"vavrg4, vset4; byte selectors, masks, .add", "vavrg4", VIDEO, NO_VIDEO, NULL},
    {"trap", "trap", MISC, NULL, NULL},
    {"brkpt", "brkpt", MISC, NULL, "no effect"},
    {"nanosleep", "nanosleep", MISC, NULL, "no effect on values"},
    {"pmevent", "pmevent", MISC, NULL, "no effect"},
};

int isa_count(void)
{
    return (int)(sizeof rows / sizeof *rows);
}

const IsaRow *isa_row(int i)
{
    return i >= 0 && i < isa_count() ? &rows[i] : NULL;
}

bool isa_supported(const IsaRow *r)
{
    return r && !r->why && exec_decodes_opcode(r->opcode);
}

char *isa_markdown(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int yes = 0;
    for (int i = 0; i < isa_count(); i++)
        yes += isa_supported(&rows[i]);
    fprintf(f, "# PTX instructions of sm_90 in warpsim\n\n"
               "Generated from the simulator's own table (`sim/isa.c`, which asks the decoder, "
               "`sim/exec_decode.c`, for every opcode); `make test` fails when this file and the table "
               "disagree (regenerate it with `build/tests/test_isa --write`).\n\n"
               "PTX ISA 8.x, chapter 9.7. %d of %d rows run in the simulator. A kernel that can reach an "
               "instruction marked *no* is refused when it is launched, naming the instruction, its PTX "
               "line and its `.cu` line; the module's other kernels run.\n",
            yes, isa_count());
    const char *group = "";
    for (int i = 0; i < isa_count(); i++) {
        const IsaRow *r = &rows[i];
        if (strcmp(group, r->group)) {
            group = r->group;
            fprintf(f, "\n## %s\n\n| instruction | runs | notes |\n|---|---|---|\n", group);
        }
        bool ok = isa_supported(r);
        const char *text = ok ? (r->note ? r->note : "") : r->why ? r->why : "the decoder has no entry for it";
        fprintf(f, "| `%s` | %s | %s |\n", r->name, ok ? "yes" : "**no**", text);
    }
    if (fclose(f))
        return NULL;
    return buf;
}
