/* explore_report.c: the explorer's tally (explore.h) as `warpsim explore`
 * prints it -- per buffer the distinct results by count with a preview of
 * their values, the elements that ever differed, faults and printf texts,
 * as text for people or as JSON members -- to the FILE it is given. */
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "explore.h"
#include "report.h"
#include "xcheck.h"

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
