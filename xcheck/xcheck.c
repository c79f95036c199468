/* xcheck.c: xcheck.txt lines, buffer hashing and hex, and the comparison of
 * a simulated launch with the reference side (see xcheck.h). */
#include "xcheck.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "occupancy.h"
#include "source.h"

#include "hash.h"

void xcheck_launch_free(XcheckLaunch *l)
{
    launch_spec_free(&l->spec);
    launch_tokens_free(l->toks);
    free(l->line);
    memset(l, 0, sizeof *l);
    l->than = -1;
}

static bool parse_crit(const char *w, XcheckCrit *c, char *msg, size_t cap)
{
    char *end;
    snprintf(c->text, sizeof c->text, "%s", w);
    if (!strcmp(w, "any")) {
        c->kind = XCHECK_ANY;
        return true;
    }
    if (!strncmp(w, "below:", 6) || !strncmp(w, "above:", 6)) {
        double v = strtod(w + 6, &end);
        if (end != w + 6 && !*end && !isnan(v)) {
            c->kind = w[0] == 'b' ? XCHECK_BELOW : XCHECK_ABOVE;
            c->lo = c->hi = v;
            return true;
        }
    } else if (!strncmp(w, "range:", 6)) {
        c->lo = strtod(w + 6, &end);
        if (end != w + 6 && *end == ',') {
            const char *h = end + 1;
            c->hi = strtod(h, &end);
            if (end != h && !*end && c->lo <= c->hi) {
                c->kind = XCHECK_RANGE;
                return true;
            }
        }
    }
    snprintf(msg, cap, "'%s': expected below:V, above:V, range:LO,HI or any", w);
    return false;
}

/* The column (1-based) of word w in line at or after column from; 0 when absent. */
static int column_of(const char *line, const char *w, int from)
{
    size_t n = strlen(line);
    if (from < 1 || (size_t)from > n + 1)
        return 0;
    const char *p = strstr(line + from - 1, w);
    return p ? (int)(p - line) + 1 : 0;
}

/* faster-than LINE [BY R]: t[1..] into out; the index of the first launch
 * option, or -1 with msg ("column C: ..."). */
static int parse_faster(const char *line, char **t, int n, XcheckLaunch *out, char *msg, size_t cap)
{
    int c0 = column_of(line, "faster-than", 1);
    out->than_col = c0 + 12;
    if (n < 2 || !strncmp(t[1], "--", 2)) {
        snprintf(msg, cap, "column %d: faster-than: expected the line number of the launch it beats", out->than_col);
        return -1;
    }
    out->than_col = column_of(line, t[1], c0 + 11);
    char *end;
    long v = strtol(t[1], &end, 10);
    if (end == t[1] || *end || v < 1 || v > 1000000) {
        snprintf(msg, cap, "column %d: faster-than '%s': expected a line number (1, 2, ...)", out->than_col, t[1]);
        return -1;
    }
    out->than_line = (int)v;
    out->by = 1;
    if (n < 3 || strcasecmp(t[2], "BY"))
        return 2;
    int cb = column_of(line, t[2], out->than_col + (int)strlen(t[1]));
    out->by_col = cb + 3;
    if (n < 4 || !strncmp(t[3], "--", 2)) {
        snprintf(msg, cap, "column %d: faster-than %s BY: expected a factor (2, 1.5, ...)", out->by_col, t[1]);
        return -1;
    }
    out->by_col = column_of(line, t[3], cb + 2);
    double r = strtod(t[3], &end);
    if (end == t[3] || *end || !(r >= 1) || r > 1e9) {
        snprintf(msg, cap, "column %d: BY '%s': expected a factor of at least 1 (2: at most half the time)",
                 out->by_col, t[3]);
        return -1;
    }
    out->by = r;
    return 4;
}

int xcheck_parse_line(const char *line, XcheckLaunch *out, char *msg, size_t cap)
{
    memset(out, 0, sizeof *out);
    out->than = -1;
    launch_spec_init(&out->spec);
    char **t;
    int n = launch_tokenize(line, &t, msg, cap);
    if (n <= 0) {
        launch_tokens_free(n < 0 ? NULL : t);
        return n;
    }
    out->toks = t;
    int i = 0;
    if (!strcmp(t[0], "faster-than") && (i = parse_faster(line, t, n, out, msg, cap)) < 0)
        goto fail;
    if (i >= n) {
        snprintf(msg, cap, "faster-than %s: expected the launch (--kernel ...) after it", t[1]);
        goto fail;
    }
    if (!strcmp(t[i], "exact")) {
        i++;
    } else if (!strcmp(t[i], "order-dependent")) {
        out->order_dependent = true;
        for (i++; i < n && strncmp(t[i], "--", 2); i++) {
            char *end;
            long a = strtol(t[i], &end, 10);
            if (end != t[i] && !*end) {
                if (a < 0 || a >= LAUNCH_MAX_ARGS || out->nod == XCHECK_MAX_OD) {
                    snprintf(msg, cap, "order-dependent: bad argument index '%s'", t[i]);
                    goto fail;
                }
                out->od[out->nod++] = (XcheckCrit){.arg = (int)a, .kind = XCHECK_ANY, .text = "any"};
            } else if (!out->nod) {
                snprintf(msg, cap, "order-dependent: expected an argument index before '%s'", t[i]);
                goto fail;
            } else if (!parse_crit(t[i], &out->od[out->nod - 1], msg, cap)) {
                goto fail;
            }
        }
        if (!out->nod) {
            snprintf(msg, cap, "order-dependent: name at least one buffer argument");
            goto fail;
        }
    } else if (strncmp(t[i], "--", 2)) {
        snprintf(msg, cap, "'%s': a line starts with exact, order-dependent, faster-than or a --option", t[i]);
        goto fail;
    }
    if (!launch_parse_tokens(&out->spec, n - i, t + i, msg, cap))
        goto fail;
    for (int k = 0; k < out->nod; k++) {
        int a = out->od[k].arg;
        if (a >= out->spec.nargs || !out->spec.args[a].is_buffer) {
            snprintf(msg, cap, "order-dependent argument %d is not a buffer --arg", a);
            goto fail;
        }
        if (out->spec.args[a].count > XCHECK_OD_MAX_ELEMS) {
            snprintf(msg, cap, "order-dependent argument %d has more than %d elements", a, XCHECK_OD_MAX_ELEMS);
            goto fail;
        }
    }
    const char *b = line, *e = line + strlen(line);
    while (*b == ' ' || *b == '\t')
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        e--;
    out->line = strndup(b, (size_t)(e - b));
    if (!out->line) {
        snprintf(msg, cap, "out of memory");
        goto fail;
    }
    return 1;
fail:
    xcheck_launch_free(out);
    return -1;
}

/* "path:L: m", and when m starts with "column C: " the line and a caret
 * under column C after it. */
static void with_caret(char *msg, size_t cap, const char *path, int lineno, const char *line, const char *m)
{
    int col = 0, used = 0;
    if (sscanf(m, "column %d: %n", &col, &used) < 1 || !used || col < 1)
        col = 0;
    size_t ll = strcspn(line, "\r\n");
    if (!col || (size_t)col > ll + 1) {
        snprintf(msg, cap, "%s:%d: %s", path, lineno, m);
        return;
    }
    char pad[1024];
    int k = 0;
    for (; k < col - 1 && k < (int)sizeof pad - 1; k++)
        pad[k] = line[k] == '\t' ? '\t' : ' ';
    pad[k] = 0;
    snprintf(msg, cap, "%s:%d:%d: %s\n    %.*s\n    %s^", path, lineno, col, m + used, (int)ll, line, pad);
}

/* The text of line lineno (1-based) of text[0..len), into buf. */
static void line_text(const char *text, size_t len, int lineno, char *buf, size_t cap)
{
    const char *p = text, *e = text + len;
    for (int k = 1; k < lineno && p < e; k++) {
        const char *nl = memchr(p, '\0', (size_t)(e - p)); /* read_file cut the lines at '\n' */
        p = nl ? nl + 1 : e;
    }
    snprintf(buf, cap, "%.*s", (int)strnlen(p, (size_t)(e - p)), p);
}

/* Point each faster-than at its launch and mark both timed. */
static bool resolve_claims(const char *path, const char *text, size_t len, XcheckLaunch *ls, int n, char *msg,
                           size_t cap)
{
    for (int i = 0; i < n; i++) {
        XcheckLaunch *l = &ls[i];
        if (!l->than_line)
            continue;
        for (int k = 0; k < n; k++)
            if (ls[k].lineno == l->than_line)
                l->than = k;
        const char *why = l->than < 0 ? "is not a launch line of this file"
                          : l->than == i ? "is this line itself: a launch is not faster than itself"
                                         : NULL;
        if (why) {
            char line[1024], m[512];
            line_text(text, len, l->lineno, line, sizeof line);
            snprintf(m, sizeof m, "column %d: faster-than %d: line %d %s", l->than_col, l->than_line,
                     l->than_line, why);
            with_caret(msg, cap, path, l->lineno, line, m);
            return false;
        }
        l->timed = ls[l->than].timed = true;
    }
    return true;
}

bool xcheck_read_file(const char *path, XcheckLaunch **out, int *n, char *msg, size_t cap)
{
    size_t len;
    char *text = source_read_file(path, &len, msg, cap);
    *out = NULL;
    *n = 0;
    if (!text)
        return false;
    int room = 0, lineno = 0;
    bool ok = true;
    for (char *p = text; ok && p < text + len; lineno++) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        if (nl)
            *nl = 0;
        if (*n == room) {
            XcheckLaunch *g = realloc(*out, (size_t)(room = room ? 2 * room : 8) * sizeof *g);
            if (!g) {
                snprintf(msg, cap, "%s: out of memory", path);
                ok = false;
                break;
            }
            *out = g;
        }
        char m[512];
        int r = xcheck_parse_line(p, &(*out)[*n], m, sizeof m);
        if (r < 0) {
            with_caret(msg, cap, path, lineno + 1, p, m);
            ok = false;
        } else if (r > 0) {
            (*out)[(*n)++].lineno = lineno + 1;
        }
        p = nl ? nl + 1 : text + len;
    }
    ok = ok && resolve_claims(path, text, len, *out, *n, msg, cap);
    free(text);
    if (!ok) {
        for (int i = 0; i < *n; i++)
            xcheck_launch_free(&(*out)[i]);
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return ok;
}

const XcheckCrit *xcheck_crit_for(const XcheckLaunch *l, int arg)
{
    for (int i = 0; i < l->nod; i++)
        if (l->od[i].arg == arg)
            return &l->od[i];
    return NULL;
}

uint64_t xcheck_hash(const void *data, size_t len)
{
    return hash_xxh64(data, len, 0);
}

double xcheck_elem(PtxType t, const uint8_t *d, uint64_t k)
{
    int sz = argspec_type_size(t);
    const uint8_t *p = d + k * (uint64_t)sz;
    const char *name = argspec_type_name(t);
    uint64_t u = 0;
    memcpy(&u, p, (size_t)sz); /* little-endian host */
    if (name[0] == 'f') {
        if (sz == 4) {
            float f;
            memcpy(&f, p, 4);
            return f;
        }
        double x;
        memcpy(&x, p, 8);
        return x;
    }
    if (name[0] == 'i' && sz < 8 && (u >> (8 * sz - 1)) & 1)
        u |= ~0ull << (8 * sz); /* sign-extend */
    return name[0] == 'i' ? (double)(int64_t)u : (double)u;
}

bool xcheck_crit_holds(const XcheckCrit *c, PtxType t, const uint8_t *data, uint64_t count)
{
    for (uint64_t k = 0; k < count; k++) {
        double x = xcheck_elem(t, data, k);
        if ((c->kind == XCHECK_BELOW && !(x < c->hi)) || (c->kind == XCHECK_ABOVE && !(x > c->lo)) ||
            (c->kind == XCHECK_RANGE && !(x >= c->lo && x <= c->hi)))
            return false;
    }
    return true;
}

char *xcheck_hex(PtxType t, const uint8_t *data, uint64_t count)
{
    int sz = argspec_type_size(t);
    char *s = malloc(count * (uint64_t)(2 * sz + 1) + 1), *p = s;
    if (!s)
        return NULL;
    *p = 0;
    for (uint64_t k = 0; k < count; k++) {
        char h[64];
        argspec_format_hex(t, data + k * (uint64_t)sz, h, sizeof h);
        p += sprintf(p, "%s%s", k ? " " : "", h);
    }
    return s;
}

uint8_t *xcheck_unhex(PtxType t, const char *text, uint64_t count)
{
    int sz = argspec_type_size(t);
    if (sz <= 0 || !text)
        return NULL;
    uint8_t *d = malloc(count * (uint64_t)sz + 1);
    const char *p = text;
    for (uint64_t k = 0; d && k < count; k++) {
        while (*p == ' ')
            p++;
        uint64_t v = 0;
        int digits = 0;
        for (; isxdigit((unsigned char)*p); p++, digits++)
            v = v * 16 + (uint64_t)(isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10));
        if (digits != 2 * sz) {
            free(d);
            return NULL;
        }
        memcpy(d + k * (uint64_t)sz, &v, (size_t)sz);
    }
    while (d && *p == ' ')
        p++;
    if (d && *p) {
        free(d);
        return NULL;
    }
    return d;
}

void xcheck_ref_free(XcheckRef *r)
{
    for (int i = 0; i < r->nbufs; i++) {
        free(r->bufs[i].data);
        for (int k = 0; k < r->bufs[i].nruns; k++)
            free(r->bufs[i].runs[k]);
    }
    free(r->line);
    memset(r, 0, sizeof *r);
}

bool xcheck_compare_buffers(const XcheckLaunch *l, const LaunchResult *sim, const XcheckRef *ref,
                            XcheckBufCmp *cmp, int *ncmp)
{
    bool ok = true;
    *ncmp = 0;
    for (int i = 0; i < sim->nbufs; i++) {
        const LaunchBuffer *s = &sim->bufs[i];
        const XcheckRefBuf *r = NULL;
        for (int k = 0; k < ref->nbufs; k++)
            if (ref->bufs[k].arg == s->arg)
                r = &ref->bufs[k];
        XcheckBufCmp *c = &cmp[(*ncmp)++];
        *c = (XcheckBufCmp){.arg = s->arg, .type = s->type, .count = s->count, .index = -1,
                            .crit = xcheck_crit_for(l, s->arg)};
        size_t bytes = s->count * (uint64_t)argspec_type_size(s->type);
        if (!s->data || !r || r->type != s->type || r->count != s->count) {
            c->verdict = XCHECK_MISSING;
            ok = false;
        } else if (c->crit) {
            c->sim_holds = xcheck_crit_holds(c->crit, s->type, s->data, s->count);
            for (int k = 0; k < r->nruns; k++)
                c->runs_holding += xcheck_crit_holds(c->crit, r->type, r->runs[k], r->count);
            bool holds = c->sim_holds && r->nruns > 0 && c->runs_holding == r->nruns;
            c->verdict = holds ? XCHECK_HOLDS : XCHECK_FAILS;
            ok = ok && holds;
        } else if (r->data) {
            int sz = argspec_type_size(s->type);
            for (uint64_t k = 0; k < s->count && c->index < 0; k++)
                if (memcmp(s->data + k * (uint64_t)sz, r->data + k * (uint64_t)sz, (size_t)sz))
                    c->index = (int64_t)k;
            /* equal values under a different recorded hash: the recording disagrees with itself */
            bool same = c->index < 0 && xcheck_hash(s->data, bytes) == r->hash;
            c->verdict = same ? XCHECK_IDENTICAL : XCHECK_DIFFERS;
            ok = ok && same;
        } else {
            c->verdict = xcheck_hash(s->data, bytes) == r->hash ? XCHECK_IDENTICAL : XCHECK_DIFFERS;
            ok = ok && c->verdict == XCHECK_IDENTICAL;
        }
    }
    for (int k = 0; k < ref->nbufs; k++) { /* a reference buffer the simulator lacks */
        bool seen = false;
        for (int i = 0; i < sim->nbufs; i++)
            seen |= sim->bufs[i].arg == ref->bufs[k].arg;
        if (!seen && *ncmp < LAUNCH_MAX_ARGS) {
            cmp[(*ncmp)++] = (XcheckBufCmp){.arg = ref->bufs[k].arg, .type = ref->bufs[k].type,
                                            .count = ref->bufs[k].count, .verdict = XCHECK_MISSING,
                                            .index = -1};
            ok = false;
        }
    }
    return ok;
}

bool xcheck_compare_launch(const char *arch, const XcheckLaunch *l, SimStatus sst, const LaunchResult *sim,
                           const XcheckRef *ref, XcheckLaunchCmp *c)
{
    memset(c, 0, sizeof *c);
    c->ran = sst == SIM_OK || sst == SIM_ERR_FAULT;
    c->ok = c->ran && xcheck_compare_buffers(l, sim, ref, c->bufs, &c->nbufs);
    c->sim_fault = sst == SIM_ERR_FAULT;
    c->ok = c->ok && !c->sim_fault && !ref->fault[0];
    c->model_blocks = xcheck_model_blocks(arch, &l->spec, ref->regs, ref->static_smem);
    c->occ_known = c->model_blocks >= 0 && ref->api_blocks >= 0;
    c->occ_ok = !c->occ_known || c->model_blocks == ref->api_blocks;
    c->ok = c->ok && c->occ_ok;
    return c->ok;
}


int xcheck_model_blocks(const char *arch, const LaunchSpec *s, int regs, long long static_smem)
{
    const ArchProfile *a = arch ? arch_find(arch) : NULL;
    if (!a || regs < 0 || static_smem < 0)
        return -1;
    OccConfig c;
    occ_config_init(&c);
    c.block_size = (int)(s->block.x * s->block.y * s->block.z);
    c.regs_per_thread = regs;
    c.smem_static = (size_t)static_smem;
    c.smem_dynamic = s->smem;
    OccResult r;
    SimError err;
    if (occ_compute(a, &c, &r, &err))
        return -1;
    return r.blocks_per_sm;
}

void xcheck_slug(const char *name, char *buf, size_t cap)
{
    size_t n = 0;
    bool dash = false;
    for (const char *p = name; *p && n + 2 < cap; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && n)
                buf[n++] = '-';
            buf[n++] = (char)tolower((unsigned char)*p);
            dash = false;
        } else {
            dash = true;
        }
    }
    buf[n] = 0;
    if (!n)
        snprintf(buf, cap, "gpu");
}
