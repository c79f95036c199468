/* explore.c: tallying the outcomes of many runs of one launch (explore.h):
 * a hash table of distinct buffer results per argument, a bitmap of the
 * elements that ever differed, fault kinds and printed texts; and the text
 * and JSON reports of `warpsim explore`. */
#include "explore.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "report.h"
#include "xcheck.h"

#include "hash.h"

#define SMALL_BYTES 64   /* results this small are always kept */

void explore_init(Explore *e, size_t budget)
{
    memset(e, 0, sizeof *e);
    e->budget = budget;
}

void explore_free(Explore *e)
{
    for (int i = 0; i < e->nbufs; i++) {
        ExploreBuffer *b = &e->bufs[i];
        for (int k = 0; k < b->nouts; k++)
            free(b->outs[k].data);
        free(b->outs);
        free(b->index);
        free(b->first);
        free(b->differs);
    }
    for (int i = 0; i < e->ntexts; i++)
        free(e->texts[i].text);
    explore_init(e, 0);
}

static size_t buf_bytes(const ExploreBuffer *b)
{
    return (size_t)b->count * (size_t)argspec_type_size(b->type);
}

/* Rebuild the hash index with room for cap slots (a power of two). */
static bool index_grow(ExploreBuffer *b, int cap)
{
    int *ix = malloc((size_t)cap * sizeof *ix);
    if (!ix)
        return false;
    for (int s = 0; s < cap; s++)
        ix[s] = -1;
    for (int k = 0; k < b->nouts; k++) {
        int s = (int)(b->outs[k].hash & (uint64_t)(cap - 1));
        while (ix[s] >= 0)
            s = (s + 1) & (cap - 1);
        ix[s] = k;
    }
    free(b->index);
    b->index = ix;
    b->index_cap = cap;
    return true;
}

static bool same_outcome(const ExploreOutcome *o, const uint8_t *data, size_t bytes, const char *fk)
{
    if (strcmp(o->fault, fk) || o->unreadable != !data)
        return false;
    return !o->data || !data || !memcmp(o->data, data, bytes);
}

/* Mark the elements of data that differ from b->first. */
static void mark_differences(ExploreBuffer *b, const uint8_t *data)
{
    size_t bytes = buf_bytes(b), sz = (size_t)argspec_type_size(b->type);
    if (!memcmp(b->first, data, bytes))
        return;
    /* 8-byte words first (a multiple of every element size), then the
     * elements of a word that differs */
    for (size_t off = 0; off < bytes; off += 8) {
        size_t len = bytes - off < 8 ? bytes - off : 8;
        if (len == 8) {
            uint64_t x, y;
            memcpy(&x, b->first + off, 8);
            memcpy(&y, data + off, 8);
            if (x == y)
                continue;
        }
        for (size_t o = off; o < off + len; o += sz) {
            uint64_t k = o / sz;
            if (!(b->differs[k / 8] & (1u << (k % 8))) && memcmp(b->first + o, data + o, sz)) {
                b->differs[k / 8] |= (uint8_t)(1u << (k % 8));
                b->ndiffer++;
            }
        }
    }
}

static bool add_buffer(Explore *e, ExploreBuffer *b, const LaunchBuffer *lb, const char *fk, uint64_t seed)
{
    size_t bytes = buf_bytes(b);
    uint64_t h = lb->data ? hash_xxh64(lb->data, bytes, fk[0] ? hash_xxh64(fk, strlen(fk), 0) : 0)
                          : hash_xxh64(fk, strlen(fk), 0x756e7265616461ull);
    if (2 * (b->nouts + 1) > b->index_cap && !index_grow(b, b->index_cap ? 2 * b->index_cap : 16))
        return false;
    int s = (int)(h & (uint64_t)(b->index_cap - 1));
    for (; b->index[s] >= 0; s = (s + 1) & (b->index_cap - 1)) {
        ExploreOutcome *o = &b->outs[b->index[s]];
        if (o->hash == h && same_outcome(o, lb->data, bytes, fk)) {
            o->count++;
            goto seen;
        }
    }
    if (b->nouts == b->cap) {
        int cap = b->cap ? 2 * b->cap : 8;
        ExploreOutcome *n = realloc(b->outs, (size_t)cap * sizeof *n);
        if (!n)
            return false;
        b->outs = n;
        b->cap = cap;
    }
    ExploreOutcome *o = &b->outs[b->nouts];
    memset(o, 0, sizeof *o);
    o->hash = h;
    o->count = 1;
    o->first_seed = seed;
    o->unreadable = !lb->data;
    snprintf(o->fault, sizeof o->fault, "%s", fk);
    if (lb->data && (bytes <= SMALL_BYTES || b->nouts == 0 || e->kept + bytes <= e->budget)) {
        o->data = malloc(bytes ? bytes : 1);
        if (!o->data)
            return false;
        memcpy(o->data, lb->data, bytes);
        e->kept += bytes;
    }
    b->index[s] = b->nouts++;
seen:
    if (!lb->data)
        return true;
    if (!b->first) {
        b->first = malloc(bytes ? bytes : 1);
        b->differs = calloc((size_t)(b->count / 8 + 1), 1);
        if (!b->first || !b->differs)
            return false;
        memcpy(b->first, lb->data, bytes);
        return true;
    }
    mark_differences(b, lb->data);
    return true;
}

static void add_fault(Explore *e, const DeviceFault *f, const char *fk, uint64_t seed)
{
    e->faulted_runs++;
    for (int i = 0; i < e->nfaults; i++)
        if (!strcmp(e->faults[i].kind, fk)) {
            e->faults[i].count++;
            return;
        }
    if (e->nfaults == EXPLORE_MAX_FAULT_KINDS) {
        e->other_faults++;
        return;
    }
    ExploreFault *x = &e->faults[e->nfaults++];
    snprintf(x->kind, sizeof x->kind, "%s", fk);
    x->count = 1;
    x->first_seed = seed;
    x->first = *f;
}

static bool add_text(Explore *e, const char *t, uint64_t seed)
{
    e->printed_runs++;
    uint64_t h = hash_xxh64(t, strlen(t), 0);
    for (int i = 0; i < e->ntexts; i++)
        if (e->texts[i].hash == h) {
            e->texts[i].count++;
            return true;
        }
    e->text_distinct++;
    if (e->ntexts == EXPLORE_MAX_TEXTS)
        return true; /* counted as distinct, not kept */
    ExploreText *x = &e->texts[e->ntexts];
    x->text = strdup(t);
    if (!x->text)
        return false;
    x->hash = h;
    x->count = 1;
    x->first_seed = seed;
    e->ntexts++;
    return true;
}

bool explore_add(Explore *e, const LaunchResult *r, uint64_t seed, const char *printed, bool races)
{
    if (e->oom)
        return false;
    if (e->runs == 0) {
        e->nbufs = r->nbufs;
        for (int i = 0; i < r->nbufs; i++) {
            ExploreBuffer *b = &e->bufs[i];
            memset(b, 0, sizeof *b);
            b->arg = r->bufs[i].arg;
            b->type = r->bufs[i].type;
            b->count = r->bufs[i].count;
        }
    }
    if (r->nbufs != e->nbufs)
        return false;
    const char *fk = "";
    if (r->status == SIM_ERR_FAULT)
        fk = r->fault.kind[0] ? r->fault.kind : "fault";
    bool ok = true;
    for (int i = 0; i < e->nbufs && ok; i++)
        ok = add_buffer(e, &e->bufs[i], &r->bufs[i], fk, seed);
    if (ok && fk[0])
        add_fault(e, &r->fault, fk, seed);
    if (ok && printed && *printed)
        ok = add_text(e, printed, seed);
    if (!ok) {
        e->oom = true;
        return false;
    }
    e->race_runs += races;
    e->runs++;
    return true;
}

static int by_count(const void *a, const void *b)
{
    const ExploreOutcome *x = *(const ExploreOutcome *const *)a, *y = *(const ExploreOutcome *const *)b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->first_seed < y->first_seed ? -1 : x->first_seed > y->first_seed;
}

const ExploreOutcome **explore_sorted(const ExploreBuffer *b)
{
    if (!b->nouts)
        return NULL;
    const ExploreOutcome **v = malloc((size_t)b->nouts * sizeof *v);
    if (!v)
        return NULL;
    for (int k = 0; k < b->nouts; k++)
        v[k] = &b->outs[k];
    qsort(v, (size_t)b->nouts, sizeof *v, by_count);
    return v;
}

bool explore_min_max(const ExploreBuffer *b, const ExploreOutcome **min, const ExploreOutcome **max)
{
    *min = *max = NULL;
    double lo = 0, hi = 0;
    for (int k = 0; k < b->nouts; k++) {
        const ExploreOutcome *o = &b->outs[k];
        if (!o->data)
            continue;
        double v = xcheck_elem(b->type, o->data, 0);
        if (isnan(v))
            continue;
        if (!*min || v < lo || (v == lo && o->first_seed < (*min)->first_seed)) {
            *min = o;
            lo = v;
        }
        if (!*max || v > hi || (v == hi && o->first_seed < (*max)->first_seed)) {
            *max = o;
            hi = v;
        }
    }
    return *min != NULL;
}

bool explore_elem_differs(const ExploreBuffer *b, uint64_t k)
{
    return b->differs && k < b->count && (b->differs[k / 8] >> (k % 8)) & 1;
}

/* ---- reports ------------------------------------------------------------- */

static void elem_text(const ExploreBuffer *b, const uint8_t *data, uint64_t k, char *t, size_t cap)
{
    argspec_format_text(b->type, data + k * (uint64_t)argspec_type_size(b->type), t, cap);
}

static void print_preview(FILE *f, const ExploreBuffer *b, const uint8_t *data)
{
    uint64_t show = b->count <= 16 ? b->count : 12;
    char t[64];
    for (uint64_t k = 0; k < show; k++) {
        elem_text(b, data, k, t, sizeof t);
        fprintf(f, " %s", t);
    }
    if (show < b->count) {
        elem_text(b, data, b->count - 1, t, sizeof t);
        fprintf(f, " ... %s", t);
    }
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* The first (up to max) elements that differ, into idx; returns how many. */
static int differing(const ExploreBuffer *b, uint64_t *idx, int max)
{
    int n = 0;
    for (uint64_t k = 0; k < b->count && n < max; k++)
        if (explore_elem_differs(b, k))
            idx[n++] = k;
    return n;
}

static void print_buffer_text(FILE *f, const Explore *e, const ExploreBuffer *b, int show)
{
    char t[64];
    fprintf(f, "arg %d  %s[%llu]: ", b->arg, argspec_type_name(b->type), (unsigned long long)b->count);
    const ExploreOutcome **v = explore_sorted(b);
    if (!v) {
        fprintf(f, "no results\n");
        return;
    }
    if (b->nouts == 1 && !v[0]->fault[0] && v[0]->data) {
        fprintf(f, "the same in every run:");
        print_preview(f, b, v[0]->data);
        fprintf(f, "\n");
        free(v);
        return;
    }
    fprintf(f, "%d distinct %s in %llu %s", b->nouts, plural((uint64_t)b->nouts, "result", "results"),
            (unsigned long long)e->runs, plural(e->runs, "run", "runs"));
    uint64_t idx[16];
    int nd = 0;
    if (b->count > 1) {
        nd = differing(b, idx, 16);
        fprintf(f, "; %llu of %llu elements differ", (unsigned long long)b->ndiffer, (unsigned long long)b->count);
        for (int k = 0; k < nd; k++)
            fprintf(f, "%s[%llu]", k ? " " : ": ", (unsigned long long)idx[k]);
        if ((uint64_t)nd < b->ndiffer)
            fprintf(f, " ...");
    }
    fprintf(f, "\n");
    int listed = b->nouts < show ? b->nouts : show;
    for (int k = 0; k < listed; k++) {
        const ExploreOutcome *o = v[k];
        fprintf(f, "    x%-6llu seed %-6llu", (unsigned long long)o->count, (unsigned long long)o->first_seed);
        if (o->unreadable)
            fprintf(f, " (not readable after the fault)");
        else if (!o->data)
            fprintf(f, " xxh64 %016llx (not kept)", (unsigned long long)o->hash);
        else if (b->count == 1) {
            elem_text(b, o->data, 0, t, sizeof t);
            fprintf(f, " %s", t);
        } else if (nd == 0) {
            print_preview(f, b, o->data);
        } else {
            for (int j = 0; j < nd && j < 8; j++) {
                elem_text(b, o->data, idx[j], t, sizeof t);
                fprintf(f, " [%llu]=%s", (unsigned long long)idx[j], t);
            }
            if (nd > 8 || (uint64_t)nd < b->ndiffer)
                fprintf(f, " ...");
        }
        if (o->fault[0])
            fprintf(f, "   (fault: %s)", o->fault);
        fprintf(f, "\n");
    }
    if (listed < b->nouts)
        fprintf(f, "    ... %d more\n", b->nouts - listed);
    const ExploreOutcome *lo, *hi;
    if (b->count == 1 && b->nouts > 1 && explore_min_max(b, &lo, &hi)) {
        char u[64];
        elem_text(b, lo->data, 0, t, sizeof t);
        elem_text(b, hi->data, 0, u, sizeof u);
        fprintf(f, "    min %s (seed %llu), max %s (seed %llu)\n", t, (unsigned long long)lo->first_seed, u,
                (unsigned long long)hi->first_seed);
    }
    free(v);
}

void explore_print_text(FILE *f, const Explore *e, int show)
{
    for (int i = 0; i < e->nbufs; i++)
        print_buffer_text(f, e, &e->bufs[i], show);
    if (e->faulted_runs) {
        fprintf(f, "faults: %llu of %llu %s faulted\n", (unsigned long long)e->faulted_runs,
                (unsigned long long)e->runs, plural(e->runs, "run", "runs"));
        for (int i = 0; i < e->nfaults; i++) {
            const ExploreFault *x = &e->faults[i];
            fprintf(f, "    x%-6llu %s, first at seed %llu: block (%u,%u,%u) thread (%u,%u,%u)",
                    (unsigned long long)x->count, x->kind, (unsigned long long)x->first_seed, x->first.block.x,
                    x->first.block.y, x->first.block.z, x->first.thread.x, x->first.thread.y, x->first.thread.z);
            if (x->first.line > 0)
                fprintf(f, " at %s:%d", x->first.file, x->first.line);
            fprintf(f, "\n           %s\n", x->first.msg);
        }
        if (e->other_faults)
            fprintf(f, "    x%-6llu of other kinds\n", (unsigned long long)e->other_faults);
    }
    if (e->printed_runs) {
        fprintf(f, "printf: %llu distinct %s in the %llu %s that printed\n", (unsigned long long)e->text_distinct,
                plural(e->text_distinct, "text", "texts"), (unsigned long long)e->printed_runs,
                plural(e->printed_runs, "run", "runs"));
        for (int i = 0; i < e->ntexts && i < show; i++) {
            const ExploreText *x = &e->texts[i];
            fprintf(f, "    x%-6llu seed %llu:\n", (unsigned long long)x->count, (unsigned long long)x->first_seed);
            const char *p = x->text;
            for (int line = 0; *p && line < 8; line++) {
                const char *nl = strchr(p, '\n');
                int len = nl ? (int)(nl - p) : (int)strlen(p);
                fprintf(f, "      | %.*s\n", len, p);
                p += len + (nl != NULL);
            }
            if (*p)
                fprintf(f, "      | ...\n");
        }
    }
}

static void print_outcome_json(FILE *f, const ExploreBuffer *b, const ExploreOutcome *o)
{
    fprintf(f, "{\"hex\": ");
    char *hex = o->data ? xcheck_hex(b->type, o->data, b->count) : NULL;
    if (hex)
        fprintf(f, "\"%s\"", hex);
    else
        fprintf(f, "null");
    free(hex);
    fprintf(f, ", \"count\": %llu, \"seed\": %llu, \"xxh64\": \"%016llx\", \"fault\": ", (unsigned long long)o->count,
            (unsigned long long)o->first_seed, (unsigned long long)o->hash);
    if (o->fault[0])
        report_json_string(f, o->fault);
    else
        fprintf(f, "null");
    if (b->count == 1 && o->data) {
        char t[64];
        argspec_format_json(b->type, o->data, t, sizeof t);
        fprintf(f, ", \"value\": %s", t);
    }
    fprintf(f, "}");
}

static void print_buffer_json(FILE *f, const Explore *e, const ExploreBuffer *b, int show)
{
    (void)e;
    fprintf(f, "{\"arg\": %d, \"type\": \"%s\", \"count\": %llu, \"distinct\": %d, \"differing_elements\": %llu, "
               "\"outcomes\": [",
            b->arg, argspec_type_name(b->type), (unsigned long long)b->count, b->nouts,
            (unsigned long long)b->ndiffer);
    const ExploreOutcome **v = explore_sorted(b);
    int listed = v ? (b->nouts < show ? b->nouts : show) : 0;
    for (int k = 0; k < listed; k++) {
        fprintf(f, "%s", k ? ", " : "");
        print_outcome_json(f, b, v[k]);
    }
    fprintf(f, "], \"listed\": %d", listed);
    const ExploreOutcome *lo, *hi;
    if (b->count == 1 && explore_min_max(b, &lo, &hi)) {
        char t[64];
        argspec_format_json(b->type, lo->data, t, sizeof t);
        fprintf(f, ", \"min\": %s", t);
        argspec_format_json(b->type, hi->data, t, sizeof t);
        fprintf(f, ", \"max\": %s", t);
    }
    fprintf(f, "}");
    free(v);
}

void explore_print_json(FILE *f, const Explore *e, int show)
{
    fprintf(f, "\"runs\": %llu, \"buffers\": [", (unsigned long long)e->runs);
    for (int i = 0; i < e->nbufs; i++) {
        fprintf(f, "%s", i ? ", " : "");
        print_buffer_json(f, e, &e->bufs[i], show);
    }
    fprintf(f, "], \"faulted_runs\": %llu, \"faults\": [", (unsigned long long)e->faulted_runs);
    for (int i = 0; i < e->nfaults; i++) {
        fprintf(f, "%s{\"kind\": ", i ? ", " : "");
        report_json_string(f, e->faults[i].kind);
        fprintf(f, ", \"count\": %llu, \"seed\": %llu, \"first\": ", (unsigned long long)e->faults[i].count,
                (unsigned long long)e->faults[i].first_seed);
        report_fault_json(f, &e->faults[i].first);
        fprintf(f, "}");
    }
    fprintf(f, "]");
    if (e->printed_runs) {
        fprintf(f, ", \"printf\": {\"runs\": %llu, \"distinct\": %llu, \"outcomes\": [",
                (unsigned long long)e->printed_runs, (unsigned long long)e->text_distinct);
        for (int i = 0; i < e->ntexts && i < show; i++) {
            fprintf(f, "%s{\"text\": ", i ? ", " : "");
            report_json_string(f, e->texts[i].text);
            fprintf(f, ", \"count\": %llu, \"seed\": %llu}", (unsigned long long)e->texts[i].count,
                    (unsigned long long)e->texts[i].first_seed);
        }
        fprintf(f, "]}");
    }
}
