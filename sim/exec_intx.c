/* exec_intx.c: the integer instructions beyond the everyday ones --
 * extended-precision carry chains (add.cc ... madc), fns, lop3, bmsk,
 * szext, dp4a, dp2a -- their decoders and handlers (dec_arith sends them
 * here), isspacep, and the 4-way SIMD video instructions vadd4 vsub4
 * vabsdiff4 vmin4 vmax4 in their plain form. */
#include "exec_int.h"
#include "exec_decode.h"
#include "exec_lanes.h"

#include <string.h>

/* ---- extended precision: the carry flag CC.CF ---------------------------
 * PTX ISA 8.x, section 9.7.2 "Extended-Precision Integer Arithmetic
 * Instructions": add.cc d = a + b, carry-out to CC.CF; addc{.cc} d = a + b +
 * CC.CF; sub.cc d = a - b, borrow-out to CC.CF; subc{.cc} d = a - (b +
 * CC.CF); mad{.lo,.hi}.cc d = (a*b).lo/hi + c, carry-out of the addition;
 * madc{.lo,.hi}{.cc} d = (a*b).lo/hi + c + CC.CF.  Types .u32 .s32 .u64 .s64;
 * the carry is that of the unsigned addition of the bit patterns (signed
 * types only change .hi's product).  CC.CF is per thread (Warp.cc). */
enum { CARRY_IN = 1, CARRY_OUT = 2 };
enum { CC_ADD, CC_SUB, CC_MAD_LO, CC_MAD_HI };

static void ex_carry(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A; OPS_B;
    const uint64_t *c = in->s[2] != -1 ? exec_src(x, w, in->s[2]) : a;
    PtxType t = (PtxType)in->type;
    int bits = ptx_type_size(t) * 8;
    uint64_t wm = lanes_wmask(ptx_type_size(t));
    uint32_t cf = w->cc, out = 0;
    LANES(m, {
        uint64_t A = a[l] & wm, B = b[l] & wm, ci = (in->aux & CARRY_IN) ? (cf >> l) & 1 : 0;
        uint64_t r, co;
        if (in->sub == CC_SUB) {
            /* borrow-out: a < b + borrow-in, compared without overflow */
            r = (A - B - ci) & wm;
            co = A < B || (A == B && ci);
        } else {
            uint64_t y = B;
            if (in->sub == CC_MAD_LO)
                y = (A * B) & wm;
            else if (in->sub == CC_MAD_HI)
                y = alu_int_mul_hi(t, A, B) & wm;
            uint64_t z = in->sub == CC_ADD ? A : c[l] & wm;
            uint64_t s1 = (z + y) & wm;
            uint64_t s2 = (s1 + ci) & wm;
            r = s2;
            co = (bits == 64 ? s1 < z : (z + y) >> bits) | (s2 < s1);
        }
        d[l] = r;
        out |= (uint32_t)(co & 1) << l;
    });
    if (in->aux & CARRY_OUT)
        w->cc = (cf & ~m) | (out & m);
}

SimStatus dec_carry(DecodeCtx *c, PtxType t)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    if (t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_U64 && t != PTX_T_S64)
        return dec_fail(c, "carry arithmetic needs .u32, .s32, .u64 or .s64");
    bool in_c = !strcmp(op, "addc") || !strcmp(op, "subc") || !strcmp(op, "madc");
    in->aux = (uint8_t)((in_c ? CARRY_IN : 0) | (dec_mod(c, "cc") ? CARRY_OUT : 0));
    int nsrc = 2;
    if (op[0] == 'a') {
        in->sub = CC_ADD;
    } else if (op[0] == 's') {
        in->sub = CC_SUB;
    } else {
        nsrc = 3;
        if (dec_mod(c, "lo"))
            in->sub = CC_MAD_LO;
        else if (dec_mod(c, "hi"))
            in->sub = CC_MAD_HI;
        else
            return dec_fail(c, "needs .lo or .hi");
    }
    if (c->pi->n_opnds != nsrc + 1)
        return dec_fail(c, "expected %d operands, found %d", nsrc + 1, c->pi->n_opnds);
    if (dec_dst(c, 0, &in->d))
        return c->err->status;
    for (int i = 0; i < nsrc; i++)
        if (dec_src(c, i + 1, t, &in->s[i]))
            return c->err->status;
    in->fn = ex_carry;
    return SIM_OK;
}


/* ---- fns, lop3, bmsk, szext, dp4a, dp2a (PTX ISA 9.7.1 "Integer Arithmetic
 * Instructions" and 9.7.7 "Logic and Shift Instructions") ---------------- */
enum { X_FNS, X_LOP3, X_BMSK_CLAMP, X_BMSK_WRAP, X_SZEXT_CLAMP, X_SZEXT_WRAP, X_DP4A, X_DP2A_LO, X_DP2A_HI };

/* fns: the offset-th set bit of mask counting from base, upward for a
 * positive offset, downward for a negative one; offset 0 asks whether base
 * itself is set; 0xffffffff when there is none (the ISA's pseudocode). */
static uint32_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (offset == 0)
        return base < 32 && (mask >> base & 1) ? base : 0xffffffffu;
    int64_t pos = base, count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
    int inc = offset > 0 ? 1 : -1;
    for (; pos >= 0 && pos < 32; pos += inc)
        if (mask >> pos & 1) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
    return 0xffffffffu;
}

static int32_t byte_of(uint32_t v, int k, bool sgn)
{
    uint32_t b = v >> (8 * k) & 0xff;
    return sgn ? (int32_t)(int8_t)b : (int32_t)b;
}

static void ex_intx(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A; OPS_B;
    const uint64_t *c = in->s[2] != -1 ? exec_src(x, w, in->s[2]) : a;
    bool sa = in->type == PTX_T_S32, sb = in->type2 == PTX_T_S32;
    LANES(m, {
        uint32_t A = (uint32_t)a[l], B = (uint32_t)b[l], C = (uint32_t)c[l], r = 0;
        switch (in->sub) {
        case X_FNS: r = fns(A, B, (int32_t)C); break;
        case X_LOP3: /* bit i of the result: immLut bit (a_i << 2 | b_i << 1 | c_i) */
            for (int i = 0; i < 32; i++)
                r |= ((uint32_t)in->aux >> ((A >> i & 1) << 2 | (B >> i & 1) << 1 | (C >> i & 1)) & 1) << i;
            break;
        case X_BMSK_CLAMP: case X_BMSK_WRAP: { /* b bits set from bit a on */
            if (in->sub == X_BMSK_WRAP) { A &= 31; B &= 31; }
            uint32_t mk = B >= 32 ? 0xffffffffu : (1u << B) - 1;
            r = A >= 32 ? 0 : mk << A;
            break;
        }
        case X_SZEXT_CLAMP: case X_SZEXT_WRAP: { /* extend the low b bits of a */
            uint32_t n = in->sub == X_SZEXT_WRAP ? B & 31 : (B > 32 ? 32 : B);
            if (n == 0) r = 0;
            else if (n == 32) r = A;
            else if (sa) r = (uint32_t)(((int32_t)(A << (32 - n))) >> (32 - n));
            else r = A & ((1u << n) - 1);
            break;
        }
        case X_DP4A: {
            int64_t s = sa || sb ? (int64_t)(int32_t)C : (int64_t)C;
            for (int k = 0; k < 4; k++)
                s += (int64_t)byte_of(A, k, sa) * byte_of(B, k, sb);
            r = (uint32_t)s;
            break;
        }
        case X_DP2A_LO: case X_DP2A_HI: {
            int hk = in->sub == X_DP2A_HI ? 2 : 0;
            int64_t s = sa || sb ? (int64_t)(int32_t)C : (int64_t)C;
            for (int k = 0; k < 2; k++) {
                uint32_t h = A >> (16 * k) & 0xffff;
                int32_t hv = sa ? (int32_t)(int16_t)h : (int32_t)h;
                s += (int64_t)hv * byte_of(B, hk + k, sb);
            }
            r = (uint32_t)s;
            break;
        }
        }
        d[l] = r;
    });
}

SimStatus dec_intx(DecodeCtx *c)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    int nt = dec_types(c, ts);
    int nsrc = 3;
    PtxType st[3] = {PTX_T_B32, PTX_T_B32, PTX_T_B32};
    if (!strcmp(op, "fns")) {
        in->sub = X_FNS;
        st[2] = PTX_T_S32;
    } else if (!strcmp(op, "lop3")) {
        in->sub = X_LOP3;
        if (c->pi->n_opnds != 5 || c->pi->opnds[4].kind != PTX_OPND_IMM_INT)
            return dec_fail(c, "expected lop3.b32 d, a, b, c, immLut");
        in->aux = (int32_t)(c->pi->opnds[4].ival & 0xff);
    } else if (!strcmp(op, "bmsk") || !strcmp(op, "szext")) {
        bool wrap = dec_mod(c, "wrap");
        if (!wrap && !dec_mod(c, "clamp"))
            return dec_fail(c, "needs .clamp or .wrap");
        in->sub = (uint8_t)(op[0] == 'b' ? (wrap ? X_BMSK_WRAP : X_BMSK_CLAMP) : (wrap ? X_SZEXT_WRAP : X_SZEXT_CLAMP));
        nsrc = 2;
    } else if (!strcmp(op, "dp4a")) {
        in->sub = X_DP4A;
    } else {
        bool hi = dec_mod(c, "hi");
        if (!hi && !dec_mod(c, "lo"))
            return dec_fail(c, "needs .lo or .hi");
        in->sub = hi ? X_DP2A_HI : X_DP2A_LO;
    }
    if (in->sub == X_DP4A || in->sub == X_DP2A_LO || in->sub == X_DP2A_HI) {
        if (nt != 2 || (ts[0] != PTX_T_U32 && ts[0] != PTX_T_S32) || (ts[1] != PTX_T_U32 && ts[1] != PTX_T_S32))
            return dec_fail(c, "needs .atype.btype, each .u32 or .s32");
        in->type = (uint8_t)ts[0];
        in->type2 = (uint8_t)ts[1];
    } else {
        if (nt != 1 || ptx_type_size(ts[0]) != 4)
            return dec_fail(c, "needs a 32-bit type");
        in->type = (uint8_t)ts[0];
    }
    if (c->pi->n_opnds != nsrc + 1 + (in->sub == X_LOP3))
        return dec_fail(c, "expected %d operands", nsrc + 1);
    if (dec_dst(c, 0, &in->d))
        return c->err->status;
    for (int i = 0; i < nsrc; i++)
        if (dec_src(c, i + 1, st[i], &in->s[i]))
            return c->err->status;
    in->fn = ex_intx;
    return SIM_OK;
}

/* isspacep.space p, a: is generic address a in that state space?  The
 * shared, local and const windows are fixed (memory.h); global is anything
 * outside them. */
static void ex_isspacep(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    (void)x;
    OPS_A;
    uint32_t r = 0;
    LANES(m, {
        uint64_t v = a[l];
        int sp = v >= MEM_SHARED_WIN && v < MEM_SHARED_WIN + MEM_WIN_SIZE ? PTX_SPACE_SHARED
               : v >= MEM_LOCAL_WIN && v < MEM_LOCAL_WIN + MEM_WIN_SIZE ? PTX_SPACE_LOCAL
               : v >= MEM_CONST_WIN && v < MEM_CONST_WIN + MEM_WIN_SIZE ? PTX_SPACE_CONST
               : v >= MEM_PARAM_WIN && v < MEM_PARAM_WIN + MEM_WIN_SIZE ? PTX_SPACE_PARAM
               : PTX_SPACE_GLOBAL;
        r |= (uint32_t)(sp == in->space) << l;
    });
    w->p[in->d] = (w->p[in->d] & ~m) | (r & m);
}

SimStatus dec_isspacep(DecodeCtx *c)
{
    SimInst *in = c->in;
    int sp = dec_space(c);
    if (sp == PTX_SPACE_NONE)
        return dec_fail(c, "needs .global, .shared, .local, .const or .param");
    in->space = (uint8_t)sp;
    if (c->pi->n_opnds != 2 || dec_pred(c, 0, &in->d, NULL) || dec_src(c, 1, PTX_T_B64, &in->s[0]))
        return dec_fail(c, "expected isspacep.space p, a");
    in->fn = ex_isspacep;
    return SIM_OK;
}

/* ---- SIMD video, 4 bytes (PTX ISA 9.7.16.2 "SIMD Video Instructions"):
 * vop4.dtype.atype.btype{.sat} d, a, b, c with the default selectors and
 * mask (every byte from the result); each byte of a and b is signed or not
 * by its type, the byte result saturated to the destination's byte range
 * with .sat, else its low 8 bits. ---------------------------------------- */
enum { V4_ADD, V4_SUB, V4_ABSDIFF, V4_MIN, V4_MAX };

static void ex_video4(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A; OPS_B;
    bool sa = in->type2 == PTX_T_S32, sb = in->size == 1, sd = in->type == PTX_T_S32;
    LANES(m, {
        uint32_t A = (uint32_t)a[l], B = (uint32_t)b[l], r = 0;
        for (int k = 0; k < 4; k++) {
            int32_t ta = byte_of(A, k, sa), tb = byte_of(B, k, sb), v = 0;
            switch (in->sub) {
            case V4_ADD: v = ta + tb; break;
            case V4_SUB: v = ta - tb; break;
            case V4_ABSDIFF: v = ta > tb ? ta - tb : tb - ta; break;
            case V4_MIN: v = ta < tb ? ta : tb; break;
            case V4_MAX: v = ta > tb ? ta : tb; break;
            }
            if (in->sat)
                v = sd ? (v < -128 ? -128 : v > 127 ? 127 : v) : (v < 0 ? 0 : v > 255 ? 255 : v);
            r |= ((uint32_t)v & 0xffu) << (8 * k);
        }
        d[l] = r;
    });
}

SimStatus dec_video4(DecodeCtx *c)
{
    SimInst *in = c->in;
    static const char *const ops[] = {"vadd4", "vsub4", "vabsdiff4", "vmin4", "vmax4"};
    int k;
    for (k = 0; k < 5; k++)
        if (!strcmp(c->pi->opcode, ops[k]))
            break;
    if (k == 5)
        return dec_fail(c, "only vadd4, vsub4, vabsdiff4, vmin4 and vmax4 are supported");
    in->sub = (uint8_t)k;
    in->sat = dec_mod(c, "sat");
    PtxType ts[3] = {PTX_T_NONE, PTX_T_NONE, PTX_T_NONE};
    int nt = 0;
    for (int i = 0; i < c->pi->n_mods && nt < 3; i++) {
        PtxType t = ptx_type_from_name(c->pi->mods[i]);
        if (t != PTX_T_NONE) {
            ts[nt++] = t;
            c->used |= 1u << i;
        }
    }
    for (int i = 0; i < 3; i++)
        if (nt != 3 || (ts[i] != PTX_T_U32 && ts[i] != PTX_T_S32))
            return dec_fail(c, "needs .dtype.atype.btype, each .u32 or .s32");
    in->type = (uint8_t)ts[0];
    in->type2 = (uint8_t)ts[1];
    in->size = ts[2] == PTX_T_S32; /* b's signedness */
    if (c->pi->n_opnds != 4)
        return dec_fail(c, "expected d, a, b, c (byte selectors, masks and .add are not supported)");
    int32_t cs;
    if (dec_dst(c, 0, &in->d) || dec_src(c, 1, PTX_T_B32, &in->s[0]) || dec_src(c, 2, PTX_T_B32, &in->s[1]) ||
        dec_src(c, 3, PTX_T_B32, &cs))
        return c->err->status;
    in->fn = ex_video4;
    return SIM_OK;
}
