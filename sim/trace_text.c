/* trace_text.c: a trace as people and other tools read it -- one event a
 * line of text (trace_dump_text, `warpsim trace dump`), and Chrome
 * trace-event JSON that Perfetto and chrome://tracing open (one process per
 * SM with a track of block spans and, where the level allows, one track per
 * warp).  Reads the trace only through the reader API of trace.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* Text of n bytes, non-printable bytes as \xNN. */
static void put_text(FILE *f, const char *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            fputc(c, f);
        else
            fprintf(f, "\\x%02x", c);
    }
}

static const char *coll_mode(int kind, int mode)
{
    static const char *shfl[] = {"up", "down", "bfly", "idx"};
    static const char *vote[] = {"all", "any", "uni", "ballot"};
    static const char *match[] = {"any", "all"};
    static const char *redux[] = {"add", "min", "max", "and", "or", "xor"};
    switch (kind) {
    case TRACE_COLL_SHFL: return mode < 4 ? shfl[mode] : "?";
    case TRACE_COLL_VOTE: return mode < 4 ? vote[mode] : "?";
    case TRACE_COLL_MATCH: return mode < 2 ? match[mode] : "?";
    case TRACE_COLL_REDUX: return mode < 6 ? redux[mode] : "?";
    default: return "";
    }
}

/* A tile record's listed elements: an atomic's updates in the order they
 * were applied, then what was skipped; a gather's or scatter's masked and
 * out-of-range elements. */
static void tile_elements(FILE *f, const TraceEvent *e)
{
    static const char *states[] = {"", "masked off", "index outside the array"};
    uint32_t n = e->u.tile.nlisted;
    if (!n)
        return;
    TraceTileElem *el = malloc((size_t)n * sizeof *el);
    if (!el)
        return;
    n = trace_tile_elems(e, el, n);
    uint32_t shown = 0;
    for (uint32_t k = 0; k < n; k++) {
        const TraceTileElem *x = &el[k];
        if (x->updated)
            fprintf(f, "\n%*s%u. element %u [%" PRId64 "] thread %u: 0x%" PRIx64 " -> 0x%" PRIx64, 24, "", ++shown,
                    x->elem, x->index, x->thread, x->old, x->val);
        else if (x->state != TRACE_TILE_ELEM_OK)
            fprintf(f, "\n%*selement %u [%" PRId64 "]: %s", 24, "", x->elem, x->index,
                    states[x->state < 3 ? x->state : 2]);
    }
    free(el);
}

/* The details of one event (after cycle, block and name). */
static void event_details(FILE *f, const TraceReader *r, const TraceEvent *e)
{
    switch (e->type) {
    case TRACE_EV_BLOCK_DISPATCH:
    case TRACE_EV_BLOCK_RETIRE:
        fprintf(f, "sm %u", e->u.blk.sm);
        break;
    case TRACE_EV_WARP_TURN:
        fprintf(f, "w%u ran %u instructions from cycle %" PRIu64, e->u.turn.warp, e->u.turn.count,
                e->cycle - e->u.turn.count);
        break;
    case TRACE_EV_ISSUE:
        fprintf(f, "w%u pc %u mask 0x%08x ptx:%u", e->u.issue.warp, e->u.issue.pc, e->u.issue.mask,
                e->u.issue.ptx_line);
        if (e->u.issue.file != TRACE_NONE)
            fprintf(f, " %s:%u", trace_string(r, e->u.issue.file), e->u.issue.line);
        break;
    case TRACE_EV_MEM:
        fprintf(f, "w%u pc %u %s.%s %uB mask 0x%08x", e->u.mem.warp, e->u.mem.pc,
                trace_mem_kind_name(e->u.mem.kind), trace_space_name(e->u.mem.space), e->u.mem.size,
                e->u.mem.mask);
        if (e->u.mem.form == TRACE_ADDR_STRIDE) {
            fprintf(f, " base 0x%" PRIx64 " stride %" PRId64, e->u.mem.base, e->u.mem.stride);
        } else {
            fprintf(f, " addrs");
            for (uint32_t q = e->u.mem.mask; q; q &= q - 1)
                fprintf(f, " 0x%" PRIx64, e->u.mem.addr[__builtin_ctz(q)]);
        }
        if (e->u.mem.conflict)
            fprintf(f, " conflict %u-way", e->u.mem.conflict);
        break;
    case TRACE_EV_ATOMIC:
        fprintf(f, "w%u lane %u pc %u atom.%s.%s %uB [0x%" PRIx64 "] 0x%" PRIx64 " -> 0x%" PRIx64
                   " order %" PRIu64, e->u.atom.warp, e->u.atom.lane, e->u.atom.pc,
                trace_atom_op_name(e->u.atom.op), trace_space_name(e->u.atom.space), e->u.atom.size,
                e->u.atom.addr, e->u.atom.old, e->u.atom.val, e->u.atom.order);
        break;
    case TRACE_EV_BAR_ARRIVE:
        fprintf(f, "w%u bar %u mask 0x%08x arrived %u", e->u.arrive.warp, e->u.arrive.id, e->u.arrive.mask,
                e->u.arrive.arrived);
        break;
    case TRACE_EV_BAR_RELEASE:
        fprintf(f, "bar %u released %u threads", e->u.release.id, e->u.release.released);
        break;
    case TRACE_EV_COLLECTIVE: {
        const char *m = coll_mode(e->u.coll.kind, e->u.coll.mode);
        fprintf(f, "w%u pc %u %s%s%s mask 0x%08x members 0x%08x", e->u.coll.warp, e->u.coll.pc,
                trace_coll_name(e->u.coll.kind), *m ? "." : "", m, e->u.coll.mask, e->u.coll.member);
        break;
    }
    case TRACE_EV_FAULT:
        if (e->u.fault.warp != TRACE_NONE)
            fprintf(f, "w%u ", e->u.fault.warp);
        if (e->u.fault.lane != TRACE_NONE)
            fprintf(f, "lane %u ", e->u.fault.lane);
        if (e->u.fault.pc != TRACE_NONE)
            fprintf(f, "pc %u ", e->u.fault.pc);
        put_text(f, e->u.fault.kind, e->u.fault.kind_len);
        if (e->u.fault.addr)
            fprintf(f, " at 0x%" PRIx64, e->u.fault.addr);
        fprintf(f, ": ");
        put_text(f, e->u.fault.msg, e->u.fault.msg_len);
        break;
    case TRACE_EV_RACE:
        fprintf(f, "w%u lane %u pc %u with w%u lane %u on %s 0x%" PRIx64 ": ", e->u.race.warp, e->u.race.lane,
                e->u.race.pc, e->u.race.other_warp, e->u.race.other_lane, trace_space_name(e->u.race.space),
                e->u.race.addr);
        put_text(f, e->u.race.msg, e->u.race.msg_len);
        break;
    case TRACE_EV_WARP_STATE: {
        uint64_t total = 0;
        for (uint32_t i = 0; i < e->u.states.n; i++)
            total += e->u.states.cycles[i];
        fprintf(f, "w%u cycles %" PRIu64 "..%" PRIu64 ":", e->u.states.warp, e->cycle + 1 - total, e->cycle);
        for (uint32_t i = 0; i < e->u.states.n; i++)
            fprintf(f, "%s %s %u", i ? "," : "", trace_state_name(e->u.states.state[i]), e->u.states.cycles[i]);
        break;
    }
    case TRACE_EV_TILE: {
        char line[256];
        fputs(trace_tile_summary(e, line, sizeof line), f);
        tile_elements(f, e);
        break;
    }
    default:
        fprintf(f, "type 0x%02x, %u bytes (a later format; skipped)", e->u.unknown.code, e->u.unknown.len);
        break;
    }
}

/* The trace's warp-cycles per state, most first (the dump's last lines). */
static void state_totals(FILE *f, TraceReader *r)
{
    uint64_t sum[TRACE_STATE_COUNT] = {0}, all = 0;
    TraceEvent e;
    trace_rewind(r);
    while (trace_next(r, &e))
        if (e.type == TRACE_EV_WARP_STATE)
            for (uint32_t i = 0; i < e.u.states.n; i++) {
                sum[e.u.states.state[i]] += e.u.states.cycles[i];
                all += e.u.states.cycles[i];
            }
    fprintf(f, "warp states: %" PRIu64 " warp-cycles\n", all);
    bool done[TRACE_STATE_COUNT] = {false};
    for (int k = 0; k < TRACE_STATE_COUNT && all; k++) {
        int best = -1;
        for (int s = 0; s < TRACE_STATE_COUNT; s++)
            if (!done[s] && sum[s] && (best < 0 || sum[s] > sum[best]))
                best = s;
        if (best < 0)
            break;
        done[best] = true;
        fprintf(f, "  %-20s %14" PRIu64 "  %5.1f%%\n", trace_state_name(best), sum[best],
                100.0 * (double)sum[best] / (double)all);
    }
}

void trace_dump_text(FILE *f, TraceReader *r)
{
    trace_rewind(r);
    const TraceLaunch *l = trace_launch(r);
    fprintf(f, "warpsim trace v%u: %s on %s, level %s%s\n", trace_version(r), trace_string(r, l->kernel),
           trace_string(r, l->arch), trace_level_name(l->level),
           (l->flags & TRACE_FLAG_STATES) ? ", warp states (modelled cycles)" : "");
    fprintf(f, "grid %ux%ux%u  block %ux%ux%u  smem %u dynamic + %u static  regs ", l->grid[0], l->grid[1],
           l->grid[2], l->block[0], l->block[1], l->block[2], l->dyn_smem, l->static_smem);
    if (l->regs == TRACE_NONE)
        fprintf(f, "?");
    else
        fprintf(f, "%u", l->regs);
    fprintf(f, " (PTX %u)  %u SMs\n", l->ptx_regs, l->sm_count);
    fprintf(f, "strings:");
    for (uint32_t i = 0; i < trace_nstrings(r); i++)
        fprintf(f, " %u=\"%s\"", i, trace_string(r, i));
    fprintf(f, "\n%" PRIu64 " events, %" PRIu64 " cycles, %s, %zu bytes\n", trace_nevents(r), trace_end_cycle(r),
           trace_end_status(r) ? "faulted" : "ran clean", trace_size(r));
    fprintf(f, "%12s %8s  %-11s\n", "cycle", "block", "event");
    TraceEvent e;
    while (trace_next(r, &e)) {
        fprintf(f, "%12" PRIu64 " %8" PRIu64 "  %-11s ", e.cycle, e.block, trace_event_name(e.type));
        event_details(f, r, &e);
        fprintf(f, "\n");
    }
    if (l->flags & TRACE_FLAG_STATES)
        state_totals(f, r);
}

/* ---- Perfetto / Chrome trace-event JSON ---------------------------------------- */
static void json_str(FILE *f, const char *s, uint32_t n)
{
    fputc('"', f);
    for (uint32_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

typedef struct {
    FILE *f;
    bool first;
    uint8_t *sm_named;         /* per SM: 1 when its metadata was written */
    uint64_t *warp_named;      /* per SM: bit w when warp w's thread was named (w < 64) */
} Json;

static void json_sep(Json *j)
{
    fprintf(j->f, j->first ? "\n" : ",\n");
    j->first = false;
}

/* Name process `sm` and its thread tid (0: blocks, 1 + w: warp w) once. */
static void json_name(Json *j, uint32_t sm, uint32_t tid)
{
    if (!j->sm_named[sm]) {
        j->sm_named[sm] = 1;
        json_sep(j);
        fprintf(j->f, "{\"ph\": \"M\", \"pid\": %u, \"name\": \"process_name\", \"args\": {\"name\": \"SM %u\"}}",
                sm, sm);
        json_sep(j);
        fprintf(j->f, "{\"ph\": \"M\", \"pid\": %u, \"name\": \"process_sort_index\", \"args\": "
                      "{\"sort_index\": %u}}", sm, sm);
        json_sep(j);
        fprintf(j->f, "{\"ph\": \"M\", \"pid\": %u, \"tid\": 0, \"name\": \"thread_name\", \"args\": "
                      "{\"name\": \"blocks\"}}", sm);
    }
    if (tid > 0 && tid <= 64 && !(j->warp_named[sm] >> (tid - 1) & 1)) {
        j->warp_named[sm] |= 1ull << (tid - 1);
        json_sep(j);
        fprintf(j->f, "{\"ph\": \"M\", \"pid\": %u, \"tid\": %u, \"name\": \"thread_name\", \"args\": "
                      "{\"name\": \"warp %u\"}}", sm, tid, tid - 1);
    }
}

SimStatus trace_export_perfetto(FILE *f, TraceReader *r, SimError *err)
{
    trace_rewind(r);
    const TraceLaunch *l = trace_launch(r);
    Json j = {f, true, calloc(l->sm_count, 1), calloc(l->sm_count, sizeof(uint64_t))};
    /* many blocks are resident at once: pair each retire with its block's dispatch */
    size_t nopen = 0, capopen = 16;
    struct Open { uint64_t block, start; uint32_t sm; } *open = malloc(capopen * sizeof *open);
    if (!j.sm_named || !j.warp_named || !open) {
        free(j.sm_named);
        free(j.warp_named);
        free(open);
        return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    fprintf(f, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"kernel\": ");
    const char *k = trace_string(r, l->kernel), *a = trace_string(r, l->arch);
    json_str(f, k, (uint32_t)strlen(k));
    fprintf(f, ", \"arch\": ");
    json_str(f, a, (uint32_t)strlen(a));
    fprintf(f, ", \"level\": \"%s\", \"clock\": \"1 us = 1 warp-instruction cycle\"}, \"traceEvents\": [",
            trace_level_name(l->level));
    TraceEvent e;
    uint64_t gx = l->grid[0], gy = l->grid[1];
    while (trace_next(r, &e)) {
        uint32_t sm = (uint32_t)(e.block % l->sm_count);
        if (e.type == TRACE_EV_BLOCK_DISPATCH || e.type == TRACE_EV_BLOCK_RETIRE)
            sm = e.u.blk.sm;
        switch (e.type) {
        case TRACE_EV_BLOCK_DISPATCH:
            if (nopen == capopen) {
                struct Open *n = realloc(open, 2 * capopen * sizeof *open);
                if (!n)
                    break;
                open = n;
                capopen *= 2;
            }
            open[nopen++] = (struct Open){e.block, e.cycle, sm};
            break;
        case TRACE_EV_BLOCK_RETIRE:
            for (size_t i = 0; i < nopen; i++)
                if (open[i].block == e.block) {
                    json_name(&j, open[i].sm, 0);
                    json_sep(&j);
                    fprintf(f, "{\"name\": \"block %" PRIu64 " (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")\", "
                               "\"ph\": \"X\", \"pid\": %u, \"tid\": 0, \"ts\": %" PRIu64 ", \"dur\": %" PRIu64
                               ", \"args\": {\"block\": %" PRIu64 "}}", e.block, e.block % gx, e.block / gx % gy,
                            e.block / gx / gy, open[i].sm, open[i].start, e.cycle - open[i].start, e.block);
                    open[i] = open[--nopen];
                    break;
                }
            break;
        case TRACE_EV_WARP_TURN:
            json_name(&j, sm, 1 + e.u.turn.warp);
            json_sep(&j);
            fprintf(f, "{\"name\": \"block %" PRIu64 " warp %u\", \"ph\": \"X\", \"pid\": %u, \"tid\": %u, \"ts\": %"
                       PRIu64 ", \"dur\": %u}", e.block, e.u.turn.warp, sm, 1 + e.u.turn.warp,
                    e.cycle - e.u.turn.count, e.u.turn.count);
            break;
        case TRACE_EV_BAR_RELEASE:
            json_name(&j, sm, 0);
            json_sep(&j);
            fprintf(f, "{\"name\": \"barrier %u release\", \"ph\": \"i\", \"s\": \"t\", \"pid\": %u, \"tid\": 0, "
                       "\"ts\": %" PRIu64 ", \"args\": {\"block\": %" PRIu64 ", \"threads\": %u}}", e.u.release.id,
                    sm, e.cycle, e.block, e.u.release.released);
            break;
        case TRACE_EV_FAULT:
        case TRACE_EV_RACE: {
            uint32_t w = e.type == TRACE_EV_FAULT ? e.u.fault.warp : e.u.race.warp;
            uint32_t tid = w == TRACE_NONE ? 0 : 1 + w;
            json_name(&j, sm, tid);
            json_sep(&j);
            fprintf(f, "{\"name\": ");
            if (e.type == TRACE_EV_FAULT)
                json_str(f, e.u.fault.kind, e.u.fault.kind_len);
            else
                fprintf(f, "\"race\"");
            fprintf(f, ", \"ph\": \"i\", \"s\": \"g\", \"pid\": %u, \"tid\": %u, \"ts\": %" PRIu64
                       ", \"args\": {\"block\": %" PRIu64 ", \"message\": ", sm, tid, e.cycle, e.block);
            if (e.type == TRACE_EV_FAULT)
                json_str(f, e.u.fault.msg, e.u.fault.msg_len);
            else
                json_str(f, e.u.race.msg, e.u.race.msg_len);
            fprintf(f, "}}");
            break;
        }
        case TRACE_EV_ISSUE:
        case TRACE_EV_MEM:
        case TRACE_EV_ATOMIC:
        case TRACE_EV_BAR_ARRIVE:
        case TRACE_EV_COLLECTIVE: {
            uint32_t w = e.type == TRACE_EV_ISSUE ? e.u.issue.warp : e.type == TRACE_EV_MEM ? e.u.mem.warp
                       : e.type == TRACE_EV_ATOMIC ? e.u.atom.warp : e.type == TRACE_EV_BAR_ARRIVE ? e.u.arrive.warp
                       : e.u.coll.warp;
            json_name(&j, sm, 1 + w);
            json_sep(&j);
            char name[64];
            if (e.type == TRACE_EV_ISSUE)
                snprintf(name, sizeof name, "pc %u mask 0x%08x", e.u.issue.pc, e.u.issue.mask);
            else if (e.type == TRACE_EV_MEM)
                snprintf(name, sizeof name, "%s.%s", trace_mem_kind_name(e.u.mem.kind),
                         trace_space_name(e.u.mem.space));
            else if (e.type == TRACE_EV_ATOMIC)
                snprintf(name, sizeof name, "atom.%s #%" PRIu64, trace_atom_op_name(e.u.atom.op), e.u.atom.order);
            else if (e.type == TRACE_EV_BAR_ARRIVE)
                snprintf(name, sizeof name, "barrier %u arrive", e.u.arrive.id);
            else
                snprintf(name, sizeof name, "%s", trace_coll_name(e.u.coll.kind));
            fprintf(f, "{\"name\": \"%s\", \"ph\": \"i\", \"s\": \"t\", \"pid\": %u, \"tid\": %u, \"ts\": %" PRIu64
                       ", \"args\": {\"block\": %" PRIu64, name, sm, 1 + w, e.cycle, e.block);
            if (e.type == TRACE_EV_ISSUE && e.u.issue.file != TRACE_NONE) {
                const char *s = trace_string(r, e.u.issue.file);
                fprintf(f, ", \"source\": ");
                json_str(f, s, (uint32_t)strlen(s));
                fprintf(f, ", \"line\": %u", e.u.issue.line);
            } else if (e.type == TRACE_EV_MEM) {
                fprintf(f, ", \"mask\": %u, \"bytes\": %u, \"conflict\": %u", e.u.mem.mask, e.u.mem.size,
                        e.u.mem.conflict);
            } else if (e.type == TRACE_EV_ATOMIC) {
                fprintf(f, ", \"lane\": %u, \"addr\": \"0x%" PRIx64 "\", \"old\": \"0x%" PRIx64 "\", \"new\": \"0x%"
                           PRIx64 "\"", e.u.atom.lane, e.u.atom.addr, e.u.atom.old, e.u.atom.val);
            }
            fprintf(f, "}}");
            break;
        }
        default:
            break;
        }
    }
    /* blocks still running at the end (a fault): close them at the last cycle */
    for (size_t i = 0; i < nopen; i++) {
        json_name(&j, open[i].sm, 0);
        json_sep(&j);
        fprintf(f, "{\"name\": \"block %" PRIu64 " (unfinished)\", \"ph\": \"X\", \"pid\": %u, \"tid\": 0, \"ts\": %"
                   PRIu64 ", \"dur\": %" PRIu64 "}", open[i].block, open[i].sm, open[i].start,
                trace_end_cycle(r) - open[i].start);
    }
    fprintf(f, "\n]}\n");
    free(j.sm_named);
    free(j.warp_named);
    free(open);
    if (ferror(f))
        return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, "writing the JSON failed");
    return SIM_OK;
}
