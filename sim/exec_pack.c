/* exec_pack.c: each function's value registers packed into fewer slots.
 *
 * nvcc names a fresh PTX register for nearly every value, and the simulator
 * gives each a slot of 32 lanes x 8 bytes in every warp: a shared-memory
 * reduction's 32 registers are 8 KB a warp, half a megabyte for an SM's 64
 * warps, and the host's L1 cache misses on nearly every register a warp
 * touches after the others had their turn.  Registers whose lives never
 * overlap can share a slot, as ptxas gives them one physical register:
 * SimProgram.packed is the program again with such registers sharing slots.
 * A launch with no timing model, trace or stepper runs it (exec_run.c); the
 * timing model (its scoreboard waits on PTX registers), traces and the
 * stepper (which shows any register by name) run the named slots.
 *
 * Per lane: a lane's walk through a function is a path of its control-flow
 * graph whatever the other lanes do, every handler writes only the lanes it
 * runs, and so a register is live where some path from there reads it
 * before writing it whole (SimInst.defs, unguarded).  Two registers that
 * one instruction names, or one named by an instruction and one live after
 * it, interfere; each register takes the lowest slot no interfering one
 * took (in declaration order).  A register keeps a slot of its own when a
 * lane may read it before writing it (exec_regs.c: it must read 0), and
 * when a warp-synchronous instruction names it (its handler reads other
 * lanes' registers, which may wait at another instruction).
 *
 * Which fields of a decoded instruction hold registers is the decoders'
 * business, so each function is decoded twice more (exec_decode_func):
 * once with every value register at PROBE + its slot, which marks every
 * field that holds one whatever the decoder did with it, then with the
 * packed slots.  A packed instruction must differ from the named one in
 * exactly those fields, by the packing, or the function stays as named.
 * Functions too large for the analysis's bounds stay as named too. */
#include "exec_int.h"
#include "exec_decode.h"

#include <stdlib.h>
#include <string.h>

/* A slot no real slot reaches: the probe decode's value registers. */
#define PROBE (1 << 28)
/* Bounds on the work, so that no module makes a load slow: registers of a
 * function, liveness words (instructions x registers / 64), and liveness
 * words the passes of all of a module's functions may visit (a pass
 * visits every instruction of its function; control flow running against
 * the instructions' order can take one pass a branch). */
#define PACK_MAX_VALS 8192
#define PACK_MAX_WORDS (1u << 21)
#define PACK_MAX_WORK (1ull << 22)

/* The fields of a SimInst that may hold a value register's slot. */
enum { NFIELD = 12 };
static int32_t *field(SimInst *in, int k)
{
    if (k < 4)
        return &in->s[k];
    if (k < 8)
        return &in->vd[k - 4];
    return k == 8 ? &in->d : k == 9 ? &in->d2 : k == 10 ? &in->base : &in->wmask;
}

/* Whether field k of in is written whole in every lane that runs it (the
 * liveness's kill): exec_regs.c's defs_of. */
static bool field_kills(const SimInst *in, int k)
{
    if (in->guard >= 0)
        return false;
    return (k == 8 && (in->defs & EXEC_DEFS_D)) || (k >= 4 && k < 8 && (in->defs & EXEC_DEFS_VD));
}

typedef struct {
    int n, nv, words;         /* instructions, value registers, uint64_t a set */
    int32_t *reg;             /* [i * NFIELD + k]: register (0..nv-1) field k of
                                 instruction i holds, -1 none */
    uint64_t *live;           /* [i * words]: live before instruction i */
    uint64_t *adj;            /* [x * words]: registers x interferes with */
    uint8_t *own;             /* [x]: keeps a slot of its own */
    uint8_t *ref;             /* [x]: some instruction names it */
    int32_t *color;           /* [x]: its packed slot - reg_base, -1 unnamed */
    int32_t *succ;            /* [2 * i], [2 * i + 1]: where a lane goes after
                                 instruction i (exec_succs), -1 none */
} Pack;

static void bit_set(uint64_t *set, int x)
{
    set[x / 64] |= 1ull << (x % 64);
}

/* Read the probe decode: which register each field of each instruction
 * holds.  false: a field differs from the named decode in a way the
 * packing cannot follow. */
static bool read_fields(const SimProgram *p, int f, SimInst *probe, Pack *pk)
{
    const SimFuncInfo *fi = &p->funcs[f];
    for (int i = 0; i < pk->n; i++) {
        SimInst *pr = &probe[i], named = p->insts[fi->entry_pc + i];
        if (pr->aux >= PROBE || pr->target >= PROBE || pr->off != named.off || pr->guard != named.guard ||
            pr->pd != named.pd || pr->ps != named.ps || pr->pseudo)
            return false;
        for (int k = 0; k < NFIELD; k++) {
            int32_t v = *field(pr, k);
            pk->reg[i * NFIELD + k] = -1;
            if (v < PROBE) {
                if (v != *field(&named, k))
                    return false;
                continue;
            }
            int32_t x = v - PROBE - fi->reg_base;
            if (x < 0 || x >= pk->nv || v - PROBE != *field(&named, k))
                return false;
            pk->reg[i * NFIELD + k] = x;
            pk->ref[x] = 1;
            if (pr->wsync)
                pk->own[x] = 1;
        }
    }
    return true;
}

/* The function's control-flow graph into pk->succ.  false: control flow
 * exec_succs cannot follow. */
static bool graph(const SimProgram *p, int f, Pack *pk)
{
    for (int i = 0; i < pk->n; i++) {
        int s[2], ns = exec_succs(p, f, i, s);
        if (ns < 0)
            return false;
        pk->succ[2 * i] = ns > 0 ? s[0] : -1;
        pk->succ[2 * i + 1] = ns > 1 ? s[1] : -1;
    }
    return true;
}

/* What is live after instruction i, into out: its successors' live sets. */
static void live_after(const Pack *pk, int i, uint64_t *out)
{
    size_t w = (size_t)pk->words;
    memset(out, 0, w * sizeof *out);
    for (int j = 0; j < 2; j++)
        if (pk->succ[2 * i + j] >= 0)
            for (size_t q = 0; q < w; q++)
                out[q] |= pk->live[(size_t)pk->succ[2 * i + j] * w + q];
}

/* Backward liveness to a fixed point: live[i] = uses(i) + (live after i -
 * kills(i)).  false: more passes than *work (words left to visit, less
 * those visited) allows. */
static bool liveness(const SimInst *probe, Pack *pk, uint64_t *out, uint64_t *work)
{
    size_t w = (size_t)pk->words;
    for (bool changed = true; changed;) {
        changed = false;
        if (*work < (uint64_t)pk->n * w)
            return false;
        *work -= (uint64_t)pk->n * w;
        for (int i = pk->n - 1; i >= 0; i--) {
            live_after(pk, i, out);
            for (int k = 0; k < NFIELD; k++) {
                int x = pk->reg[i * NFIELD + k];
                if (x >= 0 && field_kills(&probe[i], k))
                    out[x / 64] &= ~(1ull << (x % 64));
            }
            for (int k = 0; k < NFIELD; k++) {
                int x = pk->reg[i * NFIELD + k];
                if (x >= 0 && !field_kills(&probe[i], k))
                    bit_set(out, x);
            }
            uint64_t *l = pk->live + (size_t)i * w;
            for (size_t q = 0; q < w; q++) {
                changed |= (l[q] | out[q]) != l[q];
                l[q] |= out[q];
            }
        }
    }
    return true;
}

/* Interference: each register an instruction names against the others it
 * names and everything live after it; then made symmetric. */
static void interfere(Pack *pk, uint64_t *out)
{
    size_t w = (size_t)pk->words;
    for (int i = 0; i < pk->n; i++) {
        live_after(pk, i, out);
        for (int k = 0; k < NFIELD; k++)
            if (pk->reg[i * NFIELD + k] >= 0)
                bit_set(out, pk->reg[i * NFIELD + k]);
        for (int k = 0; k < NFIELD; k++) {
            int x = pk->reg[i * NFIELD + k];
            if (x >= 0)
                for (size_t q = 0; q < w; q++)
                    pk->adj[(size_t)x * w + q] |= out[q];
        }
    }
    for (int x = 0; x < pk->nv; x++)
        for (size_t q = 0; q < w; q++)
            for (uint64_t b = pk->adj[(size_t)x * w + q]; b; b &= b - 1)
                bit_set(pk->adj + (q * 64 + (size_t)__builtin_ctzll(b)) * w, x);
}

/* Slots: registers of their own first, then each named register the lowest
 * slot that no interfering register took.  Returns how many slots. */
static int colour(Pack *pk, int *stamp)
{
    size_t w = (size_t)pk->words;
    int ncol = 0;
    for (int x = 0; x < pk->nv; x++) {
        stamp[x] = -1;
        pk->color[x] = pk->ref[x] && pk->own[x] ? ncol++ : -1;
    }
    int nown = ncol;
    for (int x = 0; x < pk->nv; x++) {
        if (!pk->ref[x] || pk->own[x])
            continue;
        for (size_t q = 0; q < w; q++)
            for (uint64_t b = pk->adj[(size_t)x * w + q]; b; b &= b - 1) {
                int c = pk->color[q * 64 + (size_t)__builtin_ctzll(b)];
                if (c >= nown)
                    stamp[c] = x;
            }
        int c = nown;
        while (stamp[c] == x)
            c++;
        pk->color[x] = c;
        if (c + 1 > ncol)
            ncol = c + 1;
    }
    return ncol;
}

/* Whether the packed decode differs from the named one exactly in the
 * register fields, by the packing. */
static bool packed_agrees(const SimProgram *p, int f, const SimInst *packed, const Pack *pk)
{
    const SimFuncInfo *fi = &p->funcs[f];
    for (int i = 0; i < pk->n; i++) {
        SimInst pi = packed[i], named = p->insts[fi->entry_pc + i];
        if (pi.off != named.off || pi.guard != named.guard || pi.pd != named.pd || pi.ps != named.ps ||
            pi.target != named.target || pi.flow != named.flow || pi.visible != named.visible ||
            pi.straight != named.straight || pi.straight_blk != named.straight_blk || pi.jumps != named.jumps)
            return false;
        for (int k = 0; k < NFIELD; k++) {
            int x = pk->reg[i * NFIELD + k];
            int32_t want = x >= 0 ? fi->reg_base + pk->color[x] : *field(&named, k);
            if (*field(&pi, k) != want)
                return false;
        }
    }
    return true;
}

/* Pack function f into p->packed, *work as liveness's.  false: it stays
 * as named there. */
static bool pack_func(SimProgram *p, int f, int32_t *slots, uint64_t *work)
{
    SimFuncInfo *fi = &p->funcs[f];
    const PtxFunc *fn = &p->ptx->funcs[f];
    Pack pk = {.n = fi->end_pc - fi->entry_pc, .nv = fi->n_vals};
    pk.words = (pk.nv + 63) / 64;
    if (fn->is_extern || fi->unsup || !fi->read_unset || pk.n <= 0 || pk.nv < 2 || pk.nv > PACK_MAX_VALS ||
        (uint64_t)pk.n * (uint64_t)pk.words > PACK_MAX_WORDS)
        return false;
    size_t w = (size_t)pk.words;
    SimInst *probe = calloc((size_t)pk.n, sizeof *probe);
    pk.reg = malloc((size_t)pk.n * NFIELD * sizeof *pk.reg);
    pk.live = calloc((size_t)pk.n * w, sizeof *pk.live);
    pk.adj = calloc((size_t)pk.nv * w, sizeof *pk.adj);
    pk.own = calloc((size_t)pk.nv, 1);
    pk.ref = calloc((size_t)pk.nv, 1);
    pk.color = calloc((size_t)pk.nv, sizeof *pk.color);
    pk.succ = malloc((size_t)pk.n * 2 * sizeof *pk.succ);
    uint64_t *out = malloc(w * sizeof *out);
    int *stamp = malloc((size_t)pk.nv * sizeof *stamp);
    int32_t *pack = malloc((size_t)pk.nv * sizeof *pack);
    SimError err;
    bool ok = probe && pk.reg && pk.live && pk.adj && pk.own && pk.ref && pk.color && pk.succ && out && stamp && pack;
    /* the probe's slots: a value register at PROBE + its named slot */
    int nval = 0, npred = 0;
    for (int r = 0; ok && r < fn->n_regs; r++)
        slots[r] = fn->regs[r].type == PTX_T_PRED ? fi->pred_base + npred++ : PROBE + fi->reg_base + nval++;
    ok = ok && !exec_decode_func(p, f, slots, probe, &err) && read_fields(p, f, probe, &pk) &&
         graph(p, f, &pk) && liveness(probe, &pk, out, work);
    if (ok) {
        int named = 0;
        for (int x = 0; x < pk.nv; x++) {
            /* read before written: a slot of its own, cleared (exec_regs.c) */
            if ((fi->read_unset[x / 64] >> (x % 64) & 1) || (pk.live[x / 64] >> (x % 64) & 1))
                pk.own[x] = 1;
            named += pk.ref[x];
        }
        interfere(&pk, out);
        ok = colour(&pk, stamp) < named;
    }
    if (ok) { /* the packed slots (a register no instruction names keeps its own) */
        for (int x = 0; x < pk.nv; x++)
            pack[x] = fi->reg_base + (pk.color[x] >= 0 ? pk.color[x] : x);
        nval = 0;
        for (int r = 0; r < fn->n_regs; r++)
            if (fn->regs[r].type != PTX_T_PRED)
                slots[r] = pack[nval++];
        ok = !exec_decode_func(p, f, slots, &p->packed[fi->entry_pc], &err) &&
             packed_agrees(p, f, &p->packed[fi->entry_pc], &pk);
    }
    if (ok) {
        free(fi->pack);
        fi->pack = pack;
        pack = NULL;
    } else {
        memcpy(&p->packed[fi->entry_pc], &p->insts[fi->entry_pc], (size_t)pk.n * sizeof *p->packed);
    }
    free(probe);
    free(pk.reg);
    free(pk.live);
    free(pk.adj);
    free(pk.own);
    free(pk.ref);
    free(pk.color);
    free(pk.succ);
    free(out);
    free(stamp);
    free(pack);
    return ok;
}

void exec_pack_plan(SimProgram *p)
{
    const PtxModule *m = p->ptx;
    int maxregs = 0;
    for (int f = 0; f < m->n_funcs; f++)
        if (m->funcs[f].n_regs > maxregs)
            maxregs = m->funcs[f].n_regs;
    int32_t *slots = malloc(((size_t)maxregs + 1) * sizeof *slots);
    p->packed = malloc(((size_t)p->n_insts + 1) * sizeof *p->packed);
    bool any = false;
    uint64_t work = PACK_MAX_WORK;
    if (slots && p->packed) {
        memcpy(p->packed, p->insts, ((size_t)p->n_insts + 1) * sizeof *p->packed);
        for (int f = 0; f < m->n_funcs; f++)
            any |= pack_func(p, f, slots, &work);
    }
    if (!any) {
        free(p->packed);
        p->packed = NULL;
    }
    free(slots);
}

bool exec_pack_wanted(void)
{
    const char *env = getenv("WARPSIM_PACK");
    return !env || strcmp(env, "0") != 0;
}
