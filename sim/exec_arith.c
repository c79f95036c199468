/* exec_arith.c: integer and bit instructions, comparisons and selects --
 * their decoders (dec_arith, dec_cmp) and handlers (mov and cvta: exec_mov.c).
 * Common 32/64-bit forms have inlined loops; the rest call alu_* per lane. */
#include "exec_int.h"
#include "exec_decode.h"
#include "exec_lanes.h"
#include "exec_vec.h"

#include <string.h>

/* ---- fast 32/64-bit binary operations ---------------------------------- */
#define BIN(name, T, expr)                                                   \
    static void name(Exec *x, Warp *w, const SimInst *in, uint32_t m)        \
    {                                                                        \
        OPS_D; OPS_A; OPS_B;                                                 \
        LANES(m, { T A = (T)a[l], B = (T)b[l]; d[l] = (uint64_t)(T)(expr); }); \
    }
BIN(ex_add32, uint32_t, A + B)
BIN(ex_add64, uint64_t, A + B)
BIN(ex_sub32, uint32_t, A - B)
BIN(ex_sub64, uint64_t, A - B)
BIN(ex_mul32, uint32_t, A * B)
BIN(ex_mul64, uint64_t, A * B)
BIN(ex_and32, uint32_t, A & B)
BIN(ex_and64, uint64_t, A & B)
BIN(ex_or32, uint32_t, A | B)
BIN(ex_or64, uint64_t, A | B)
BIN(ex_xor32, uint32_t, A ^ B)
BIN(ex_xor64, uint64_t, A ^ B)
/* Shifts: an immediate amount is the same in every lane, and a loop with
 * one amount vectorises (SSE2 has no per-lane shift counts). */
#define SHIFT(name, expr)                                                    \
    static void name(Exec *x, Warp *w, const SimInst *in, uint32_t m)        \
    {                                                                        \
        OPS_D; OPS_A; OPS_B;                                                 \
        if (in->s[1] < 0) {                                                  \
            uint32_t B = (uint32_t)b[0];                                     \
            LANES(m, { uint32_t A = (uint32_t)a[l]; d[l] = (uint32_t)(expr); }); \
        } else {                                                             \
            LANES(m, { uint32_t A = (uint32_t)a[l], B = (uint32_t)b[l];      \
                       d[l] = (uint32_t)(expr); });                          \
        }                                                                    \
    }
SHIFT(ex_shl32, B >= 32 ? 0 : A << B)
SHIFT(ex_shr_u32, B >= 32 ? 0 : A >> B)
SHIFT(ex_shr_s32, (uint32_t)((int32_t)A >> (B >= 32 ? 31 : B)))
BIN(ex_mulwide_s32, uint64_t, (uint64_t)((int64_t)(int32_t)A * (int64_t)(int32_t)B))
BIN(ex_mulwide_u32, uint64_t, (uint64_t)(uint32_t)A * (uint64_t)(uint32_t)B)

#define TER(name, T, expr)                                                   \
    static void name(Exec *x, Warp *w, const SimInst *in, uint32_t m)        \
    {                                                                        \
        OPS_D; OPS_A; OPS_B; OPS_C;                                          \
        LANES(m, { T A = (T)a[l], B = (T)b[l], C = (T)c[l]; d[l] = (uint64_t)(T)(expr); }); \
    }
TER(ex_mad32, uint32_t, A * B + C)
TER(ex_mad64, uint64_t, A * B + C)
TER(ex_madwide_s32, uint64_t, (uint64_t)((int64_t)(int32_t)A * (int64_t)(int32_t)B) + C)
TER(ex_madwide_u32, uint64_t, (uint64_t)(uint32_t)A * (uint64_t)(uint32_t)B + C)

/* The host's vector form of a fast handler (exec_vec.h), else the handler. */
static ExecFn vec_of(ExecFn fast, const SimInst *in)
{
    static const struct {
        ExecFn fn;
        ExecVecOp op;
    } map[] = {
        {ex_add32, EXEC_VEC_ADD32}, {ex_sub32, EXEC_VEC_SUB32}, {ex_mul32, EXEC_VEC_MUL32},
        {ex_and32, EXEC_VEC_AND32}, {ex_or32, EXEC_VEC_OR32}, {ex_xor32, EXEC_VEC_XOR32},
        {ex_shl32, EXEC_VEC_SHL32}, {ex_shr_u32, EXEC_VEC_SHR_U32}, {ex_shr_s32, EXEC_VEC_SHR_S32},
        {ex_mad32, EXEC_VEC_MAD32}, {ex_mulwide_s32, EXEC_VEC_MULWIDE_S32},
        {ex_mulwide_u32, EXEC_VEC_MULWIDE_U32}, {ex_madwide_s32, EXEC_VEC_MADWIDE_S32},
        {ex_madwide_u32, EXEC_VEC_MADWIDE_U32}, {ex_add64, EXEC_VEC_ADD64}, {ex_sub64, EXEC_VEC_SUB64},
        {ex_and64, EXEC_VEC_AND64}, {ex_or64, EXEC_VEC_OR64}, {ex_xor64, EXEC_VEC_XOR64}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (map[k].fn == fast) {
            ExecFn v = exec_vec_int(map[k].op, in);
            return v ? v : fast;
        }
    return fast;
}

/* ---- generic forms: any width, through alu_* -------------------------- */
enum {
    OP_ADD, OP_SUB, OP_MUL_LO, OP_MUL_HI, OP_MUL_WIDE, OP_MAD_LO, OP_MAD_HI, OP_MAD_WIDE,
    OP_DIV, OP_REM, OP_ABS, OP_NEG, OP_MIN, OP_MAX, OP_POPC, OP_CLZ, OP_BREV, OP_BFIND,
    OP_BFIND_SH, OP_BFE, OP_BFI, OP_PRMT, OP_SHL, OP_SHR, OP_AND, OP_OR, OP_XOR, OP_NOT,
    OP_CNOT, OP_SAD, OP_ADD_SAT, OP_SUB_SAT, OP_MUL24_LO, OP_MUL24_HI, OP_MAD24_LO,
    OP_MAD24_HI, OP_SHF_L_WRAP, OP_SHF_L_CLAMP, OP_SHF_R_WRAP, OP_SHF_R_CLAMP
};

static uint64_t ext(PtxType t, uint64_t v) { return alu_extend(t, v); }

static uint64_t wide_type_mask(PtxType t)
{
    return lanes_wmask(ptx_type_size(t) * 2);
}

static void ex_generic(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D;
    const uint64_t *a = exec_src(x, w, in->s[0]);
    const uint64_t *b = in->s[1] != -1 ? exec_src(x, w, in->s[1]) : a;
    const uint64_t *c = in->s[2] != -1 ? exec_src(x, w, in->s[2]) : a;
    PtxType t = (PtxType)in->type;
    uint64_t wm = lanes_wmask(ptx_type_size(t));
    LANES(m, {
        uint64_t A = a[l] & wm, B = b[l] & wm, C = c[l], r = 0;
        switch (in->sub) {
        case OP_ADD: r = A + B; break;
        case OP_SUB: r = A - B; break;
        case OP_MUL_LO: r = A * B; break;
        case OP_MUL_HI: r = alu_int_mul_hi(t, A, B); break;
        case OP_MUL_WIDE: r = (ext(t, A) * ext(t, B)) & wide_type_mask(t); break;
        case OP_MAD_LO: r = A * B + C; break;
        case OP_MAD_HI: r = alu_int_mul_hi(t, A, B) + C; break;
        case OP_MAD_WIDE: r = ((ext(t, A) * ext(t, B)) + C) & wide_type_mask(t); break;
        case OP_DIV: r = alu_int_div(t, A, B); break;
        case OP_REM: r = alu_int_rem(t, A, B); break;
        case OP_ABS: r = alu_int_abs(t, A); break;
        case OP_NEG: r = 0 - A; break;
        case OP_MIN: r = alu_int_min(t, A, B); break;
        case OP_MAX: r = alu_int_max(t, A, B); break;
        case OP_POPC: r = alu_popc(t, A); break;
        case OP_CLZ: r = alu_clz(t, A); break;
        case OP_BREV: r = alu_brev(t, A); break;
        case OP_BFIND: r = alu_bfind(t, A, false); break;
        case OP_BFIND_SH: r = alu_bfind(t, A, true); break;
        case OP_BFE: r = alu_bfe(t, A, (uint32_t)b[l], (uint32_t)c[l]); break;
        case OP_BFI: r = alu_bfi(t, A, B, (uint32_t)C, (uint32_t)exec_src(x, w, in->s[3])[l]); break;
        case OP_PRMT: r = alu_prmt((uint32_t)A, (uint32_t)B, (uint32_t)C, (AluPrmtMode)in->aux); break;
        case OP_SHL: r = alu_shl(t, A, (uint32_t)b[l]); break;
        case OP_SHR: r = alu_shr(t, A, (uint32_t)b[l]); break;
        case OP_AND: r = A & B; break;
        case OP_OR: r = A | B; break;
        case OP_XOR: r = A ^ B; break;
        case OP_NOT: r = ~A; break;
        case OP_CNOT: r = A == 0; break;
        case OP_SAD: r = alu_int_sad(t, A, B, C); break;
        case OP_ADD_SAT: r = alu_s32_add_sat((uint32_t)A, (uint32_t)B); break;
        case OP_SUB_SAT: r = alu_s32_sub_sat((uint32_t)A, (uint32_t)B); break;
        case OP_MUL24_LO: r = alu_mul24(t, false, (uint32_t)A, (uint32_t)B); break;
        case OP_MUL24_HI: r = alu_mul24(t, true, (uint32_t)A, (uint32_t)B); break;
        case OP_MAD24_LO: r = alu_mul24(t, false, (uint32_t)A, (uint32_t)B) + C; break;
        case OP_MAD24_HI: r = alu_mul24(t, true, (uint32_t)A, (uint32_t)B) + C; break;
        case OP_SHF_L_WRAP: r = alu_shf(true, true, (uint32_t)A, (uint32_t)B, (uint32_t)C); break;
        case OP_SHF_L_CLAMP: r = alu_shf(true, false, (uint32_t)A, (uint32_t)B, (uint32_t)C); break;
        case OP_SHF_R_WRAP: r = alu_shf(false, true, (uint32_t)A, (uint32_t)B, (uint32_t)C); break;
        case OP_SHF_R_CLAMP: r = alu_shf(false, false, (uint32_t)A, (uint32_t)B, (uint32_t)C); break;
        }
        if (in->sub == OP_MUL_WIDE || in->sub == OP_MAD_WIDE)
            d[l] = r;
        else if (in->sub == OP_POPC || in->sub == OP_CLZ || in->sub == OP_BFIND || in->sub == OP_BFIND_SH)
            d[l] = (uint32_t)r;
        else
            d[l] = r & wm;
    });
}

/* predicate logic: and/or/xor/not on .pred */
static void ex_pred_logic(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    (void)x;
    uint32_t a = in->s[0] >= 0 ? w->p[in->s[0]] : 0;
    uint32_t b = in->s[1] >= 0 ? w->p[in->s[1]] : 0;
    if (in->negsrc & 1) a = ~a;
    if (in->negsrc & 2) b = ~b;
    uint32_t r = 0;
    switch (in->sub) {
    case OP_AND: r = a & b; break;
    case OP_OR: r = a | b; break;
    case OP_XOR: r = a ^ b; break;
    case OP_NOT: r = ~a; break;
    case OP_CNOT: r = ~a; break;
    default: r = a; break; /* mov */
    }
    w->p[in->d] = (w->p[in->d] & ~m) | (r & m);
}

SimStatus dec_arith(DecodeCtx *c)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    int nt = dec_types(c, ts);
    if (nt != 1)
        return dec_fail(c, "expected one type modifier");
    PtxType t = ts[0];
    in->type = (uint8_t)t;
    int sz = ptx_type_size(t);
    int nsrc = 2;
    static const char *const ignored[] = {"uni", NULL};
    dec_ignore(c, ignored);
    if (!strcmp(op, "addc") || !strcmp(op, "subc") || !strcmp(op, "madc"))
        return dec_carry(c, t);
    for (int k = 0; k < c->pi->n_mods; k++)
        if (!strcmp(c->pi->mods[k], "cc") && (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mad")))
            return dec_carry(c, t);

    if (t == PTX_T_PRED) { /* and/or/xor/not/mov on predicates */
        int sub;
        if (!strcmp(op, "and")) sub = OP_AND;
        else if (!strcmp(op, "or")) sub = OP_OR;
        else if (!strcmp(op, "xor")) sub = OP_XOR;
        else if (!strcmp(op, "not")) sub = OP_NOT;
        else return dec_fail(c, "not defined for .pred");
        in->sub = (uint8_t)sub;
        bool neg = false;
        if (dec_pred(c, 0, &in->d, NULL))
            return c->err->status;
        if (dec_pred(c, 1, &in->s[0], &neg))
            return c->err->status;
        in->negsrc = neg;
        if (sub != OP_NOT) {
            if (dec_pred(c, 2, &in->s[1], &neg))
                return c->err->status;
            in->negsrc |= (uint8_t)(neg << 1);
        }
        if (in->d < 0 || in->s[0] < -1 || in->s[1] < -1)
            return dec_fail(c, "constant predicates are not supported here");
        in->fn = ex_pred_logic;
        in->defs = EXEC_DEFS_PRED;
        return SIM_OK;
    }
    if (sz < 1 || sz > 8)
        return dec_fail(c, "type .%s is not supported", ptx_type_name(t));
    bool is32 = sz == 4, is64 = sz == 8, sgn = ptx_type_is_signed(t);
    ExecFn fast = NULL;
    int sub = -1;
    if (!strcmp(op, "add") || !strcmp(op, "sub")) {
        bool add = op[0] == 'a';
        if (dec_mod(c, "sat")) {
            if (t != PTX_T_S32)
                return dec_fail(c, ".sat needs .s32");
            sub = add ? OP_ADD_SAT : OP_SUB_SAT;
        } else {
            sub = add ? OP_ADD : OP_SUB;
            fast = is32 ? (add ? ex_add32 : ex_sub32) : is64 ? (add ? ex_add64 : ex_sub64) : NULL;
        }
    } else if (!strcmp(op, "mul") || !strcmp(op, "mad")) {
        bool mad = op[1] == 'a';
        nsrc = mad ? 3 : 2;
        if (dec_mod(c, "lo")) {
            sub = mad ? OP_MAD_LO : OP_MUL_LO;
            fast = is32 ? (mad ? ex_mad32 : ex_mul32) : is64 ? (mad ? ex_mad64 : ex_mul64) : NULL;
        } else if (dec_mod(c, "hi")) {
            sub = mad ? OP_MAD_HI : OP_MUL_HI;
        } else if (dec_mod(c, "wide")) {
            if (is64)
                return dec_fail(c, ".wide needs a 16- or 32-bit type");
            sub = mad ? OP_MAD_WIDE : OP_MUL_WIDE;
            if (is32)
                fast = mad ? (sgn ? ex_madwide_s32 : ex_madwide_u32) : (sgn ? ex_mulwide_s32 : ex_mulwide_u32);
        } else {
            return dec_fail(c, "needs .lo, .hi or .wide");
        }
        if (mad && dec_mod(c, "sat"))
            return dec_fail(c, "mad.sat is not supported");
    } else if (!strcmp(op, "mul24") || !strcmp(op, "mad24")) {
        bool mad = op[1] == 'a';
        nsrc = mad ? 3 : 2;
        bool hi = dec_mod(c, "hi");
        if (!hi && !dec_mod(c, "lo"))
            return dec_fail(c, "needs .lo or .hi");
        sub = mad ? (hi ? OP_MAD24_HI : OP_MAD24_LO) : (hi ? OP_MUL24_HI : OP_MUL24_LO);
    } else if (!strcmp(op, "div")) {
        sub = OP_DIV;
    } else if (!strcmp(op, "rem")) {
        sub = OP_REM;
    } else if (!strcmp(op, "abs")) {
        sub = OP_ABS; nsrc = 1;
    } else if (!strcmp(op, "neg")) {
        sub = OP_NEG; nsrc = 1;
    } else if (!strcmp(op, "min")) {
        sub = OP_MIN;
    } else if (!strcmp(op, "max")) {
        sub = OP_MAX;
    } else if (!strcmp(op, "popc")) {
        sub = OP_POPC; nsrc = 1;
    } else if (!strcmp(op, "clz")) {
        sub = OP_CLZ; nsrc = 1;
    } else if (!strcmp(op, "brev")) {
        sub = OP_BREV; nsrc = 1;
    } else if (!strcmp(op, "bfind")) {
        sub = dec_mod(c, "shiftamt") ? OP_BFIND_SH : OP_BFIND; nsrc = 1;
    } else if (!strcmp(op, "bfe")) {
        sub = OP_BFE; nsrc = 3;
    } else if (!strcmp(op, "bfi")) {
        sub = OP_BFI; nsrc = 4;
    } else if (!strcmp(op, "prmt")) {
        static const char *const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        in->aux = ALU_PRMT_DEFAULT;
        for (int k = 0; k < 6; k++)
            if (dec_mod(c, modes[k]))
                in->aux = ALU_PRMT_F4E + k;
        sub = OP_PRMT; nsrc = 3;
    } else if (!strcmp(op, "shf")) {
        bool l = dec_mod(c, "l");
        if (!l && !dec_mod(c, "r"))
            return dec_fail(c, "needs .l or .r");
        bool wrap = dec_mod(c, "wrap");
        if (!wrap && !dec_mod(c, "clamp"))
            return dec_fail(c, "needs .wrap or .clamp");
        sub = l ? (wrap ? OP_SHF_L_WRAP : OP_SHF_L_CLAMP) : (wrap ? OP_SHF_R_WRAP : OP_SHF_R_CLAMP);
        nsrc = 3;
    } else if (!strcmp(op, "shl")) {
        sub = OP_SHL;
        fast = is32 ? ex_shl32 : NULL;
    } else if (!strcmp(op, "shr")) {
        sub = OP_SHR;
        fast = is32 ? (sgn ? ex_shr_s32 : ex_shr_u32) : NULL;
    } else if (!strcmp(op, "and")) {
        sub = OP_AND; fast = is32 ? ex_and32 : is64 ? ex_and64 : NULL;
    } else if (!strcmp(op, "or")) {
        sub = OP_OR; fast = is32 ? ex_or32 : is64 ? ex_or64 : NULL;
    } else if (!strcmp(op, "xor")) {
        sub = OP_XOR; fast = is32 ? ex_xor32 : is64 ? ex_xor64 : NULL;
    } else if (!strcmp(op, "not")) {
        sub = OP_NOT; nsrc = 1;
    } else if (!strcmp(op, "cnot")) {
        sub = OP_CNOT; nsrc = 1;
    } else if (!strcmp(op, "sad")) {
        sub = OP_SAD; nsrc = 3;
    } else {
        return dec_fail(c, "unknown integer operation");
    }
    in->sub = (uint8_t)sub;
    if (dec_dst(c, 0, &in->d))
        return c->err->status;
    if (in->d < 0)
        return dec_fail(c, "destination cannot be '_'");
    if (c->pi->n_opnds != nsrc + 1)
        return dec_fail(c, "expected %d operands, found %d", nsrc + 1, c->pi->n_opnds);
    for (int i = 0; i < nsrc; i++) {
        /* shift amounts, bfe/bfi positions and prmt selectors are .u32 */
        PtxType st = t;
        if ((sub == OP_SHL || sub == OP_SHR) && i == 1) st = PTX_T_U32;
        if ((sub == OP_BFE && i >= 1) || (sub == OP_BFI && i >= 2)) st = PTX_T_U32;
        if ((sub == OP_MAD_WIDE) && i == 2) st = sgn ? PTX_T_S64 : PTX_T_U64;
        if (dec_src(c, i + 1, st, &in->s[i]))
            return c->err->status;
    }
    in->fn = fast ? vec_of(fast, in) : ex_generic;
    in->defs = EXEC_DEFS_D;
    return SIM_OK;
}

/* ---- setp / set / selp / slct ------------------------------------------ */

/* 32-bit integer comparisons: every lane is compared (inactive lanes hold
 * values too), four at a time (GCC's vector extension, which clang has
 * too): the low halves of four 64-bit slots, compared, give -1 or 0 per
 * lane, and ANDed with the lanes' bits they gather into the mask. */
#define CMP32_LOOP(T, OP)                                                            \
    do {                                                                             \
        typedef T T4 __attribute__((vector_size(16)));                               \
        typedef uint64_t U64x4 __attribute__((vector_size(32)));                     \
        typedef int32_t M4 __attribute__((vector_size(16)));                         \
        M4 acc = {0, 0, 0, 0}, bit = {1, 2, 4, 8};                                   \
        for (int l = 0; l < WARP; l += 4, bit <<= 4) {                               \
            U64x4 ua, ub;                                                            \
            memcpy(&ua, a + l, sizeof ua);                                           \
            memcpy(&ub, b + l, sizeof ub);                                           \
            T4 va = __builtin_convertvector(ua, T4), vb = __builtin_convertvector(ub, T4); \
            acc |= (M4)(va OP vb) & bit;                                             \
        }                                                                            \
        return (uint32_t)(acc[0] | acc[1] | acc[2] | acc[3]) & m;                    \
    } while (0)
#define CMP32(T)                                                                     \
    do {                                                                             \
        switch (op) {                                                                \
        case ALU_CMP_EQ: CMP32_LOOP(T, ==);                                          \
        case ALU_CMP_NE: CMP32_LOOP(T, !=);                                          \
        case ALU_CMP_LT: CMP32_LOOP(T, <);                                           \
        case ALU_CMP_LE: CMP32_LOOP(T, <=);                                          \
        case ALU_CMP_GT: CMP32_LOOP(T, >);                                           \
        default: CMP32_LOOP(T, >=);                                                  \
        }                                                                            \
    } while (0)

static inline uint32_t cmp_lanes(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A; OPS_B;
    PtxType t = (PtxType)in->type;
    AluCmp op = (AluCmp)in->cmp;
    if (t == PTX_T_S32 && op <= ALU_CMP_GE)
        CMP32(int32_t);
    if ((t == PTX_T_U32 || t == PTX_T_B32) && op <= ALU_CMP_GE)
        CMP32(uint32_t);
    uint32_t r = 0;
    LANES(m, { r |= (uint32_t)alu_compare(op, t, a[l], b[l], in->ftz) << l; });
    return r;
}

static uint32_t combine(const Warp *w, const SimInst *in, uint32_t r)
{
    if (!in->bop)
        return r;
    uint32_t c = in->ps >= 0 ? w->p[in->ps] : in->ps == -2 ? FULL_MASK : 0;
    if (in->negsrc)
        c = ~c;
    return in->bop == 1 ? r & c : in->bop == 2 ? r | c : r ^ c;
}

static void ex_setp(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint32_t r = cmp_lanes(x, w, in, m);
    uint32_t t = combine(w, in, r), f = combine(w, in, ~r);
    if (in->d >= 0)
        w->p[in->d] = (w->p[in->d] & ~m) | (t & m);
    if (in->pd >= 0)
        w->p[in->pd] = (w->p[in->pd] & ~m) | (f & m);
}

static void ex_set(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint32_t r = combine(w, in, cmp_lanes(x, w, in, m));
    uint64_t *d = exec_reg(w, in->d);
    bool f = in->sub; /* float destination: 1.0f */
    LANES(m, { d[l] = (r >> l & 1) ? (f ? 0x3f800000u : 0xffffffffu) : 0; });
}

static void ex_selp(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A; OPS_B;
    uint32_t p = in->ps >= 0 ? w->p[in->ps] : in->ps == -2 ? FULL_MASK : 0;
    LANES(m, { d[l] = (p >> l & 1) ? a[l] : b[l]; });
}

static void ex_slct(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A; OPS_B; OPS_C;
    bool f = in->type2 == PTX_T_F32;
    LANES(m, {
        bool ge;
        if (f) {
            uint32_t cb = (uint32_t)c[l];
            float cv;
            memcpy(&cv, &cb, 4);
            ge = cv >= 0.0f; /* NaN selects b, -0 selects a */
            if (in->ftz && (cb & 0x7f800000u) == 0)
                ge = true;
        } else {
            ge = (int32_t)c[l] >= 0;
        }
        d[l] = ge ? a[l] : b[l];
    });
}

SimStatus dec_cmp(DecodeCtx *c)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    in->ftz = dec_mod(c, "ftz");
    if (!strcmp(op, "selp")) {
        if (dec_types(c, ts) != 1)
            return dec_fail(c, "expected one type");
        in->type = (uint8_t)ts[0];
        bool neg = false;
        if (dec_dst(c, 0, &in->d) || dec_src(c, 1, ts[0], &in->s[0]) ||
            dec_src(c, 2, ts[0], &in->s[1]) || dec_pred(c, 3, &in->ps, &neg))
            return c->err->status;
        if (neg)
            return dec_fail(c, "negated selector");
        in->fn = ex_selp;
        in->defs = EXEC_DEFS_D;
        return SIM_OK;
    }
    if (!strcmp(op, "slct")) {
        if (dec_types(c, ts) != 2)
            return dec_fail(c, "expected .dtype.stype");
        in->type = (uint8_t)ts[0];
        in->type2 = (uint8_t)ts[1];
        if (dec_dst(c, 0, &in->d) || dec_src(c, 1, ts[0], &in->s[0]) ||
            dec_src(c, 2, ts[0], &in->s[1]) || dec_src(c, 3, ts[1], &in->s[2]))
            return c->err->status;
        in->fn = ex_slct;
        return SIM_OK;
    }
    /* setp.cmp[.bop].type / set.cmp[.bop].dtype.stype */
    int cmp = -1;
    for (int i = 0; i < c->pi->n_mods && cmp < 0; i++) {
        cmp = alu_cmp_from_name(c->pi->mods[i]);
        if (cmp >= 0)
            c->used |= 1u << i;
    }
    if (cmp < 0)
        return dec_fail(c, "missing comparison (.eq, .lt, ...)");
    in->cmp = (uint8_t)cmp;
    if (dec_mod(c, "and")) in->bop = 1;
    else if (dec_mod(c, "or")) in->bop = 2;
    else if (dec_mod(c, "xor")) in->bop = 3;
    int nt = dec_types(c, ts);
    bool is_set = !strcmp(op, "set");
    if (nt != (is_set ? 2 : 1))
        return dec_fail(c, "wrong number of type modifiers");
    PtxType st = is_set ? ts[1] : ts[0];
    in->type = (uint8_t)st;
    if (st == PTX_T_F16X2 || st == PTX_T_BF16X2 || st == PTX_T_F16 || st == PTX_T_BF16 ||
        (is_set && (ts[0] == PTX_T_F16 || ts[0] == PTX_T_BF16 || ts[0] == PTX_T_F16X2 || ts[0] == PTX_T_BF16X2)))
        return dec_half_cmp(c, is_set, ts[0], st);
    if (st == PTX_T_PRED || ptx_type_size(st) > 8 || st == PTX_T_F16X2 || st == PTX_T_BF16X2)
        return dec_fail(c, "type .%s is not supported", ptx_type_name(st));
    int k = 1;
    if (is_set) {
        if (dec_dst(c, 0, &in->d))
            return c->err->status;
        in->sub = ts[0] == PTX_T_F32;
    } else {
        const PtxOperand *o = &c->pi->opnds[0];
        if (c->pi->n_opnds < 1 || o->kind != PTX_OPND_REG)
            return dec_fail(c, "destination must be a predicate");
        if (dec_pred(c, 0, &in->d, NULL))
            return c->err->status;
        if (dec_pred2(c, 0, &in->pd))
            return c->err->status;
    }
    if (dec_src(c, k, st, &in->s[0]) || dec_src(c, k + 1, st, &in->s[1]))
        return c->err->status;
    if (in->bop) {
        bool neg = false;
        if (dec_pred(c, k + 2, &in->ps, &neg))
            return c->err->status;
        in->negsrc = neg;
    }
    in->fn = is_set ? ex_set : ex_setp;
    if (!is_set && exec_vec_setp32(in)) /* 32-bit integers, no combining op */
        in->fn = exec_vec_setp32(in);
    in->defs = is_set ? EXEC_DEFS_D : EXEC_DEFS_PRED;
    return SIM_OK;
}
