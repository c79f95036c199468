/* test_ptx.c: cmocka tests of the PTX front end (ptx_lex, ptx_parse: see
 * ptx.h): tokens, declarations, operands, scopes, labels, .loc chains,
 * initializers, every bad-input message with its position, and every file
 * under tests/corpus/ptx (real nvcc 13 output; bad_*.ptx must fail). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "ptx_lex.h"

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

static PtxModule *parse(const char *src, SimError *err)
{
    return ptx_parse_module("t.ptx", src, strlen(src), err);
}

static PtxModule *parse_ok(const char *src)
{
    SimError err;
    PtxModule *m = parse(src, &err);
    if (!m)
        fail_msg("unexpected parse error %d:%d: %s", err.line, err.col, err.msg);
    assert_int_equal(err.status, SIM_OK);
    return m;
}

/* Parsing must fail at line:col with a message containing want. */
static void parse_bad(const char *src, int line, int col, const char *want)
{
    SimError err;
    PtxModule *m = parse(src, &err);
    if (m) {
        ptx_module_free(m);
        fail_msg("expected a parse error containing \"%s\"", want);
    }
    assert_int_equal(err.status, SIM_ERR_PARSE);
    assert_string_equal(err.file, "t.ptx");
    if (!strstr(err.msg, want))
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, want);
    if (err.line != line || err.col != col)
        fail_msg("\"%s\" at %d:%d, expected %d:%d", err.msg, err.line, err.col, line, col);
}

static const PtxFunc *func(const PtxModule *m, const char *name)
{
    int i = ptx_find_func(m, name);
    assert_true(i >= 0);
    return &m->funcs[i];
}

static const char *reg_name(const PtxFunc *f, const PtxOperand *o)
{
    assert_int_equal(o->kind, PTX_OPND_REG);
    return f->regs[o->reg].name;
}

/* ---- lexer --------------------------------------------------------------- */

static void test_ptx_lex_converts_every_number_form(void **state)
{
    (void)state;
    const char *s = "0x1F 0X1f 017 0b101 42U 0 0f3F800000 0d3FF0000000000000 1.5 1e3 18446744073709551615";
    PtxToken *t;
    int n;
    SimError err;
    assert_int_equal(ptx_lex("x", s, strlen(s), &t, &n, &err), SIM_OK);
    assert_int_equal(n, 12);
    uint64_t want[] = {31, 31, 15, 5, 42, 0, 0x3F800000, 0x3FF0000000000000ull};
    for (int i = 0; i < 8; i++)
        assert_int_equal(t[i].ival, want[i]);
    assert_int_equal(t[6].kind, PTX_TOK_F32);
    assert_int_equal(t[7].kind, PTX_TOK_F64);
    double d;
    memcpy(&d, &t[8].ival, 8);
    assert_true(t[8].kind == PTX_TOK_F64 && d == 1.5);
    memcpy(&d, &t[9].ival, 8);
    assert_true(t[9].kind == PTX_TOK_F64 && d == 1000.0);
    assert_int_equal(t[10].ival, UINT64_MAX);
    assert_int_equal(t[11].kind, PTX_TOK_EOF);
    free(t);
}

static void test_ptx_lex_keeps_dots_in_opcodes_and_counts_tab_as_one_column(void **state)
{
    (void)state;
    const char *s = "\tld.global.nc.v4.f32 %tid.x, $L__BB0_2;\n  ld.shared::cta.u32 .reg\r\n_Z3fooi:";
    PtxToken *t;
    int n;
    SimError err;
    assert_int_equal(ptx_lex("x", s, strlen(s), &t, &n, &err), SIM_OK);
    assert_int_equal(t[0].kind, PTX_TOK_IDENT);
    assert_int_equal(t[0].len, 19);
    assert_int_equal(t[0].col, 2);
    assert_int_equal(t[1].len, 6); /* %tid.x */
    assert_true(t[2].kind == PTX_TOK_PUNCT && t[2].punct == ',');
    assert_int_equal(t[3].len, 9);
    assert_int_equal(t[5].line, 2);
    assert_int_equal(t[5].col, 3);
    assert_int_equal(t[5].len, 18); /* ld.shared::cta.u32 */
    assert_int_equal(t[6].kind, PTX_TOK_DIRECTIVE);
    assert_int_equal(t[7].line, 3);
    assert_true(t[8].kind == PTX_TOK_PUNCT && t[8].punct == ':');
    free(t);
}

static void test_ptx_lex_rejects_bad_characters_and_numbers(void **state)
{
    (void)state;
    parse_bad(HDR "  #include\n", 4, 3, "unexpected character '#'");
    parse_bad(HDR "/* open\n\n", 4, 1, "unterminated /* comment");
    parse_bad(HDR ".file 1 \"abc\n", 4, 9, "unterminated string");
    parse_bad(HDR ".global .u32 x = 0f3F80;\n", 4, 18, "malformed or out-of-range number");
    parse_bad(HDR ".global .u64 x = 18446744073709551616;\n", 4, 18, "out-of-range");
    parse_bad(HDR ".global .u32 x = 12ab;\n", 4, 18, "malformed");
    SimError err;
    const char nul[] = ".version 9.0\n\0x";
    assert_null(ptx_parse_module("t.ptx", nul, sizeof nul - 1, &err));
    assert_int_equal(err.status, SIM_ERR_PARSE);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.msg, "0x00"));
}

/* ---- module and functions ----------------------------------------------- */

static const char *k_basic = HDR
    "\n"
    ".visible .entry _Z4kernPfi(\n"
    "\t.param .u64 .ptr .global .align 8 _Z4kernPfi_param_0,\n"
    "\t.param .u32 _Z4kernPfi_param_1\n"
    ")\n"
    ".maxntid 256, 1, 1\n"
    ".minnctapersm 2\n"
    "{\n"
    "\t.reg .pred \t%p<2>;\n"
    "\t.reg .b32 \t%r<25>;\n"
    "\t.reg .f32 \t%f<3>;\n"
    "\t.reg .b64 \t%rd<5>, %SP;\n"
    "\tld.param.u64 \t%rd1, [_Z4kernPfi_param_0];\n"
    "\tld.param.u32 \t%r1, [_Z4kernPfi_param_1+0];\n"
    "\tmov.u32 \t%r2, %tid.x;\n"
    "\tsetp.ge.s32 \t%p1, %r2, %r1;\n"
    "\t@%p1 bra \t$L__BB0_2;\n"
    "\tld.global.nc.v4.f32 \t{%f1, %f2, _, %f1}, [%rd1+16];\n"
    "\tst.global.f32 \t[%rd1+-4], 0f3F800000;\n"
    "\tadd.s32 \t%r3, %r2, -1;\n"
    "\tadd.f64 \t%rd2, %rd2, 0d3FF0000000000000;\n"
    "\tmov.b32 \t%r4, 0x100;\n"
    "\t@!%p1 bra.uni \t$L__BB0_2;\n"
    "$L__BB0_2:\n"
    "\tret;\n"
    "$L__end:\n"
    "}\n";

static void test_ptx_parse_reads_header_params_regs_and_directives(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(k_basic);
    assert_int_equal(m->version_major, 9);
    assert_int_equal(m->version_minor, 0);
    assert_string_equal(m->target, "sm_80");
    assert_int_equal(m->address_size, 64);
    assert_int_equal(m->n_funcs, 1);
    const PtxFunc *f = func(m, "_Z4kernPfi");
    assert_true(f->is_entry && f->is_visible && !f->is_extern);
    assert_int_equal(f->n_params, 2);
    assert_int_equal(f->params[0].space, PTX_SPACE_PARAM);
    assert_int_equal(f->params[0].type, PTX_T_U64);
    assert_int_equal(f->params[0].align, 8);
    assert_int_equal(f->params[1].size, 4);
    assert_int_equal(f->maxntid[0], 256);
    assert_int_equal(f->maxntid[1], 1);
    assert_int_equal(f->minnctapersm, 2);
    assert_int_equal(f->line, 5);
    /* %p<2> + %r<25> + %f<3> + %rd<5> + %SP */
    assert_int_equal(f->n_regs, 2 + 25 + 3 + 5 + 1);
    assert_string_equal(f->regs[2].name, "%r0");
    assert_string_equal(f->regs[26].name, "%r24");
    assert_int_equal(f->regs[26].type, PTX_T_B32);
    assert_string_equal(f->regs[35].name, "%SP");
    /* the params are the first function variables */
    assert_true(f->n_vars >= 2);
    assert_string_equal(f->vars[0].name, "_Z4kernPfi_param_0");
    ptx_module_free(m);
}

static void test_ptx_parse_splits_opcodes_and_resolves_operands(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(k_basic);
    const PtxFunc *f = &m->funcs[0];
    assert_int_equal(f->n_insts, 12);
    const PtxInst *in = &f->insts[0];
    assert_string_equal(in->opcode, "ld");
    assert_int_equal(in->n_mods, 2);
    assert_string_equal(in->mods[0], "param");
    assert_string_equal(in->mods[1], "u64");
    assert_int_equal(in->ptx_line, 16);
    assert_int_equal(in->ptx_col, 2);
    assert_int_equal(in->guard, -1);
    assert_string_equal(reg_name(f, &in->opnds[0]), "%rd1");
    assert_int_equal(in->opnds[1].kind, PTX_OPND_ADDR);
    assert_int_equal(in->opnds[1].reg, -1);
    assert_int_equal(in->opnds[1].var, 0);
    assert_false(in->opnds[1].var_is_module);
    assert_int_equal(f->insts[1].opnds[1].var, 1);
    /* mov.u32 %r2, %tid.x */
    assert_int_equal(f->insts[2].opnds[1].kind, PTX_OPND_SREG);
    assert_int_equal(f->insts[2].opnds[1].sreg, PTX_SREG_TID_X);
    /* @%p1 bra $L__BB0_2 -> the ret after the label */
    in = &f->insts[4];
    assert_string_equal(in->opcode, "bra");
    assert_string_equal(f->regs[in->guard].name, "%p1");
    assert_false(in->guard_neg);
    assert_int_equal(in->opnds[0].kind, PTX_OPND_LABEL);
    assert_int_equal(in->opnds[0].target, 11);
    assert_string_equal(f->insts[11].opcode, "ret");
    /* ld.global.nc.v4.f32 {%f1, %f2, _, %f1}, [%rd1+16] */
    in = &f->insts[5];
    assert_int_equal(in->n_mods, 4);
    assert_string_equal(in->mods[1], "nc");
    assert_string_equal(in->mods[3], "f32");
    assert_int_equal(in->opnds[0].kind, PTX_OPND_VEC);
    assert_int_equal(in->opnds[0].n_elems, 4);
    assert_int_equal(in->opnds[0].elems[2].kind, PTX_OPND_SINK);
    assert_string_equal(reg_name(f, &in->opnds[0].elems[3]), "%f1");
    assert_int_equal(in->opnds[1].kind, PTX_OPND_ADDR);
    assert_string_equal(f->regs[in->opnds[1].reg].name, "%rd1");
    assert_int_equal(in->opnds[1].ival, 16);
    in = &f->insts[6];
    assert_int_equal(in->opnds[0].ival, -4);
    assert_int_equal(in->opnds[1].kind, PTX_OPND_IMM_F32);
    assert_int_equal(in->opnds[1].fbits, 0x3F800000);
    assert_int_equal(f->insts[7].opnds[2].kind, PTX_OPND_IMM_INT);
    assert_int_equal(f->insts[7].opnds[2].ival, -1);
    assert_int_equal(f->insts[8].opnds[2].kind, PTX_OPND_IMM_F64);
    assert_int_equal(f->insts[8].opnds[2].fbits, 0x3FF0000000000000ull);
    assert_int_equal(f->insts[9].opnds[1].ival, 256);
    assert_true(f->insts[10].guard_neg);
    assert_string_equal(f->insts[10].mods[0], "uni");
    ptx_module_free(m);
}

static const char *k_ops = HDR
    ".global .align 4 .b8 tab[64];\n"
    ".visible .entry k()\n"
    "{\n"
    "\t.reg .pred %p<3>;\n"
    "\t.reg .b32 %r<9>;\n"
    "\t.reg .b64 %rd<4>;\n"
    "\t.reg .f64 %fd<2>;\n"
    "\tmov.u64 %rd1, tab+8;\n"                                          /* 0 */
    "\tld.global.u32 %r1, [tab+4];\n"                                   /* 1 */
    "\tld.global.u32 %r2, [0x100];\n"                                   /* 2 */
    "\tsetp.lt.s32 %p1|%p2, %r1, %r2;\n"                                /* 3 */
    "\tselp.b32 %r3, 1, 0, !%p1;\n"                                     /* 4 */
    "\tmov.f64 %fd1, 1.5;\n"                                            /* 5 */
    "\tmov.f64 %fd1, -0d3FF0000000000000;\n"                            /* 6 */
    "\tmov.b64 %rd2, {%r1, %r2};\n"                                     /* 7 */
    "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%r1,%r2}, {%r1,%r2,%r3,%r4};\n"
    "\ttex.2d.v4.f32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r6}];\n"   /* 9 */
    "\tmov.u32 %r1, %cluster_ctarank;\n"                                /* 10 */
    "\tmov.u32 %r1, %lanemask_lt;\n"                                    /* 11 */
    "\tmov.u64 %rd1, %globaltimer;\n"                                   /* 12 */
    "\tld.shared::cluster.u32 %r1, [%rd1];\n"                           /* 13 */
    "\tret;\n"
    "}\n";

static void test_ptx_parse_reads_every_operand_form(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(k_ops);
    const PtxFunc *f = &m->funcs[0];
    const PtxInst *in = f->insts;
    assert_int_equal(in[0].opnds[1].kind, PTX_OPND_VAR);
    assert_true(in[0].opnds[1].var_is_module);
    assert_string_equal(m->vars[in[0].opnds[1].var].name, "tab");
    assert_int_equal(in[0].opnds[1].ival, 8);
    assert_int_equal(in[1].opnds[1].kind, PTX_OPND_ADDR);
    assert_true(in[1].opnds[1].var_is_module);
    assert_int_equal(in[1].opnds[1].var, 0);
    assert_int_equal(in[1].opnds[1].ival, 4);
    assert_int_equal(in[2].opnds[1].reg, -1);
    assert_int_equal(in[2].opnds[1].var, -1);
    assert_int_equal(in[2].opnds[1].ival, 0x100);
    assert_string_equal(reg_name(f, &in[3].opnds[0]), "%p1");
    assert_string_equal(f->regs[in[3].opnds[0].reg2].name, "%p2");
    assert_int_equal(in[3].opnds[1].reg2, -1);
    assert_true(in[4].opnds[3].neg);
    assert_string_equal(reg_name(f, &in[4].opnds[3]), "%p1");
    assert_false(in[4].opnds[1].neg);
    assert_int_equal(in[5].opnds[1].kind, PTX_OPND_IMM_F64);
    double d;
    memcpy(&d, &in[5].opnds[1].fbits, 8);
    assert_true(d == 1.5);
    assert_int_equal(in[6].opnds[1].fbits, 0xBFF0000000000000ull);
    assert_int_equal(in[7].opnds[1].kind, PTX_OPND_VEC);
    assert_int_equal(in[7].opnds[1].n_elems, 2);
    assert_int_equal(in[8].n_mods, 9);
    assert_string_equal(in[8].mods[8], "f32");
    assert_int_equal(in[8].n_opnds, 4);
    assert_int_equal(in[9].opnds[1].kind, PTX_OPND_ADDR);
    assert_int_equal(in[9].opnds[1].n_elems, 1);
    assert_int_equal(in[9].opnds[1].elems[0].kind, PTX_OPND_VEC);
    assert_int_equal(in[10].opnds[1].sreg, PTX_SREG_CLUSTER_CTARANK);
    assert_int_equal(in[11].opnds[1].sreg, PTX_SREG_LANEMASK_LT);
    assert_int_equal(in[12].opnds[1].sreg, PTX_SREG_GLOBALTIMER);
    assert_string_equal(in[13].mods[0], "shared::cluster");
    ptx_module_free(m);
}

static void test_ptx_parse_label_at_end_targets_n_insts(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(HDR ".entry k()\n{\n$L__top:\n\tbra.uni $L__top;\n\tbra.uni $L__end;\n$L__end:\n}\n");
    const PtxFunc *f = &m->funcs[0];
    assert_int_equal(f->n_insts, 2);
    assert_int_equal(f->insts[0].opnds[0].target, 0);
    assert_int_equal(f->insts[1].opnds[0].target, 2);
    ptx_module_free(m);
}

static const char *k_calls = HDR
    ".extern .func  (.param .b32 func_retval0) vprintf\n"
    "(\n"
    "\t.param .b64 vprintf_param_0,\n"
    "\t.param .b64 vprintf_param_1\n"
    ")\n"
    ";\n"
    ".global .align 1 .b8 $str[3] = {104, 105};\n"
    ".visible .entry k()\n"
    "{\n"
    "\t.reg .b32 %r<3>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\tmov.u64 %rd1, $str;\n"
    "\tcvta.global.u64 %rd2, %rd1;\n"
    "\t{ // callseq 0, 0\n"
    "\t.reg .b32 temp_param_reg;\n"
    "\t.param .b64 param0;\n"
    "\tst.param.b64 \t[param0+0], %rd2;\n"
    "\t.param .b64 param1;\n"
    "\tst.param.b64 \t[param1+0], %rd2;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), \n"
    "\tvprintf, \n"
    "\t(\n"
    "\tparam0, \n"
    "\tparam1\n"
    "\t);\n"
    "\tld.param.b32 \t%r1, [retval0+0];\n"
    "\t} // callseq 0\n"
    "\t{ // callseq 1, 0\n"
    "\t.reg .b32 temp_param_reg;\n"
    "\t.param .b32 param0;\n"
    "\tst.param.b32 \t[param0+0], %r1;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), later, (param0);\n"
    "\tld.param.b32 \t%r2, [retval0+0];\n"
    "\t}\n"
    "\tmov.u64 %rd1, later;\n"
    "\tret;\n"
    "}\n"
    ".func (.param .b32 func_retval0) later(\n"
    "\t.param .b32 later_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .b32 %r<2>;\n"
    "\tld.param.u32 %r1, [later_param_0];\n"
    "\tst.param.b32 [func_retval0+0], %r1;\n"
    "\tret;\n"
    "}\n";

static void test_ptx_parse_reads_call_sequences_and_forward_functions(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(k_calls);
    assert_int_equal(m->n_funcs, 3);
    const PtxFunc *vp = func(m, "vprintf");
    assert_true(vp->is_extern);
    assert_int_equal(vp->n_rets, 1);
    assert_int_equal(vp->n_params, 2);
    const PtxFunc *k = func(m, "k");
    const PtxInst *call = &k->insts[4];
    assert_string_equal(call->opcode, "call");
    assert_int_equal(call->n_opnds, 3);
    assert_int_equal(call->opnds[0].kind, PTX_OPND_LIST);
    assert_int_equal(call->opnds[0].n_elems, 1);
    assert_int_equal(call->opnds[0].elems[0].kind, PTX_OPND_VAR);
    assert_string_equal(k->vars[call->opnds[0].elems[0].var].name, "retval0");
    assert_int_equal(call->opnds[1].kind, PTX_OPND_FUNC);
    assert_int_equal(call->opnds[1].target, ptx_find_func(m, "vprintf"));
    assert_int_equal(call->opnds[2].n_elems, 2);
    assert_string_equal(k->vars[call->opnds[2].elems[1].var].name, "param1");
    /* each call sequence declares its own params and temp_param_reg */
    int n_param0 = 0, n_temp = 0;
    for (int i = 0; i < k->n_vars; i++)
        n_param0 += !strcmp(k->vars[i].name, "param0");
    for (int i = 0; i < k->n_regs; i++)
        n_temp += !strcmp(k->regs[i].name, "temp_param_reg");
    assert_int_equal(n_param0, 2);
    assert_int_equal(n_temp, 2);
    /* the second sequence's param0 is a new entry, used by its st.param */
    const PtxInst *st2 = &k->insts[6];
    assert_string_equal(st2->mods[0], "param");
    assert_true(st2->opnds[0].var != k->insts[2].opnds[0].var);
    /* forward references to a function defined later */
    assert_int_equal(k->insts[7].opnds[1].kind, PTX_OPND_FUNC);
    assert_int_equal(k->insts[7].opnds[1].target, ptx_find_func(m, "later"));
    assert_int_equal(k->insts[9].opnds[1].kind, PTX_OPND_FUNC);
    const PtxFunc *later = func(m, "later");
    assert_int_equal(later->n_rets, 1);
    assert_string_equal(later->vars[1].name, "func_retval0");
    ptx_module_free(m);
}

static void test_ptx_parse_indirect_call_names_its_prototype(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(HDR ".entry k()\n{\n\t.reg .b64 %rd<2>;\n\t{\n\t.param .b32 param0;\n"
                            "\t.param .b32 retval0;\n"
                            "\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                            "\tcall (retval0), %rd1, (param0), prototype_0;\n\t}\n\tret;\n}\n");
    const PtxInst *c = &m->funcs[0].insts[0];
    assert_int_equal(c->n_opnds, 4);
    assert_int_equal(c->opnds[1].kind, PTX_OPND_REG);
    assert_int_equal(c->opnds[3].kind, PTX_OPND_LABEL);
    assert_int_equal(c->opnds[3].target, 0);
    ptx_module_free(m);
}

static void test_ptx_parse_scopes_shadow_and_restore_names(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(HDR ".entry k()\n{\n\t.reg .b32 t, %r<3>;\n"
                            "\t{\n\t.reg .u32 t;\n\tmov.u32 t, 1;\n\t{ .reg .b64 t; mov.b64 t, 2; }\n\tmov.u32 t, 3;\n\t}\n"
                            "\tmov.u32 t, 4;\n\tret;\n}\n");
    const PtxFunc *f = &m->funcs[0];
    assert_int_equal(f->n_regs, 1 + 3 + 1 + 1);
    int outer = f->insts[3].opnds[0].reg;
    int mid = f->insts[0].opnds[0].reg;
    int inner = f->insts[1].opnds[0].reg;
    assert_int_equal(outer, 0);
    assert_int_equal(mid, 4);
    assert_int_equal(inner, 5);
    assert_int_equal(f->insts[2].opnds[0].reg, mid);
    assert_int_equal(f->regs[inner].type, PTX_T_B64);
    for (int i = 0; i < 4; i++)
        assert_string_equal(f->regs[f->insts[i].opnds[0].reg].name, "t");
    ptx_module_free(m);
}

static void test_ptx_parse_rejects_name_used_after_its_scope(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\t{ .reg .b32 t; mov.b32 t, 1; }\n\tmov.b32 t, 2;\n}\n", 7, 10,
              "unknown symbol 't'");
}

static void test_ptx_parse_rejects_redeclaration_in_one_scope(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b32 %r1;\n}\n", 7, 12,
              "redeclaration of register '%r1'");
    parse_bad(HDR ".global .b32 g;\n.global .b32 g;\n", 5, 14, "redeclaration of 'g'");
}

/* ---- variables and initializers --------------------------------------- */

static const char *k_vars = HDR
    ".const .align 4 .b8 coeffs[8] = {0, 0, 128, 63, 0, 0, 0, 64};\n"
    ".const .align 4 .u32 ci = 42;\n"
    ".global .align 4 .f32 gf = 0f40600000;\n"
    ".global .align 8 .f64 gd[2] = {1.5, -2};\n"
    ".global .align 4 .b8 gvals[16] = {1, 0, 0, 0, 2};\n"
    ".global .align 8 .u64 gptrs[3] = {generic(gvals), generic(gvals)+8, 0};\n"
    ".global .align 4 .u32 gmat[2][3] = {{1, 2}, {4, 5, 6}};\n"
    ".global .align 8 .v2 .u32 gv2[2] = {{7, 8}, {9, 10}};\n"
    ".global .align 1 .u8 gp[10] = {1, 0xFF(generic(gvals)+4), 0xFF00(generic(gvals)+4), "
    "0xFF0000(generic(gvals)+4), 0xFF000000(generic(gvals)+4), 0xFF00000000(generic(gvals)+4), "
    "0xFF0000000000(generic(gvals)+4), 0xFF000000000000(generic(gvals)+4), 0xFF00000000000000(generic(gvals)+4), 3};\n"
    ".global .align 1 .b8 gstr[] = {104, 105, 0};\n"
    ".global .align 8 .u64 fptr[1] = {f};\n"
    ".global .s16 gneg = -2;\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".func f()\n{\n\t.local .align 16 .b8 __local_depot0[320];\n\t.shared .align 4 .f32 s[256];\n\tret;\n}\n";

static void test_ptx_parse_lays_out_initializers(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(k_vars);
    const PtxVar *v = m->vars;
    assert_int_equal(m->n_vars, 13);
    assert_string_equal(v[0].name, "coeffs");
    assert_int_equal(v[0].space, PTX_SPACE_CONST);
    assert_int_equal(v[0].size, 8);
    assert_true(v[0].is_array);
    assert_int_equal(v[0].init[2], 128);
    float f;
    memcpy(&f, v[0].init + 4, 4);
    assert_true(f == 2.0f);
    assert_int_equal(v[1].init[0], 42);
    assert_false(v[1].is_array);
    assert_int_equal(v[1].count, 1);
    memcpy(&f, v[2].init, 4);
    assert_true(f == 3.5f);
    double d[2];
    memcpy(d, v[3].init, 16);
    assert_true(d[0] == 1.5 && d[1] == -2.0);
    assert_int_equal(v[4].size, 16);
    assert_int_equal(v[4].init[4], 2);
    assert_int_equal(v[4].init[15], 0);
    /* symbol addresses */
    assert_true(v[5].is_ptr_init);
    assert_int_equal(v[5].n_init_refs, 2);
    assert_int_equal(v[5].init_refs[1].offset, 8);
    assert_int_equal(v[5].init_refs[1].size, 8);
    assert_string_equal(v[5].init_refs[1].symbol, "gvals");
    assert_int_equal(v[5].init_refs[1].addend, 8);
    assert_true(v[5].init_refs[1].generic);
    /* {{1, 2}, {4, 5, 6}}: the short row is padded */
    uint32_t mat[6];
    memcpy(mat, v[6].init, 24);
    assert_int_equal(v[6].count, 6);
    assert_int_equal(mat[1], 2);
    assert_int_equal(mat[2], 0);
    assert_int_equal(mat[3], 4);
    assert_int_equal(mat[5], 6);
    assert_int_equal(v[7].vec, 2);
    assert_int_equal(v[7].size, 16);
    assert_int_equal(v[7].init[12], 10);
    /* eight masked bytes become one 8-byte reference at offset 1 */
    assert_int_equal(v[8].n_init_refs, 1);
    assert_int_equal(v[8].init_refs[0].offset, 1);
    assert_int_equal(v[8].init_refs[0].size, 8);
    assert_int_equal(v[8].init_refs[0].addend, 4);
    assert_int_equal(v[8].init[9], 3);
    /* x[] = {...} takes its size from the initializer */
    assert_int_equal(v[9].count, 3);
    assert_int_equal(v[9].size, 3);
    assert_false(v[10].init_refs[0].generic);
    assert_string_equal(v[10].init_refs[0].symbol, "f");
    assert_int_equal(v[11].init[0], 0xFE);
    assert_int_equal(v[11].init[1], 0xFF);
    assert_true(v[12].is_extern);
    assert_int_equal(v[12].count, 0);
    assert_int_equal(v[12].align, 16);
    assert_null(v[12].init);
    const PtxFunc *fn = func(m, "f");
    assert_int_equal(fn->n_vars, 2);
    assert_int_equal(fn->vars[0].space, PTX_SPACE_LOCAL);
    assert_int_equal(fn->vars[0].size, 320);
    assert_int_equal(fn->vars[1].size, 1024);
    ptx_module_free(m);
}

static void test_ptx_parse_rejects_bad_variables(void **state)
{
    (void)state;
    parse_bad(HDR ".global .b32 huge[1073741824];\n", 4, 14, "larger than 1073741824 bytes");
    parse_bad(HDR ".global .b8 a[4] = {1, 2, 3, 4, 5};\n", 4, 33, "too many initializers for 'a'");
    parse_bad(HDR ".global .u64 p = {nosuch};\n", 4, 19, "unknown symbol 'nosuch' in the initializer of 'p'");
    parse_bad(HDR ".shared .b32 s = 1;\n", 4, 16, "'.shared' variable 's' cannot have an initializer");
    parse_bad(HDR ".global .b8 a[];\n", 4, 13, "needs a size");
    parse_bad(HDR ".global .align 3 .b8 a;\n", 4, 16, "not a power of two");
    parse_bad(HDR ".global .b8 a[2][];\n", 4, 17, "only the first dimension");
    parse_bad(HDR ".global .u8 a[1] = {0xF0(a)};\n", 4, 21, "mask must be 0xFF shifted");
    parse_bad(HDR ".global a;\n", 4, 9, "expected a type in the variable declaration, found 'a'");
}

/* ---- .loc, .file and debug sections ------------------------------------- */

static const char *k_loc = HDR
    ".visible .entry k()\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.loc\t1 17 5\n"                                                          /* 8 */
    "\t.loc\t4 396 5, function_name $L__info_string0, inlined_at 1 17 5\n"
    "\t.loc\t4 284 9, function_name $L__info_string1, inlined_at 4 396 5\n"
    "\tmov.u32 %r1, 1;\n"
    "\t.loc\t6 92 13, function_name $L__info_string2, inlined_at 4 284 9\n"
    "\tmov.u32 %r2, 2;\n"
    "\t.loc\t1 18 3\n"
    "\tret;\n"
    "}\n"
    "\t.file\t1 \"/tmp/k.cu\"\n"
    "\t.file\t4 \"/usr/include/cg.h\", 1700000000, 1234\n"
    "\t.section\t.debug_str\n"
    "\t{\n"
    "$L__info_string0:\n"
    ".b8 111,117,116,101,114,0\n"
    "$L__info_string1:\n"
    ".b8 109,105,100,0\n"
    "\t}\n";

static void test_ptx_parse_follows_loc_inlined_at_chains(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(k_loc);
    assert_int_equal(m->n_files, 7);
    assert_string_equal(m->files[1], "/tmp/k.cu");
    assert_string_equal(m->files[4], "/usr/include/cg.h");
    assert_null(m->files[6]);
    const PtxFunc *f = &m->funcs[0];
    const PtxLoc *l = &m->locs[f->insts[0].loc];
    assert_int_equal(l->file, 4);
    assert_int_equal(l->line, 284);
    assert_int_equal(l->col, 9);
    /* function_name labels are replaced by their .debug_str text */
    assert_string_equal(l->function_name, "mid");
    const PtxLoc *up = &m->locs[l->inlined_at];
    assert_int_equal(up->line, 396);
    assert_string_equal(up->function_name, "outer");
    const PtxLoc *o = ptx_inst_outer_loc(m, &f->insts[0]);
    assert_int_equal(o->file, 1);
    assert_int_equal(o->line, 17);
    assert_int_equal(o->col, 5);
    o = ptx_inst_outer_loc(m, &f->insts[1]);
    assert_int_equal(o->line, 17);
    l = &m->locs[f->insts[1].loc];
    assert_int_equal(l->line, 92);
    assert_string_equal(l->function_name, "$L__info_string2"); /* no string for it */
    o = ptx_inst_outer_loc(m, &f->insts[2]);
    assert_int_equal(o->line, 18);
    assert_int_equal(m->locs[f->insts[2].loc].inlined_at, -1);
    ptx_module_free(m);
}

static void test_ptx_inst_outer_loc_is_null_without_loc(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(HDR ".entry k()\n{\n\tret;\n}\n");
    assert_int_equal(m->funcs[0].insts[0].loc, -1);
    assert_null(ptx_inst_outer_loc(m, &m->funcs[0].insts[0]));
    ptx_module_free(m);
}

static void test_ptx_parse_skips_debug_sections_and_pragmas(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(".version 9.0\n.target sm_80, debug\n.address_size 64\n"
                            ".pragma \"nounroll\";\n"
                            ".entry k()\n{\n$L__func_begin0:\n\t.pragma \"nounroll\";\n\tret;\n$L__func_end0:\n}\n"
                            ".section .debug_abbrev\n{\n.b8 1\n.b8 17 // x\n}\n"
                            ".section .debug_info\n{\n.b32 $L__func_end0-$L__func_begin0\n"
                            ".b64 $L__func_begin0\n.b8 0,0\n}\n");
    assert_string_equal(m->target, "sm_80");
    assert_int_equal(m->funcs[0].n_insts, 1);
    ptx_module_free(m);
}

/* ---- header directives -------------------------------------------------- */

static void test_ptx_parse_reads_cluster_and_launch_directives(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(".version 9.0\n.target sm_90a\n.address_size 64\n"
                            ".visible .entry k()\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n"
                            ".maxclusterrank 8\n.reqntid 128\n.maxnreg 64\n{\n\tret;\n}\n"
                            ".weak .func w() .noreturn\n{\n\tret;\n}\n");
    assert_string_equal(m->target, "sm_90a");
    const PtxFunc *f = &m->funcs[0];
    assert_int_equal(f->reqnctapercluster[0], 2);
    assert_int_equal(f->reqnctapercluster[2], 1);
    assert_int_equal(f->maxclusterrank, 8);
    assert_int_equal(f->reqntid[0], 128);
    assert_int_equal(f->reqntid[1], 1);
    assert_int_equal(f->maxnreg, 64);
    assert_false(m->funcs[1].is_entry);
    ptx_module_free(m);
}

static void test_ptx_parse_declaration_then_definition_keeps_index(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(HDR ".func (.param .b32 r) f (.param .b32 a);\n"
                            ".entry k()\n{\n\t.param .b32 p;\n\t.param .b32 q;\n"
                            "\tcall.uni (q), f, (p);\n\tret;\n}\n"
                            ".func (.param .b32 r) f (.param .b32 a)\n{\n\tret;\n}\n");
    assert_int_equal(m->n_funcs, 2);
    assert_int_equal(ptx_find_func(m, "f"), 0);
    assert_false(m->funcs[0].is_extern);
    assert_int_equal(m->funcs[0].n_insts, 1);
    assert_int_equal(m->funcs[1].insts[0].opnds[1].target, 0);
    assert_int_equal(ptx_find_func(m, "nosuch"), -1);
    parse_bad(HDR ".func f()\n{\n\tret;\n}\n.func f()\n{\n\tret;\n}\n", 8, 7, "redefinition of function 'f'");
    ptx_module_free(m);
}

/* ---- bad input ----------------------------------------------------------- */

static void test_ptx_parse_rejects_unknown_register_with_its_declaration(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\t.reg .b32 \t%r<25>;\n\tadd.s32 \t%r2, %r99, 1;\n}\n", 7, 16,
              "unknown register '%r99' (declared: %r<25>)");
    parse_bad(HDR ".entry k()\n{\n\tmov.u32 %q1, 1;\n}\n", 6, 10, "unknown register '%q1'");
    parse_bad(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\t@%p1 mov.u32 %r1, 1;\n}\n", 7, 3,
              "unknown predicate register '%p1'");
}

static void test_ptx_parse_rejects_missing_semicolon(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x\n\tret;\n}\n", 8, 2,
              "expected ';' after instruction, found 'ret'");
}

static void test_ptx_parse_rejects_unknown_label_and_symbol(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\tbra.uni $L__BB0_9;\n}\n", 6, 10, "unknown label '$L__BB0_9'");
    parse_bad(HDR ".entry k()\n{\n\tcall.uni nosuch, ();\n}\n", 6, 11, "unknown symbol 'nosuch'");
    parse_bad(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tld.u32 %r1, [nosuch];\n}\n", 7, 15,
              "unknown symbol 'nosuch' in an address");
    parse_bad(HDR ".entry k()\n{\n$a:\n$a:\n\tret;\n}\n", 7, 1, "duplicate label '$a'");
}

static void test_ptx_parse_rejects_unknown_directive(void **state)
{
    (void)state;
    parse_bad(HDR ".globl k\n", 4, 1, "unknown or misplaced directive '.globl'");
    parse_bad(HDR ".entry k()\n{\n\t.maxntid 1;\n}\n", 6, 2, "unexpected directive '.maxntid' in a function body");
    parse_bad(HDR "k:\n", 4, 1, "expected a directive at module level, found 'k'");
    parse_bad(".version x\n", 1, 10, "expected a version like 9.0");
    parse_bad(".address_size 48\n", 1, 15, "must be 32 or 64");
    parse_bad(HDR ".entry k()\n{\n\t.loc 1 2\n}\n", 7, 1, "expected column number in '.loc', found '}'");
}

static void test_ptx_parse_rejects_too_many_modifiers_and_operands(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\tld.a.b.c.d.e.f.g.h.i.j.k.l.m %r1;\n}\n", 6, 2, "more than 12 modifiers on 'ld'");
    parse_bad(HDR ".entry k()\n{\n\tadd 1, 2, 3, 4, 5, 6, 7, 8, 9;\n}\n", 6, 30, "more than 8 operands for 'add'");
    parse_bad(HDR ".entry k()\n{\n\tld..u32 1;\n}\n", 6, 4, "unexpected character '.'");
}

static void test_ptx_parse_rejects_special_register_without_component(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid;\n}\n", 7, 15,
              "special register '%tid' needs a component");
}

static void test_ptx_parse_rejects_unclosed_body_and_deep_scopes(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\t{\n\tret;\n}\n", 5, 1, "function body of 'k' has no closing '}'");
    char src[1024];
    int n = snprintf(src, sizeof src, HDR ".entry k()\n{\n");
    for (int i = 0; i < 70; i++)
        src[n++] = '{';
    src[n] = 0;
    parse_bad(src, 6, 64, "nested deeper than 64");
}

static void test_ptx_parse_rejects_huge_register_ranges(void **state)
{
    (void)state;
    parse_bad(HDR ".entry k()\n{\n\t.reg .b32 %r<2000000>;\n}\n", 6, 15, "register count out of range");
}

static void test_ptx_parse_survives_every_truncation(void **state)
{
    (void)state;
    /* each prefix of a real kernel parses or fails with a position */
    const char *srcs[] = {k_basic, k_calls, k_vars, k_loc, k_ops};
    for (size_t s = 0; s < sizeof srcs / sizeof *srcs; s++) {
        size_t len = strlen(srcs[s]);
        for (size_t n = 0; n < len; n++) {
            SimError err;
            PtxModule *m = ptx_parse_module("t.ptx", srcs[s], n, &err);
            if (m) {
                assert_int_equal(err.status, SIM_OK);
                ptx_module_free(m);
            } else {
                assert_int_equal(err.status, SIM_ERR_PARSE);
                assert_true(err.msg[0] != 0);
            }
        }
    }
}


static void test_ptx_parse_keeps_lone_masked_byte_with_its_shift(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(HDR ".global .b8 g[4];\n.global .u8 b[2] = {0xFF00(generic(g)+1), 7};\n");
    const PtxVar *v = &m->vars[1];
    assert_int_equal(v->n_init_refs, 1);
    assert_int_equal(v->init_refs[0].size, 1);
    assert_int_equal(v->init_refs[0].shift, 8);
    assert_int_equal(v->init_refs[0].addend, 1);
    assert_int_equal(v->init[1], 7);
    ptx_module_free(m);
    parse_bad(HDR ".global .b8 g;\n.global .u16 b = g;\n", 5, 18, "address of 'g' does not fit the .u16 elements");
}

static void test_ptx_parse_accepts_crlf_line_ends(void **state)
{
    (void)state;
    PtxModule *m = parse_ok(".version 9.0\r\n.target sm_80\r\n.address_size 64\r\n.entry k()\r\n{\r\n"
                            "\t.reg .b32 %r<2>;\r\n\tmov.u32 %r1, 1;\r\n\tret;\r\n}\r\n");
    assert_int_equal(m->funcs[0].n_insts, 2);
    assert_int_equal(m->funcs[0].insts[1].ptx_line, 8);
    char buf[32];
    assert_string_equal(ptx_source_line(m, 8, buf, sizeof buf), "\tret;");
    ptx_module_free(m);
}

static void test_ptx_parse_rejects_null_text_and_unterminated_section(void **state)
{
    (void)state;
    SimError err;
    assert_null(ptx_parse_module("t.ptx", NULL, 5, &err));
    assert_int_equal(err.status, SIM_ERR_USAGE);
    PtxModule *m = ptx_parse_module("t.ptx", NULL, 0, &err);
    assert_non_null(m);
    assert_int_equal(m->n_funcs, 0);
    assert_string_equal(m->text, "");
    ptx_module_free(m);
    parse_bad(HDR ".section .debug_str\n{\n$L__info_string0:\n.b8 65,0\n", 5, 1,
              "unterminated '.section'");
    parse_bad(HDR ".extern .func f()\n{\n}\n", 5, 1, "'.extern' function 'f' cannot have a body");
}

/* ---- module queries ---------------------------------------------------- */

static void test_ptx_source_line_copies_one_line(void **state)
{
    (void)state;
    const char src[] = ".version 9.0\r\n.target sm_80\n.address_size 64\nXXXX";
    PtxModule *m = ptx_parse_module("t.ptx", src, sizeof src - 1 - 5, NULL);
    assert_non_null(m);
    assert_int_equal(m->text[sizeof src - 1 - 5], 0);
    char buf[64];
    assert_string_equal(ptx_source_line(m, 1, buf, sizeof buf), ".version 9.0");
    assert_string_equal(ptx_source_line(m, 2, buf, sizeof buf), ".target sm_80");
    assert_string_equal(ptx_source_line(m, 2, buf, 5), ".tar");
    assert_string_equal(ptx_source_line(m, 0, buf, sizeof buf), "");
    assert_string_equal(ptx_source_line(m, 9, buf, sizeof buf), "");
    ptx_module_free(m);
}

static void test_ptx_type_and_sreg_names_round_trip(void **state)
{
    (void)state;
    for (int t = PTX_T_NONE + 1; t < PTX_T_COUNT; t++)
        assert_int_equal(ptx_type_from_name(ptx_type_name((PtxType)t)), t);
    assert_int_equal(ptx_type_from_name("u33"), PTX_T_NONE);
    assert_string_equal(ptx_type_name(PTX_T_NONE), "?");
    assert_int_equal(ptx_type_size(PTX_T_B128), 16);
    assert_int_equal(ptx_type_size(PTX_T_F16X2), 4);
    assert_int_equal(ptx_type_size(PTX_T_PRED), 0);
    for (int s = PTX_SREG_NONE + 1; s < PTX_SREG_COUNT; s++)
        assert_int_equal(ptx_sreg_from_name(ptx_sreg_name((PtxSreg)s)), s);
    assert_null(ptx_sreg_name(PTX_SREG_NONE));
    assert_string_equal(ptx_space_name(PTX_SPACE_SHARED), "shared");
}

/* ---- the corpus of real nvcc output ------------------------------------ */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, k;
    do {
        if (n + 65536 > cap) {
            cap = cap ? cap * 2 : 131072;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        k = fread(buf + n, 1, cap - n, f);
        n += k;
    } while (k > 0);
    fclose(f);
    *len = n;
    return buf;
}

static void test_ptx_parse_every_corpus_file(void **state)
{
    (void)state;
    const char *dir = "tests/corpus/ptx";
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s (run the tests from the repository root)", dir);
    int good = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t nl = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        char *text = read_file(path, &len);
        if (!text)
            continue;
        SimError err;
        PtxModule *m = ptx_parse_module(path, text, len, &err);
        bool want_bad = !strncmp(e->d_name, "bad_", 4);
        bool is_ptx = nl > 4 && !strcmp(e->d_name + nl - 4, ".ptx");
        if (want_bad) {
            if (m)
                fail_msg("%s parsed but should fail", path);
            assert_int_equal(err.status, SIM_ERR_PARSE);
            assert_true(err.line > 0);
            bad++;
        } else if (is_ptx) {
            if (!m)
                fail_msg("%s:%d:%d: %s", path, err.line, err.col, err.msg);
            assert_true(m->n_funcs > 0);
            good++;
        }
        /* fuzzer finds (no .ptx suffix) only need to not crash */
        ptx_module_free(m);
        free(text);
    }
    closedir(d);
    assert_true(good >= 10);
    assert_true(bad >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx_lex_converts_every_number_form),
        cmocka_unit_test(test_ptx_lex_keeps_dots_in_opcodes_and_counts_tab_as_one_column),
        cmocka_unit_test(test_ptx_lex_rejects_bad_characters_and_numbers),
        cmocka_unit_test(test_ptx_parse_reads_header_params_regs_and_directives),
        cmocka_unit_test(test_ptx_parse_splits_opcodes_and_resolves_operands),
        cmocka_unit_test(test_ptx_parse_reads_every_operand_form),
        cmocka_unit_test(test_ptx_parse_label_at_end_targets_n_insts),
        cmocka_unit_test(test_ptx_parse_reads_call_sequences_and_forward_functions),
        cmocka_unit_test(test_ptx_parse_indirect_call_names_its_prototype),
        cmocka_unit_test(test_ptx_parse_scopes_shadow_and_restore_names),
        cmocka_unit_test(test_ptx_parse_rejects_name_used_after_its_scope),
        cmocka_unit_test(test_ptx_parse_rejects_redeclaration_in_one_scope),
        cmocka_unit_test(test_ptx_parse_lays_out_initializers),
        cmocka_unit_test(test_ptx_parse_rejects_bad_variables),
        cmocka_unit_test(test_ptx_parse_follows_loc_inlined_at_chains),
        cmocka_unit_test(test_ptx_inst_outer_loc_is_null_without_loc),
        cmocka_unit_test(test_ptx_parse_skips_debug_sections_and_pragmas),
        cmocka_unit_test(test_ptx_parse_reads_cluster_and_launch_directives),
        cmocka_unit_test(test_ptx_parse_declaration_then_definition_keeps_index),
        cmocka_unit_test(test_ptx_parse_rejects_unknown_register_with_its_declaration),
        cmocka_unit_test(test_ptx_parse_rejects_missing_semicolon),
        cmocka_unit_test(test_ptx_parse_rejects_unknown_label_and_symbol),
        cmocka_unit_test(test_ptx_parse_rejects_unknown_directive),
        cmocka_unit_test(test_ptx_parse_rejects_too_many_modifiers_and_operands),
        cmocka_unit_test(test_ptx_parse_rejects_special_register_without_component),
        cmocka_unit_test(test_ptx_parse_rejects_unclosed_body_and_deep_scopes),
        cmocka_unit_test(test_ptx_parse_rejects_huge_register_ranges),
        cmocka_unit_test(test_ptx_parse_survives_every_truncation),
        cmocka_unit_test(test_ptx_parse_keeps_lone_masked_byte_with_its_shift),
        cmocka_unit_test(test_ptx_parse_accepts_crlf_line_ends),
        cmocka_unit_test(test_ptx_parse_rejects_null_text_and_unterminated_section),
        cmocka_unit_test(test_ptx_source_line_copies_one_line),
        cmocka_unit_test(test_ptx_type_and_sreg_names_round_trip),
        cmocka_unit_test(test_ptx_parse_every_corpus_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
