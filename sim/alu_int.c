/* alu_int.c: integer and bit-field semantics of PTX, one lane at a time.
 *
 * Part of the ALU (sim/alu.h) the executor calls for everything it does not
 * inline: mul.hi, div/rem with NVIDIA's results for x/0, saturating adds,
 * mul24, popc/clz/brev/bfind, bfe/bfi, prmt, shf, shl/shr and the setp
 * comparisons.  Values travel zero-extended in uint64_t; every result is cut
 * back to the instruction type's width.  Rules: PTX ISA 9.7.1 and 9.7.8. */
#include <string.h>

#include "alu.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

/* ---- type helpers (ptx_type_size lives elsewhere; these stay local) ---- */

static int tbits(PtxType t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8:
        return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16:
        return 16;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32:
    case PTX_T_F16X2: case PTX_T_BF16X2:
        return 32;
    case PTX_T_PRED:
        return 1;
    default:
        return 64;
    }
}

static bool tsigned(PtxType t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

static uint64_t wmask(int bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Sign-extend the low `bits` bits of a. */
static int64_t sext(uint64_t a, int bits)
{
    if (bits >= 64)
        return (int64_t)a;
    uint64_t m = 1ull << (bits - 1);
    a &= wmask(bits);
    return (int64_t)((a ^ m) - m);
}

uint64_t alu_extend(PtxType t, uint64_t a)
{
    int w = tbits(t);
    return tsigned(t) ? (uint64_t)sext(a, w) : a & wmask(w);
}

static uint64_t cut(PtxType t, uint64_t v)
{
    return v & wmask(tbits(t));
}

/* ---- arithmetic ---------------------------------------------------------- */

uint64_t alu_int_mul_hi(PtxType t, uint64_t a, uint64_t b)
{
    int w = tbits(t);
    if (tsigned(t)) {
        s128 p = (s128)sext(a, w) * (s128)sext(b, w);
        return cut(t, (uint64_t)(p >> w));
    }
    u128 p = (u128)(a & wmask(w)) * (u128)(b & wmask(w));
    return cut(t, (uint64_t)(p >> w));
}

/* Signed quotient and remainder with NVIDIA's answers for the cases C
 * leaves undefined.  Measured on sm_90 (H100, CUDA 12): x/0 and x%0 are
 * all ones whatever the sign of x (div.s32 7/0 = -7/0 = -1, rem.s32 -7%0 =
 * -1, rem.u32 7%0 = 0xffffffff); INT_MIN/-1 = INT_MIN with remainder 0. */
static void sdivrem(int64_t a, int64_t b, int w, int64_t *q, int64_t *r)
{
    int64_t min = w >= 64 ? INT64_MIN : -((int64_t)1 << (w - 1));
    if (b == 0) {
        *q = -1;
        *r = -1;
    } else if (a == min && b == -1) {
        *q = min;
        *r = 0;
    } else {
        *q = a / b;
        *r = a % b;
    }
}

uint64_t alu_int_div(PtxType t, uint64_t a, uint64_t b)
{
    int w = tbits(t);
    if (tsigned(t)) {
        int64_t q, r;
        sdivrem(sext(a, w), sext(b, w), w, &q, &r);
        return cut(t, (uint64_t)q);
    }
    a &= wmask(w);
    b &= wmask(w);
    return b == 0 ? wmask(w) : a / b;
}

uint64_t alu_int_rem(PtxType t, uint64_t a, uint64_t b)
{
    int w = tbits(t);
    if (tsigned(t)) {
        int64_t q, r;
        sdivrem(sext(a, w), sext(b, w), w, &q, &r);
        return cut(t, (uint64_t)r);
    }
    a &= wmask(w);
    b &= wmask(w);
    return b == 0 ? wmask(w) : a % b;
}

uint64_t alu_int_min(PtxType t, uint64_t a, uint64_t b)
{
    int w = tbits(t);
    if (tsigned(t))
        return cut(t, (uint64_t)(sext(a, w) < sext(b, w) ? sext(a, w) : sext(b, w)));
    a &= wmask(w);
    b &= wmask(w);
    return a < b ? a : b;
}

uint64_t alu_int_max(PtxType t, uint64_t a, uint64_t b)
{
    int w = tbits(t);
    if (tsigned(t))
        return cut(t, (uint64_t)(sext(a, w) > sext(b, w) ? sext(a, w) : sext(b, w)));
    a &= wmask(w);
    b &= wmask(w);
    return a > b ? a : b;
}

uint64_t alu_int_abs(PtxType t, uint64_t a)
{
    int w = tbits(t);
    int64_t v = sext(a, w);
    /* negate in unsigned arithmetic: abs(INT_MIN) wraps back to INT_MIN */
    return cut(t, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

uint64_t alu_int_sad(PtxType t, uint64_t a, uint64_t b, uint64_t c)
{
    int w = tbits(t);
    uint64_t d;
    if (tsigned(t)) {
        int64_t x = sext(a, w), y = sext(b, w);
        d = x < y ? (uint64_t)y - (uint64_t)x : (uint64_t)x - (uint64_t)y;
    } else {
        uint64_t x = a & wmask(w), y = b & wmask(w);
        d = x < y ? y - x : x - y;
    }
    return cut(t, d + c);
}

static uint32_t clamp_s32(int64_t v)
{
    if (v > INT32_MAX)
        v = INT32_MAX;
    if (v < INT32_MIN)
        v = INT32_MIN;
    return (uint32_t)(int32_t)v;
}

uint32_t alu_s32_add_sat(uint32_t a, uint32_t b)
{
    return clamp_s32((int64_t)(int32_t)a + (int64_t)(int32_t)b);
}

uint32_t alu_s32_sub_sat(uint32_t a, uint32_t b)
{
    return clamp_s32((int64_t)(int32_t)a - (int64_t)(int32_t)b);
}

/* mul24: the low 24 bits of each operand (sign-extended from bit 23 for
 * .s32) make a 48-bit product; .lo keeps bits 31..0, .hi bits 47..16. */
uint32_t alu_mul24(PtxType t, bool hi, uint32_t a, uint32_t b)
{
    int64_t x, y;
    if (tsigned(t)) {
        x = sext(a, 24);
        y = sext(b, 24);
    } else {
        x = a & 0xffffff;
        y = b & 0xffffff;
    }
    uint64_t p = (uint64_t)(x * y);
    return (uint32_t)(hi ? p >> 16 : p);
}

/* ---- bit counting and fields ----------------------------------------- */

uint32_t alu_popc(PtxType t, uint64_t a)
{
    return (uint32_t)__builtin_popcountll(cut(t, a));
}

uint32_t alu_clz(PtxType t, uint64_t a)
{
    int w = tbits(t);
    a = cut(t, a);
    if (a == 0)
        return (uint32_t)w;
    return (uint32_t)(__builtin_clzll(a) - (64 - w));
}

uint64_t alu_brev(PtxType t, uint64_t a)
{
    int w = tbits(t);
    uint64_t d = 0;
    for (int i = 0; i < w; i++)
        d |= ((a >> i) & 1) << (w - 1 - i);
    return d;
}

uint32_t alu_bfind(PtxType t, uint64_t a, bool shiftamt)
{
    int w = tbits(t);
    a = cut(t, a);
    if (tsigned(t) && ((a >> (w - 1)) & 1))
        a = ~a & wmask(w);               /* find the top 0 of a negative */
    if (a == 0)
        return 0xffffffffu;
    uint32_t pos = (uint32_t)(63 - __builtin_clzll(a));
    return shiftamt ? (uint32_t)(w - 1) - pos : pos;
}

uint64_t alu_bfe(PtxType t, uint64_t a, uint32_t pos, uint32_t len)
{
    int w = tbits(t), msb = w - 1;
    pos &= 0xff;
    len &= 0xff;
    a = cut(t, a);
    uint64_t sbit = 0;
    if (tsigned(t) && len != 0) {
        uint32_t top = pos + len - 1 < (uint32_t)msb ? pos + len - 1 : (uint32_t)msb;
        sbit = (a >> top) & 1;
    }
    uint64_t d = 0;
    for (int i = 0; i <= msb; i++) {
        uint64_t bit = ((uint32_t)i < len && pos + (uint32_t)i <= (uint32_t)msb)
                           ? (a >> (pos + (uint32_t)i)) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}

uint64_t alu_bfi(PtxType t, uint64_t a, uint64_t b, uint32_t pos, uint32_t len)
{
    int msb = tbits(t) - 1;
    pos &= 0xff;
    len &= 0xff;
    uint64_t f = cut(t, b);
    for (uint32_t i = 0; i < len && pos + i <= (uint32_t)msb; i++) {
        uint64_t bit = 1ull << (pos + i);
        f = (f & ~bit) | (((a >> i) & 1) << (pos + i));
    }
    return f;
}

/* ---- permute and shifts ---------------------------------------------- */

/* Source byte for each destination byte d.b0..d.b3, per mode and c[1:0]
 * (PTX ISA prmt table). */
static const uint8_t prmt_table[6][4][4] = {
    /* f4e */  {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    /* b4e */  {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    /* rc8 */  {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    /* ecl */  {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    /* ecr */  {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

uint32_t alu_prmt(uint32_t a, uint32_t b, uint32_t c, AluPrmtMode mode)
{
    uint64_t src = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t byte;
        if (mode == ALU_PRMT_DEFAULT) {
            uint32_t sel = (c >> (4 * i)) & 0xf;
            byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
            if (sel & 8)                     /* replicate the byte's sign */
                byte = (byte & 0x80) ? 0xff : 0;
        } else {
            uint32_t sel = prmt_table[mode - ALU_PRMT_F4E][c & 3][i];
            byte = (uint32_t)(src >> (8 * sel)) & 0xff;
        }
        d |= byte << (8 * i);
    }
    return d;
}

/* shf: funnel shift of the 64-bit b:a; .clamp limits c to 32, .wrap uses
 * c & 31.  .l returns the high word, .r the low word. */
uint32_t alu_shf(bool left, bool wrap, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t n = wrap ? (c & 31) : (c > 32 ? 32 : c);
    uint64_t v = ((uint64_t)b << 32) | a;
    if (left)
        return (uint32_t)((n == 32 ? v << 31 << 1 : v << n) >> 32);
    return (uint32_t)(n == 32 ? v >> 32 : v >> n);
}

uint64_t alu_shl(PtxType t, uint64_t a, uint32_t n)
{
    int w = tbits(t);
    if (n >= (uint32_t)w)
        return 0;
    return cut(t, a << n);
}

uint64_t alu_shr(PtxType t, uint64_t a, uint32_t n)
{
    int w = tbits(t);
    if (tsigned(t)) {
        int64_t v = sext(a, w);
        if (n >= (uint32_t)w)
            n = (uint32_t)w - 1;   /* all sign bits: same as shifting by w */
        return cut(t, (uint64_t)(v >> n));
    }
    if (n >= (uint32_t)w)
        return 0;
    return cut(t, a) >> n;
}

/* ---- comparisons ----------------------------------------------------- */

static const char *const cmp_names[ALU_CMP_COUNT] = {
    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};

int alu_cmp_from_name(const char *word)
{
    if (!word)
        return -1;
    for (int i = 0; i < ALU_CMP_COUNT; i++)
        if (strcmp(word, cmp_names[i]) == 0)
            return i;
    return -1;
}

/* Float operand as a double (exact for every PTX float type), with the
 * .ftz flush applied to f32 subnormals. */
static double fval(PtxType t, uint64_t a, bool ftz)
{
    union { uint32_t u; float f; } s;
    union { uint64_t u; double d; } d;
    switch (t) {
    case PTX_T_F64:
        d.u = a;
        return d.d;
    case PTX_T_F16:
        s.u = alu_f16_to_f32((uint16_t)a);
        return s.f;
    case PTX_T_BF16:
        s.u = alu_bf16_to_f32((uint16_t)a);
        return s.f;
    default:
        s.u = (uint32_t)a;
        if (ftz && (s.u & 0x7f800000u) == 0)
            s.u &= 0x80000000u;
        return s.f;
    }
}

static bool float_compare(AluCmp c, double x, double y)
{
    bool un = x != x || y != y;
    switch (c) {
    case ALU_CMP_EQ:  return !un && x == y;
    case ALU_CMP_NE:  return !un && x != y;
    case ALU_CMP_LT:  return !un && x < y;
    case ALU_CMP_LE:  return !un && x <= y;
    case ALU_CMP_GT:  return !un && x > y;
    case ALU_CMP_GE:  return !un && x >= y;
    case ALU_CMP_EQU: return un || x == y;
    case ALU_CMP_NEU: return un || x != y;
    case ALU_CMP_LTU: return un || x < y;
    case ALU_CMP_LEU: return un || x <= y;
    case ALU_CMP_GTU: return un || x > y;
    case ALU_CMP_GEU: return un || x >= y;
    case ALU_CMP_NUM: return !un;
    case ALU_CMP_NAN: return un;
    default:          return false;   /* lo/ls/hi/hs are integer-only */
    }
}

bool alu_compare(AluCmp c, PtxType t, uint64_t a, uint64_t b, bool ftz)
{
    if (t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_BF16)
        return float_compare(c, fval(t, a, ftz), fval(t, b, ftz));
    int w = tbits(t);
    int64_t sa = sext(a, w), sb = sext(b, w);
    uint64_t ua = a & wmask(w), ub = b & wmask(w);
    bool s = tsigned(t);
    switch (c) {
    case ALU_CMP_EQ: return ua == ub;
    case ALU_CMP_NE: return ua != ub;
    case ALU_CMP_LT: return s ? sa < sb : ua < ub;
    case ALU_CMP_LE: return s ? sa <= sb : ua <= ub;
    case ALU_CMP_GT: return s ? sa > sb : ua > ub;
    case ALU_CMP_GE: return s ? sa >= sb : ua >= ub;
    case ALU_CMP_LO: return ua < ub;
    case ALU_CMP_LS: return ua <= ub;
    case ALU_CMP_HI: return ua > ub;
    case ALU_CMP_HS: return ua >= ub;
    default:         return false;    /* unordered/num/nan are float-only */
    }
}
