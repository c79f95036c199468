/* instrument.c: rewriting one kernel's PTX text so that it records per-block
 * residency (instrument.h has the method and its cost).  The parser
 * (sim/ptx.h) finds the entry, its parameters, its registers and the line
 * and column of every ret/exit; the rewrite is a list of text edits applied
 * in one pass, so everything else in the text stays byte for byte. */
#include "instrument.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

/* ---------------------------------------------------------------- edits */

typedef struct {
    size_t at, del;   /* replace text[at, at + del) ... */
    char *ins;        /* ... by this (owned) */
} Edit;

typedef struct {
    Edit *e;
    int n, cap;
    bool oom;
} Edits;

static void edit_add(Edits *ed, size_t at, size_t del, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void edit_add(Edits *ed, size_t at, size_t del, const char *fmt, ...)
{
    if (ed->oom)
        return;
    if (ed->n == ed->cap) {
        int cap = ed->cap ? 2 * ed->cap : 16;
        Edit *e = realloc(ed->e, sizeof *e * (size_t)cap);
        if (!e) {
            ed->oom = true;
            return;
        }
        ed->e = e;
        ed->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)need + 1);
    if (!s) {
        ed->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(s, (size_t)need + 1, fmt, ap);
    va_end(ap);
    ed->e[ed->n++] = (Edit){at, del, s};
}

static int edit_cmp(const void *a, const void *b)
{
    const Edit *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

static void edits_free(Edits *ed)
{
    for (int i = 0; i < ed->n; i++)
        free(ed->e[i].ins);
    free(ed->e);
}

/* ---------------------------------------------------------------- scanning */

/* Skip blanks and comments from p; returns the new position. */
static size_t skip_space(const char *t, size_t len, size_t p)
{
    for (;;) {
        while (p < len && (t[p] == ' ' || t[p] == '\t' || t[p] == '\r' || t[p] == '\n'))
            p++;
        if (p + 1 < len && t[p] == '/' && t[p + 1] == '/') {
            while (p < len && t[p] != '\n')
                p++;
        } else if (p + 1 < len && t[p] == '/' && t[p + 1] == '*') {
            p += 2;
            while (p + 1 < len && !(t[p] == '*' && t[p + 1] == '/'))
                p++;
            p = p + 2 < len ? p + 2 : len;
        } else {
            return p;
        }
    }
}

/* Offset of the start of 1-based line `line`, or len. */
static size_t line_offset(const char *t, size_t len, int line)
{
    size_t p = 0;
    for (int l = 1; l < line && p < len; p++)
        if (t[p] == '\n')
            l++;
    return p;
}

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$';
}

/* A tag ("__ws", "__ws1", ...) that occurs nowhere in the text. */
static void pick_tag(const char *t, size_t len, char *tag, size_t cap)
{
    for (int k = 0;; k++) {
        if (k)
            snprintf(tag, cap, "__ws%d", k);
        else
            snprintf(tag, cap, "__ws");
        size_t n = strlen(tag);
        bool found = false;
        for (size_t p = 0; p + n <= len && !found; p++)
            found = !memcmp(t + p, tag, n) && (p + n == len || !(t[p + n] >= '0' && t[p + n] <= '9'));
        if (!found)
            return;
    }
}

/* ---------------------------------------------------------------- code */

/* Instructions leaving the address of this block's record in %<tag>d0;
 * uses %<tag>r3..r7 and %<tag>d2..d3. */
static void record_address(char *buf, size_t cap, const char *g, bool read_timer)
{
    /* The block id gets %globaltimer >> 63 added: zero for the next 292
     * years, but unknown to the compiler, which therefore can neither hoist
     * the address out of thread 0's branch nor keep it live from entry to
     * exit (that would cost registers all through the kernel).  The timer
     * is in %<tag>d1 already unless read_timer. */
    char pre[64] = "";
    if (read_timer)
        snprintf(pre, sizeof pre, "\tmov.u64 %%%sd1, %%globaltimer;\n", g);
    snprintf(buf, cap,
             "%4$s"
             "\tshr.u64 %%%1$sd0, %%%1$sd1, 63;\n"
             "\tmov.u32 %%%1$sr3, %%ctaid.x;\n"
             "\tmov.u32 %%%1$sr4, %%ctaid.y;\n"
             "\tmov.u32 %%%1$sr5, %%ctaid.z;\n"
             "\tmov.u32 %%%1$sr6, %%nctaid.x;\n"
             "\tmov.u32 %%%1$sr7, %%nctaid.y;\n"
             "\tmul.wide.u32 %%%1$sd2, %%%1$sr7, %%%1$sr5;\n"
             "\tadd.u64 %%%1$sd2, %%%1$sd2, %%%1$sd0;\n"
             "\tcvt.u64.u32 %%%1$sd3, %%%1$sr4;\n"
             "\tadd.u64 %%%1$sd2, %%%1$sd2, %%%1$sd3;\n"
             "\tcvt.u64.u32 %%%1$sd3, %%%1$sr6;\n"
             "\tmul.lo.u64 %%%1$sd2, %%%1$sd2, %%%1$sd3;\n"
             "\tcvt.u64.u32 %%%1$sd3, %%%1$sr3;\n"
             "\tadd.u64 %%%1$sd2, %%%1$sd2, %%%1$sd3;\n"
             "\tmul.lo.u64 %%%1$sd2, %%%1$sd2, %2$d;\n"
             "\tld.param.u64 %%%1$sd0, [%3$s];\n"
             "\tcvta.to.global.u64 %%%1$sd0, %%%1$sd0;\n"
             "\tadd.u64 %%%1$sd0, %%%1$sd0, %%%1$sd2;\n",
             g, INSTR_RECORD_BYTES, INSTR_PARAM_NAME, pre);
}

static const PtxFunc *find_entry(const PtxModule *m, const char *entry)
{
    int i = ptx_find_func(m, entry);
    return i >= 0 && m->funcs[i].is_entry && !m->funcs[i].is_extern ? &m->funcs[i] : NULL;
}

SimStatus instr_residency(const char *path, const char *text, size_t len, const char *entry,
                          char **out, size_t *out_len, SimError *err)
{
    PtxModule *m = ptx_parse_module(path, text, len, err);
    if (!m)
        return err ? err->status : SIM_ERR_PARSE;
    Edits ed = {0};
    SimStatus st = SIM_OK;
    const PtxFunc *f = find_entry(m, entry);
    if (!f) {
        st = sim_error_set(err, SIM_ERR_USAGE, path, 0, 0, "no kernel (.entry) named '%s'", entry);
        goto done;
    }
    for (int i = 0; i < f->n_params; i++)
        if (!strcmp(f->params[i].name, INSTR_PARAM_NAME)) {
            st = sim_error_set(err, SIM_ERR_USAGE, path, f->line, 0,
                               "kernel '%s' is already instrumented (it has %s)", entry, INSTR_PARAM_NAME);
            goto done;
        }
    /* the pointer goes last, 8-aligned: it must still fit the parameter space */
    uint64_t bytes = 0;
    for (int i = 0; i < f->n_params; i++) {
        uint64_t a = f->params[i].align > 0 ? (uint64_t)f->params[i].align : 1;
        bytes = (bytes + a - 1) / a * a + f->params[i].size;
    }
    uint64_t with = (bytes + 7) / 8 * 8 + 8;
    bool new_isa = m->version_major > 8 || (m->version_major == 8 && m->version_minor >= 1);
    int limit = new_isa ? INSTR_MAX_PARAM_BYTES : INSTR_MAX_PARAM_BYTES_OLD;
    if (with > (uint64_t)limit) {
        st = sim_error_set(err, SIM_ERR_UNSUPPORTED, path, f->line, 0,
                           "kernel '%s' takes %llu bytes of parameters: with the residency buffer's pointer, "
                           "%llu, past the %d bytes a kernel may take",
                           entry, (unsigned long long)bytes, (unsigned long long)with, limit);
        goto done;
    }
    char g[16];
    pick_tag(text, len, g, sizeof g);

    /* The header: ".entry NAME ( params )" -- find NAME from the header line. */
    size_t p = line_offset(text, len, f->line), nl = strlen(entry);
    while (p + nl <= len && !(!memcmp(text + p, entry, nl) && (p == 0 || !is_ident(text[p - 1])) &&
                              (p + nl == len || !is_ident(text[p + nl]))))
        p++;
    if (p + nl > len) {
        st = sim_error_set(err, SIM_ERR_UNSUPPORTED, path, f->line, 0, "cannot find the header of '%s'", entry);
        goto done;
    }
    p = skip_space(text, len, p + nl);
    if (p < len && text[p] == '(') {
        size_t close = p + 1;
        while (close < len && text[close] != ')')
            close++;
        if (close == len) {
            st = sim_error_set(err, SIM_ERR_UNSUPPORTED, path, f->line, 0, "unterminated parameter list");
            goto done;
        }
        edit_add(&ed, close, 0, "%s\n\t.param .u64 %s\n", f->n_params ? "," : "", INSTR_PARAM_NAME);
        p = close + 1;
    } else {
        edit_add(&ed, p, 0, "(\n\t.param .u64 %s\n)\n", INSTR_PARAM_NAME);
    }
    /* The body: the first '{' after the header (performance directives such
     * as .maxntid come between), and its matching '}'. */
    while (p < len && text[p] != '{') {
        p = skip_space(text, len, p);
        if (p < len && text[p] != '{')
            p++;
    }
    size_t open = p, q = p;
    int depth = 0;
    while (q < len) {
        q = skip_space(text, len, q);
        if (q >= len)
            break;
        if (text[q] == '"') { /* a string (in a .file or a directive) */
            for (q++; q < len && text[q] != '"'; q++)
                if (text[q] == '\\')
                    q++;
        } else if (text[q] == '{') {
            depth++;
        } else if (text[q] == '}' && --depth == 0) {
            break;
        }
        q++;
    }
    if (open >= len || q >= len) {
        st = sim_error_set(err, SIM_ERR_UNSUPPORTED, path, f->line, 0, "cannot find the body of '%s'", entry);
        goto done;
    }
    char addr[1400], addr_exit[1600];
    record_address(addr, sizeof addr, g, false);
    record_address(addr_exit, sizeof addr_exit, g, true);
    /* Prologue: thread (0,0,0) stores %smid and the start time. */
    edit_add(&ed, open + 1, 0,
             "\n\t// warpsim residency instrumentation (gpu/instrument.h)\n"
             "\t.reg .pred %%%1$sp<2>;\n"
             "\t.reg .b32 %%%1$sr<8>;\n"
             "\t.reg .b64 %%%1$sd<4>;\n"
             "\tmov.u32 %%%1$sr0, %%tid.x;\n"
             "\tmov.u32 %%%1$sr1, %%tid.y;\n"
             "\tor.b32 %%%1$sr0, %%%1$sr0, %%%1$sr1;\n"
             "\tmov.u32 %%%1$sr1, %%tid.z;\n"
             "\tor.b32 %%%1$sr0, %%%1$sr0, %%%1$sr1;\n"
             "\tsetp.ne.u32 %%%1$sp0, %%%1$sr0, 0;\n"
             "\t@%%%1$sp0 bra $%1$s_body;\n"
             "\tmov.u64 %%%1$sd1, %%globaltimer;\n"
             "%2$s"
             "\tmov.u32 %%%1$sr2, %%smid;\n"
             "\tst.global.u32 [%%%1$sd0], %%%1$sr2;\n"
             "\tst.global.u64 [%%%1$sd0+8], %%%1$sd1;\n"
             "$%1$s_body:\n",
             g, addr);
    /* Every ret/exit of the entry goes to the epilogue. */
    for (int i = 0; i < f->n_insts; i++) {
        const PtxInst *in = &f->insts[i];
        if (strcmp(in->opcode, "ret") && strcmp(in->opcode, "exit"))
            continue;
        size_t at = line_offset(text, len, in->ptx_line) + (size_t)(in->ptx_col > 0 ? in->ptx_col - 1 : 0);
        size_t ol = strlen(in->opcode);
        if (at + ol > len || memcmp(text + at, in->opcode, ol)) {
            st = sim_error_set(err, SIM_ERR_UNSUPPORTED, path, in->ptx_line, in->ptx_col,
                               "cannot find '%s' in the text", in->opcode);
            goto done;
        }
        size_t semi = at;
        while (semi < len && text[semi] != ';')
            semi++;
        edit_add(&ed, at, semi - at, "bra $%s_done", g);
    }
    /* Epilogue, before the closing brace: one atomic per arriving group. */
    edit_add(&ed, q, 0,
             "$%1$s_done:\n"
             "\tactivemask.b32 %%%1$sr0;\n"
             "\tpopc.b32 %%%1$sr1, %%%1$sr0;\n"
             "\tmov.u32 %%%1$sr2, %%lanemask_lt;\n"
             "\tand.b32 %%%1$sr2, %%%1$sr2, %%%1$sr0;\n"
             "\tsetp.ne.u32 %%%1$sp0, %%%1$sr2, 0;\n"
             "\t@%%%1$sp0 bra $%1$s_ret;\n"
             "%2$s"
             "\tatom.global.add.u32 %%%1$sr2, [%%%1$sd0+4], %%%1$sr1;\n"
             "\tadd.u32 %%%1$sr2, %%%1$sr2, %%%1$sr1;\n"
             "\tmov.u32 %%%1$sr3, %%ntid.x;\n"
             "\tmov.u32 %%%1$sr4, %%ntid.y;\n"
             "\tmul.lo.u32 %%%1$sr3, %%%1$sr3, %%%1$sr4;\n"
             "\tmov.u32 %%%1$sr4, %%ntid.z;\n"
             "\tmul.lo.u32 %%%1$sr3, %%%1$sr3, %%%1$sr4;\n"
             "\tsetp.ne.u32 %%%1$sp1, %%%1$sr2, %%%1$sr3;\n"
             "\t@%%%1$sp1 bra $%1$s_ret;\n"
             "\tmov.u64 %%%1$sd1, %%globaltimer;\n"
             "\tst.global.u64 [%%%1$sd0+16], %%%1$sd1;\n"
             "$%1$s_ret:\n"
             "\tret;\n",
             g, addr_exit);
    if (ed.oom) {
        st = sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
        goto done;
    }
    /* Apply the edits in order of position. */
    qsort(ed.e, (size_t)ed.n, sizeof *ed.e, edit_cmp);
    size_t total = len;
    for (int i = 0; i < ed.n; i++)
        total += strlen(ed.e[i].ins) - ed.e[i].del;
    char *o = malloc(total + 1);
    if (!o) {
        st = sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
        goto done;
    }
    size_t w = 0, r = 0;
    for (int i = 0; i < ed.n; i++) {
        memcpy(o + w, text + r, ed.e[i].at - r);
        w += ed.e[i].at - r;
        size_t il = strlen(ed.e[i].ins);
        memcpy(o + w, ed.e[i].ins, il);
        w += il;
        r = ed.e[i].at + ed.e[i].del;
    }
    memcpy(o + w, text + r, len - r);
    w += len - r;
    o[w] = 0;
    *out = o;
    *out_len = w;
done:
    edits_free(&ed);
    ptx_module_free(m);
    return st;
}

static uint64_t le(const unsigned char *b, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

void instr_decode(const void *buf, size_t n, InstrRecord *recs)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++, b += INSTR_RECORD_BYTES) {
        recs[i].smid = (uint32_t)le(b, 4);
        recs[i].finished = (uint32_t)le(b + 4, 4);
        recs[i].start = le(b + 8, 8);
        recs[i].end = le(b + 16, 8);
    }
}
