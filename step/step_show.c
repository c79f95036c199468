/* step_show.c: what the stepper shows of the paused machine -- `where`
 * (the .cu line with its neighbours, read from the .cu file when it can be
 * found, the PTX instruction, the 32 lanes), `info` on warps, lanes,
 * blocks, SMs, barriers, breakpoints and registers, and the line shown at
 * every stop.  It calls only step_core.c. */
#include "step_int.h"

#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "source.h"

/* ---- .cu source ------------------------------------------------------------------ */

/* --timing: "issuing", "eligible (ready to issue)" or "stalled:
 * long_scoreboard" for warp w of the focus block (the model's accounting at
 * this cycle, Nsight Compute's names): true, or false with "" when
 * the launch is untimed or the warp is not resident or has exited. */
static bool timing_state(Stepper *s, int w, char *buf, size_t cap)
{
    buf[0] = 0;
    int st = view_warp_timing(s->v, s->fblock, w, NULL);
    if (st < 0)
        return false;
    if (st == DEVICE_STALL_SELECTED)
        snprintf(buf, cap, "issuing");
    else if (st == DEVICE_STALL_NOT_SELECTED) /* not_selected once its scheduler picks another */
        snprintf(buf, cap, "eligible (ready to issue)");
    else
        snprintf(buf, cap, "stalled: %s", device_stall_name(st));
    return true;
}

/* Where a .cu named in the PTX may be: as written (relative to here), next
 * to the PTX under the same relative path's last part, or next to it. */
static char *find_source(const Stepper *s, const char *name, size_t *len)
{
    char msg[256], path[1024];
    char *text = source_read_file(name, len, msg, sizeof msg);
    if (text || name[0] == '/')
        return text;
    const char *pp = s->cfg.ptx_path;
    const char *slash = strrchr(pp, '/');
    int dl = slash ? (int)(slash - pp) : 0;
    snprintf(path, sizeof path, "%.*s%s%s", dl, pp, slash ? "/" : "", step_basename(name));
    return source_read_file(path, len, msg, sizeof msg);
}

const char *step_source_line(Stepper *s, const char *file, int line)
{
    if (!file || !*file || line <= 0)
        return NULL;
    StepSource *src = NULL;
    for (int i = 0; i < s->nsrc; i++)
        if (!strcmp(s->src[i].path, file))
            src = &s->src[i];
    if (!src) {
        if (s->nsrc == (int)(sizeof s->src / sizeof *s->src))
            return NULL;
        src = &s->src[s->nsrc];
        memset(src, 0, sizeof *src);
        if (!(src->path = strdup(file)))
            return NULL;
        s->nsrc++;
        size_t len;
        src->text = find_source(s, file, &len);
        if (src->text) {
            int n = 1;
            for (size_t i = 0; i < len; i++)
                n += src->text[i] == '\n';
            src->lines = malloc((size_t)n * sizeof *src->lines);
            if (!src->lines) {
                free(src->text);
                src->text = NULL;
                return NULL;
            }
            char *p = src->text;
            for (int i = 0; i < n && p; i++) {
                src->lines[src->nlines++] = p;
                char *nl = strchr(p, '\n');
                if (nl)
                    *nl = 0;
                p = nl ? nl + 1 : NULL;
            }
            for (int i = 0; i < src->nlines; i++) { /* tabs and CRs would break the layout */
                for (char *c = src->lines[i]; *c; c++)
                    if (*c == '\t' || *c == '\r')
                        *c = ' ';
            }
        }
    }
    return src->text && line <= src->nlines ? src->lines[line - 1] : NULL;
}

void step_source_free(Stepper *s)
{
    for (int i = 0; i < s->nsrc; i++) {
        free(s->src[i].path);
        free(s->src[i].text);
        free(s->src[i].lines);
    }
    s->nsrc = 0;
}

/* ---- stops --------------------------------------------------------------------------- */

void step_show_stop(Stepper *s, const char *why)
{
    FILE *o = s->cfg.out;
    if (why)
        fprintf(o, "%s\n", why);
    int sm = -1;
    step_block_resident(s, s->fblock, &sm);
    fprintf(o, "[block %llu warp %d", (unsigned long long)s->fblock, s->fwarp);
    if (sm >= 0)
        fprintf(o, ", SM %d", sm);
    uint64_t cyc = view_cycle(s->v);
    if (view_timed(s->v)) { /* --timing: modelled time, and what the focus warp does in it */
        char st[64];
        bool known = timing_state(s, s->fwarp, st, sizeof st);
        fprintf(o, ", modelled cycle %llu%s%s] ", (unsigned long long)cyc, known ? ", " : "", st);
    } else {
        fprintf(o, ", cycle %llu] ", (unsigned long long)cyc);
    }
    /* A clock that reads less than one shown before is another SM's: say
     * why once, rather than let time seem to run backwards. */
    bool behind = cyc < s->latest_cycle && !s->told_slices;
    uint64_t was = s->latest_cycle;
    int was_sm = s->latest_sm;
    if (cyc >= s->latest_cycle) {
        s->latest_cycle = cyc;
        s->latest_sm = sm;
    }
    uint32_t mask;
    int32_t pc = step_focus_pc(s, &mask);
    if (pc < 0) {
        fprintf(o, "%s\n", step_block_finished(s, s->fblock) ? "this block has finished"
                           : step_focus_alive(s) || !step_block_resident(s, s->fblock, NULL)
                               ? "this block has not started yet" : "every lane of this warp has exited");
        goto clock;
    }
    char text[256], sq[256];
    const char *file;
    int ptx_line, line;
    view_inst(s->v, pc, text, sizeof text, &ptx_line, &file, &line);
    step_squeeze(sq, sizeof sq, text);
    if (line)
        fprintf(o, "%s:%d  ", step_basename(file), line);
    fprintf(o, "%s", sq);
    if (!mask)
        fprintf(o, "  (waiting: info lanes says why)");
    else if (mask != 0xffffffffu)
        fprintf(o, "  (%d lanes)", __builtin_popcount(mask));
    fprintf(o, "\n");
    const char *src = line ? step_source_line(s, file, line) : NULL;
    if (src)
        fprintf(o, "%6d  %s\n", line, src);
    char tile[320];
    if (step_tile_describe(s, pc, tile, sizeof tile))
        fprintf(o, "        %s\n", tile);
clock:
    if (behind) {
        s->told_slices = true;
        fprintf(o, "(the cycle is the clock of the SM that issues now; SMs are simulated in turn, a slice of\n"
                   " cycles of one, then the same cycles of the next, so SM %d has already reached cycle %llu)\n",
                   was_sm, (unsigned long long)was);
    }
}

/* ---- lanes ------------------------------------------------------------------------- */

/* The instruction's guard ("@%p1" / "@!%p1"), if any, into name. */
static bool guard_of(const char *text, char *name, size_t cap, bool *neg)
{
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text != '@')
        return false;
    text++;
    *neg = *text == '!';
    if (*neg)
        text++;
    size_t n = strcspn(text, " \t");
    snprintf(name, cap, "%.*s", (int)n, text);
    return true;
}

void step_lane_marks(Stepper *s, uint64_t block, int warp, char marks[33])
{
    memset(marks, ' ', 32);
    marks[32] = 0;
    ViewWarp vw;
    if (!view_warp(s->v, block, warp, &vw))
        return;
    int32_t pc;
    uint32_t next = 0, off = 0;
    if (view_next(s->v, block, warp, &pc, &next)) {
        char text[256], g[64];
        bool neg;
        if (view_inst(s->v, pc, text, sizeof text, NULL, NULL, NULL) && guard_of(text, g, sizeof g, &neg))
            for (int l = 0; l < 32; l++) {
                uint64_t v;
                bool p;
                if ((next >> l & 1) && view_reg(s->v, block, warp, l, g, &v, &p) && p && (v != 0) == neg)
                    off |= 1u << l;
            }
    }
    for (int l = 0; l < 32; l++) {
        uint32_t b = 1u << l;
        marks[l] = !(vw.present & b) ? ' ' : (vw.exited & b) ? 'x' : (off & b) ? '-' : (next & b) ? '#'
                 : (vw.at_barrier & b) ? 'b' : (vw.at_warp_sync & b) ? 'w' : '.';
    }
}

/* One word for a warp's state. */
static const char *warp_state(const ViewWarp *vw, bool issuing)
{
    uint32_t live = vw->present & ~vw->exited;
    if (!live)
        return "exited";
    if (issuing)
        return "issuing now";
    if (vw->active)
        return vw->at_barrier || vw->at_warp_sync ? "ready (part waits)" : "ready";
    if (vw->at_barrier)
        return "at a barrier";
    if (vw->at_warp_sync)
        return "at a warp sync";
    return "stalled";
}

static void print_block_head(Stepper *s, uint64_t b)
{
    DeviceDim3 g = s->cfg.spec->grid;
    fprintf(s->cfg.out, "block %llu", (unsigned long long)b);
    if (g.y > 1 || g.z > 1)
        fprintf(s->cfg.out, " (%llu,%llu,%llu)", (unsigned long long)(b % g.x), (unsigned long long)(b / g.x % g.y),
                (unsigned long long)(b / g.x / g.y));
}

void step_show_where(Stepper *s)
{
    FILE *o = s->cfg.out;
    int sm = -1;
    bool res = step_block_resident(s, s->fblock, &sm);
    DeviceDim3 t = step_thread_of(s, s->fwarp, s->flane);
    print_block_head(s, s->fblock);
    fprintf(o, " warp %d lane %d (thread %u,%u,%u)", s->fwarp, s->flane, t.x, t.y, t.z);
    if (!res) {
        fprintf(o, ": the block %s\n", step_block_finished(s, s->fblock) ? "has finished" : "has not started yet");
        return;
    }
    fprintf(o, " on SM %d, %scycle %llu, %llu warp instructions issued so far\n", sm,
            view_timed(s->v) ? "modelled " : "", (unsigned long long)view_cycle(s->v),
            (unsigned long long)view_warp_insts(s->v));
    char st[64];
    if (timing_state(s, s->fwarp, st, sizeof st))
        fprintf(o, "this warp is %s (the timing model, this cycle)\n", st);
    uint32_t mask;
    int32_t pc = step_focus_pc(s, &mask);
    if (pc < 0) {
        fprintf(o, "every lane of this warp has exited\n");
        return;
    }
    char text[256];
    const char *file;
    int ptx_line, line;
    view_inst(s->v, pc, text, sizeof text, &ptx_line, &file, &line);
    if (line) {
        fprintf(o, "%s:%d in %s\n", file, line, view_kernel(s->v));
        if (step_source_line(s, file, line)) {
            for (int l = line - 2; l <= line + 2; l++) {
                const char *src = l > 0 ? step_source_line(s, file, l) : NULL;
                if (src)
                    fprintf(o, "%s %4d  %s\n", l == line ? "=>" : "  ", l, src);
            }
        } else {
            fprintf(o, "   (%s not found: run from the folder the PTX names it from)\n", file);
        }
    } else {
        fprintf(o, "no .cu line for this instruction (compile with -lineinfo)\n");
    }
    char sq[256];
    step_squeeze(sq, sizeof sq, text);
    fprintf(o, "ptx line %d (pc %d): %s\n", ptx_line, pc, sq);
    char marks[33];
    step_lane_marks(s, s->fblock, s->fwarp, marks);
    int issue = 0, off = 0;
    for (int l = 0; l < 32; l++)
        issue += marks[l] == '#', off += marks[l] == '-';
    fprintf(o, "lane    0       8       16      24     31\n");
    fprintf(o, "mask   [%s]  %d lane%s issue%s", marks, issue + off, issue + off == 1 ? "" : "s",
            issue + off == 1 ? "s" : "");
    if (off)
        fprintf(o, ", %d of them predicated off", off);
    fprintf(o, "\n       # issues  - predicated off  . elsewhere  b barrier  w warp sync  x exited\n");
}

/* ---- info ---------------------------------------------------------------------------- */

static void info_warps(Stepper *s)
{
    FILE *o = s->cfg.out;
    int sm = -1;
    if (!step_block_resident(s, s->fblock, &sm)) {
        print_block_head(s, s->fblock);
        fprintf(o, " is not resident (it %s)\n",
                step_block_finished(s, s->fblock) ? "has finished" : "has not started yet");
        return;
    }
    print_block_head(s, s->fblock);
    fprintf(o, " on SM %d: %d warps  (* focus, > about to issue)\n", sm, view_warps_per_block(s->v));
    bool timed = view_timed(s->v);
    if (timed) /* --timing: each warp's state in modelled time, Nsight Compute's names */
        fprintf(o, "   warp  state               timing                       lanes  pc    line          instruction\n");
    else
        fprintf(o, "   warp  state               lanes  pc    line          instruction\n");
    for (int w = 0; w < view_warps_per_block(s->v); w++) {
        ViewWarp vw;
        if (!view_warp(s->v, s->fblock, w, &vw))
            continue;
        bool cur = s->fblock == s->cur_block && w == s->cur_warp;
        uint32_t m = 0;
        int32_t pc;
        bool nx = view_next(s->v, s->fblock, w, &pc, &m);
        if (!nx) {
            pc = -1;
            for (int l = 0; l < 32 && pc < 0; l++)
                pc = step_lane_pc(&vw, l);
        }
        char text[256] = "", loc[64] = "";
        const char *file;
        int line = 0;
        if (pc >= 0 && view_inst(s->v, pc, text, sizeof text, NULL, &file, &line) && line)
            snprintf(loc, sizeof loc, "%s:%d", step_basename(file), line);
        char sq[256];
        step_squeeze(sq, sizeof sq, text);
        fprintf(o, " %c%c %-4d  %-18s  ", w == s->fwarp ? '*' : ' ', cur ? '>' : ' ', w, warp_state(&vw, cur));
        if (timed) {
            char st[64];
            fprintf(o, "%-27s  ", timing_state(s, w, st, sizeof st) ? st : "-");
        }
        fprintf(o, "%-5d  ", __builtin_popcount(vw.present & ~vw.exited));
        if (pc >= 0)
            fprintf(o, "%-5d %-13s %.60s\n", pc, loc, sq);
        else
            fprintf(o, "-\n");
    }
}

static void info_lanes(Stepper *s)
{
    FILE *o = s->cfg.out;
    ViewWarp vw;
    if (!view_warp(s->v, s->fblock, s->fwarp, &vw)) {
        fprintf(o, "block %llu is not resident (it %s)\n", (unsigned long long)s->fblock,
                step_block_finished(s, s->fblock) ? "has finished" : "has not started yet");
        return;
    }
    char marks[33];
    step_lane_marks(s, s->fblock, s->fwarp, marks);
    fprintf(o, "block %llu warp %d, lanes grouped by state and pc:\n", (unsigned long long)s->fblock, s->fwarp);
    uint32_t done = 0;
    for (int l = 0; l < 32; l++) {
        if ((done >> l & 1) || marks[l] == ' ')
            continue;
        uint32_t g = 0;
        for (int k = l; k < 32; k++)
            if (marks[k] == marks[l] && step_lane_pc(&vw, k) == step_lane_pc(&vw, l))
                g |= 1u << k;
        done |= g;
        int first = l, last = 31 - __builtin_clz(g);
        DeviceDim3 t0 = step_thread_of(s, s->fwarp, first), t1 = step_thread_of(s, s->fwarp, last);
        static const char *const what[] = {"#issues next", "-predicated off", ".ready, elsewhere",
                                           "bat a barrier", "wat a warp sync", "xexited"};
        const char *st = "?";
        for (size_t i = 0; i < sizeof what / sizeof *what; i++)
            if (what[i][0] == marks[l])
                st = what[i] + 1;
        char lanes[96];
        int n = __builtin_popcount(g);
        if (n == last - first + 1)
            snprintf(lanes, sizeof lanes, n > 1 ? "%d-%d" : "%d", first, last);
        else
            snprintf(lanes, sizeof lanes, "%d..%d (%d)", first, last, n);
        fprintf(o, "  lane%s %-12s threads (%u,%u,%u)..(%u,%u,%u)  %-16s", n > 1 ? "s" : " ", lanes, t0.x, t0.y,
                t0.z, t1.x, t1.y, t1.z, st);
        if (marks[l] == 'b')
            fprintf(o, " barrier %d", vw.barrier[l]);
        const char *file;
        int line;
        int32_t lpc = step_lane_pc(&vw, l);
        if (lpc >= 0 && view_inst(s->v, lpc, NULL, 0, NULL, &file, &line)) {
            fprintf(o, " pc %d", lpc);
            if (line)
                fprintf(o, " %s:%d", step_basename(file), line);
        }
        fprintf(o, "\n");
    }
}

static void block_summary(Stepper *s, uint64_t b, char *buf, size_t cap)
{
    int nw = view_warps_per_block(s->v), exited = 0, bar = 0, ready = 0;
    for (int w = 0; w < nw; w++) {
        ViewWarp vw;
        if (!view_warp(s->v, b, w, &vw))
            continue;
        if (!(vw.present & ~vw.exited))
            exited++;
        else if (vw.active)
            ready++;
        else if (vw.at_barrier)
            bar++;
    }
    snprintf(buf, cap, "%d ready, %d at a barrier, %d exited, %d other", ready, bar, exited,
             nw - ready - bar - exited);
}

static void info_blocks(Stepper *s, bool by_sm)
{
    FILE *o = s->cfg.out;
    int n = view_resident_count(s->v), nsm = view_sm_count(s->v);
    uint64_t total = view_grid_blocks(s->v), done = view_blocks_done(s->v);
    fprintf(o, "%d blocks resident on %d SMs, %llu finished, %llu not started (grid of %llu)\n", n, nsm,
            (unsigned long long)done, (unsigned long long)(total - done - (uint64_t)n), (unsigned long long)total);
    if (!by_sm) {
        for (int i = 0; i < n; i++) {
            uint64_t b;
            int sm;
            char sum[128];
            if (!view_resident(s->v, i, &b, NULL, &sm))
                continue;
            block_summary(s, b, sum, sizeof sum);
            fprintf(o, " %c ", b == s->fblock ? '*' : ' ');
            print_block_head(s, b);
            fprintf(o, "  SM %-3d warps: %s\n", sm, sum);
        }
        return;
    }
    int *per = calloc((size_t)nsm, sizeof *per);
    if (!per)
        return;
    for (int i = 0; i < n; i++) {
        int sm;
        if (view_resident(s->v, i, NULL, NULL, &sm) && sm >= 0 && sm < nsm)
            per[sm]++;
    }
    const ArchProfile *ap = arch_find(s->cfg.arch);
    int maxw = ap ? ap->max_warps_per_sm : 0, wpb = view_warps_per_block(s->v), fsm = -1;
    step_block_resident(s, s->fblock, &fsm);
    for (int sm = 0; sm < nsm;) { /* runs of SMs holding as many blocks */
        int e = sm;
        while (e + 1 < nsm && per[e + 1] == per[sm])
            e++;
        char r[32];
        snprintf(r, sizeof r, e > sm ? "SMs %d-%d" : "SM %d", sm, e);
        fprintf(o, "  %-11s %d block%s%s", r, per[sm], per[sm] == 1 ? "" : "s", e > sm ? " each" : "");
        if (per[sm] && maxw)
            fprintf(o, ", %d of %d warps (%.4g%% occupancy)", per[sm] * wpb, maxw, 100.0 * per[sm] * wpb / maxw);
        fprintf(o, "\n");
        sm = e + 1;
    }
    for (int sm = 0; sm < nsm; sm++) {
        if (!per[sm] || (nsm > 8 && sm != fsm))
            continue;
        fprintf(o, "  SM %d holds block%s", sm, per[sm] > 1 ? "s" : "");
        for (int i = 0; i < n; i++) {
            uint64_t b;
            int where;
            if (view_resident(s->v, i, &b, NULL, &where) && where == sm)
                fprintf(o, " %llu", (unsigned long long)b);
        }
        fprintf(o, "%s\n", sm == fsm ? " (the focus block's SM)" : "");
    }
    free(per);
}

static void info_barriers(Stepper *s)
{
    FILE *o = s->cfg.out;
    if (!step_block_resident(s, s->fblock, NULL)) {
        fprintf(o, "block %llu is not resident\n", (unsigned long long)s->fblock);
        return;
    }
    int nw = view_warps_per_block(s->v), any = 0, exited = 0;
    for (int w = 0; w < nw; w++) {
        ViewWarp vw;
        if (view_warp(s->v, s->fblock, w, &vw))
            exited += __builtin_popcount(vw.exited & vw.present);
    }
    for (int id = 0; id < 16; id++) {
        uint32_t arrived = view_barrier_arrived(s->v, s->fblock, id);
        if (!arrived)
            continue;
        any++;
        fprintf(o, "barrier %d of block %llu: %u of %d threads arrived (%d exited); waiting:", id,
                (unsigned long long)s->fblock, arrived, view_threads_per_block(s->v) - exited, exited);
        for (int w = 0; w < nw; w++) {
            ViewWarp vw;
            if (!view_warp(s->v, s->fblock, w, &vw) || !vw.at_barrier)
                continue;
            uint32_t m = 0;
            for (int l = 0; l < 32; l++)
                if ((vw.at_barrier >> l & 1) && vw.barrier[l] == id)
                    m |= 1u << l;
            if (m)
                fprintf(o, " w%d%s", w, m == (vw.present & ~vw.exited) ? "" : "(part)");
        }
        fprintf(o, "\n");
    }
    if (!any)
        fprintf(o, "no thread of block %llu waits at a barrier\n", (unsigned long long)s->fblock);
}

static void info_breakpoints(Stepper *s)
{
    int n = 0;
    for (int i = 0; i < s->nbreaks; i++) {
        const StepBreak *b = &s->breaks[i];
        if (!b->live)
            continue;
        fprintf(s->cfg.out, "breakpoint %d at %s:%d, hit %llu time%s\n", b->id, step_basename(b->file), b->line,
                (unsigned long long)b->hits, b->hits == 1 ? "" : "s");
        n++;
    }
    if (!n)
        fprintf(s->cfg.out, "no breakpoints (break LINE sets one)\n");
}

static void info_registers(Stepper *s)
{
    const char *names[512];
    int n = view_regs(s->v, s->fblock, s->fwarp, s->flane, names, 512);
    if (!n) {
        fprintf(s->cfg.out, "block %llu warp %d is not resident\n", (unsigned long long)s->fblock, s->fwarp);
        return;
    }
    fprintf(s->cfg.out, "registers of block %llu warp %d lane %d (print %%REG shows every lane):\n",
            (unsigned long long)s->fblock, s->fwarp, s->flane);
    int col = 0;
    for (int i = 0; i < n && i < 512; i++) {
        uint64_t v;
        bool p;
        if (!view_reg(s->v, s->fblock, s->fwarp, s->flane, names[i], &v, &p))
            continue;
        int t = view_reg_type(s->v, s->fblock, s->fwarp, s->flane, names[i]);
        char b[96];
        step_format_value(p ? PTX_T_PRED : t, v, b, sizeof b);
        col += fprintf(s->cfg.out, "  %-6s %-14s", names[i], b);
        if (col > 80) {
            fprintf(s->cfg.out, "\n");
            col = 0;
        }
    }
    if (col)
        fprintf(s->cfg.out, "\n");
}

void step_show_info(Stepper *s, const char *what)
{
    if (!strcmp(what, "warps"))
        info_warps(s);
    else if (!strcmp(what, "lanes"))
        info_lanes(s);
    else if (!strcmp(what, "blocks"))
        info_blocks(s, false);
    else if (!strcmp(what, "sms"))
        info_blocks(s, true);
    else if (!strcmp(what, "barriers"))
        info_barriers(s);
    else if (!strcmp(what, "breakpoints"))
        info_breakpoints(s);
    else if (!strcmp(what, "registers"))
        info_registers(s);
}
