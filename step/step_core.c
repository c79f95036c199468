/* step_core.c: the stepper's core (step_int.h) -- the state of the paused
 * launch as commands need it (resident blocks, a warp's pc), breakpoints,
 * the decision, before every warp instruction, whether to stop there, and
 * the small parsers and formatters every command file uses.  It calls no
 * other file of the stepper. */
#include "step_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the machine as the commands need it ---------------------------------- */

bool step_block_resident(Stepper *s, uint64_t b, int *sm)
{
    int n = view_resident_count(s->v);
    for (int i = 0; i < n; i++) {
        uint64_t lin;
        int where;
        if (view_resident(s->v, i, &lin, NULL, &where) && lin == b) {
            if (sm)
                *sm = where;
            return true;
        }
    }
    return false;
}

bool step_block_finished(Stepper *s, uint64_t b)
{
    return b <= s->max_block && !step_block_resident(s, b, NULL);
}

/* The pc a warp is at: the group it issues next, else its first live lane's
 * (a lane waiting at a barrier or warp sync); -1 when every lane exited. */
static int32_t warp_pc(Stepper *s, uint64_t b, int w, uint32_t *mask)
{
    int32_t pc;
    uint32_t m = 0;
    if (view_next(s->v, b, w, &pc, &m)) {
        if (mask)
            *mask = m;
        return pc;
    }
    if (mask)
        *mask = 0;
    ViewWarp vw;
    if (!view_warp(s->v, b, w, &vw))
        return -1;
    for (int l = 0; l < 32; l++)
        if (vw.pc[l] >= 0)
            return step_lane_pc(&vw, l);
    return -1;
}

int32_t step_lane_pc(const ViewWarp *vw, int lane)
{
    /* a lane waiting at bar.sync has already gone past it */
    return vw->pc[lane] >= 0 && (vw->at_barrier >> lane & 1) ? vw->pc[lane] - 1 : vw->pc[lane];
}

int32_t step_focus_pc(Stepper *s, uint32_t *mask) { return warp_pc(s, s->fblock, s->fwarp, mask); }

/* The pc the warp about to issue issues (found on first use: finding a
 * warp scans the resident blocks, too slow to do before every instruction). */
static int32_t cur_pc(Stepper *s)
{
    if (s->cur_pc == -2) {
        uint32_t m;
        if (!view_next(s->v, s->cur_block, s->cur_warp, &s->cur_pc, &m))
            s->cur_pc = -1;
    }
    return s->cur_pc;
}

bool step_focus_alive(Stepper *s)
{
    ViewWarp vw;
    return view_warp(s->v, s->fblock, s->fwarp, &vw) && (vw.present & ~vw.exited);
}

/* .cu file and line of pc ("", 0 unknown). */
static int pc_line(Stepper *s, int32_t pc, const char **file)
{
    int line = 0;
    const char *f = "";
    if (pc < 0 || !view_inst(s->v, pc, NULL, 0, NULL, &f, &line))
        f = "", line = 0;
    if (file)
        *file = f;
    return line;
}

/* ---- breakpoints ------------------------------------------------------------ */

static bool same_file(const char *want, const char *have)
{
    if (!strcmp(want, have))
        return true;
    size_t a = strlen(want), b = strlen(have);
    /* "kernel.cu" or "01-threads-and-races/kernel.cu" name ".../kernel.cu" */
    return a < b && !strcmp(have + b - a, want) && have[b - a - 1] == '/';
}

static void count_insts(Stepper *s)
{
    int lo = 0, hi = 1;
    while (view_inst(s->v, hi - 1, NULL, 0, NULL, NULL, NULL) && hi < (1 << 30))
        lo = hi, hi *= 2;
    while (hi - lo > 1) { /* the first pc that is not an instruction lies in (lo, hi] */
        int mid = lo + (hi - lo) / 2;
        if (view_inst(s->v, mid - 1, NULL, 0, NULL, NULL, NULL))
            lo = mid;
        else
            hi = mid;
    }
    s->n_insts = view_inst(s->v, 0, NULL, 0, NULL, NULL, NULL) ? lo : 0;
}

/* Mark the first pc of every run of instructions of a live breakpoint's
 * line: a warp stops once as it enters the line, not at each instruction. */
static void break_mark(Stepper *s)
{
    memset(s->break_at, 0, (size_t)s->n_insts);
    s->nlive = 0;
    for (int i = 0; i < s->nbreaks; i++)
        s->nlive += s->breaks[i].live;
    const char *pf = NULL;
    int pl = 0;
    for (int pc = 0; pc < s->n_insts; pc++) {
        const char *f;
        int line = pc_line(s, pc, &f);
        bool run_start = line && !(pl == line && pf && !strcmp(pf, f));
        pf = f;
        pl = line;
        if (!run_start)
            continue;
        for (int i = 0; i < s->nbreaks; i++)
            if (s->breaks[i].live && s->breaks[i].line == line && !strcmp(s->breaks[i].file, f))
                s->break_at[pc] = 1;
    }
}

bool step_break_add(Stepper *s, const char *file, int line, char *msg, size_t cap)
{
    if (!s->break_at && !(s->break_at = calloc((size_t)s->n_insts + 1, 1))) {
        snprintf(msg, cap, "out of memory");
        return false;
    }
    const char *here = NULL;
    pc_line(s, step_focus_pc(s, NULL) >= 0 ? step_focus_pc(s, NULL) : cur_pc(s), &here);
    /* the file holding the line: FILE as given, else the one we are in,
     * else any file with code on that line */
    const char *match = NULL;
    int nearest = 0;
    for (int pass = 0; pass < 2 && !match; pass++)
        for (int pc = 0; pc < s->n_insts && !match; pc++) {
            const char *f;
            int l = pc_line(s, pc, &f);
            bool file_ok = file ? same_file(file, f) : pass == 1 || (here && *here && !strcmp(here, f));
            if (!file_ok || !l)
                continue;
            if (l == line)
                match = f;
            else if (!nearest || abs(l - line) < abs(nearest - line))
                nearest = l;
        }
    if (!match) {
        if (nearest)
            snprintf(msg, cap, "no instruction comes from %s%sline %d (the nearest line with code is %d)",
                     file ? file : "", file ? " " : "", line, nearest);
        else if (file)
            snprintf(msg, cap, "no instruction comes from a file named '%s' (where shows the kernel's file)", file);
        else
            snprintf(msg, cap, "no instruction comes from line %d (the PTX has no line information: "
                               "compile with -lineinfo)", line);
        return false;
    }
    for (int i = 0; i < s->nbreaks; i++)
        if (s->breaks[i].live && s->breaks[i].line == line && !strcmp(s->breaks[i].file, match)) {
            snprintf(msg, cap, "breakpoint %d is already at %s:%d", s->breaks[i].id, step_basename(match), line);
            return false;
        }
    if (s->nbreaks == STEP_MAX_BREAKS) {
        snprintf(msg, cap, "too many breakpoints (%d): delete some", STEP_MAX_BREAKS);
        return false;
    }
    StepBreak *b = &s->breaks[s->nbreaks];
    if (!(b->file = strdup(match))) {
        snprintf(msg, cap, "out of memory");
        return false;
    }
    b->id = s->next_break_id++;
    b->line = line;
    b->hits = 0;
    b->live = true;
    s->nbreaks++;
    break_mark(s);
    snprintf(msg, cap, "breakpoint %d at %s:%d", b->id, step_basename(match), line);
    return true;
}

void step_break_delete(Stepper *s, int id)
{
    for (int i = 0; i < s->nbreaks; i++)
        if (id < 0 || s->breaks[i].id == id)
            s->breaks[i].live = false;
    if (s->break_at)
        break_mark(s);
}

/* The live breakpoint whose line pc is on. */
static StepBreak *break_at_pc(Stepper *s, int32_t pc)
{
    const char *f;
    int line = pc_line(s, pc, &f);
    for (int i = 0; i < s->nbreaks; i++)
        if (s->breaks[i].live && s->breaks[i].line == line && !strcmp(s->breaks[i].file, f))
            return &s->breaks[i];
    return NULL;
}

/* ---- stopping ---------------------------------------------------------------- */

/* Copy PTX text with each run of blanks made one space. */
void step_squeeze(char *d, size_t cap, const char *t)
{
    size_t n = 0;
    bool blank = false;
    for (; *t && n + 1 < cap; t++) {
        if (*t == ' ' || *t == '\t') {
            blank = true;
            continue;
        }
        if (blank && n)
            d[n++] = ' ';
        blank = false;
        if (n + 1 < cap)
            d[n++] = *t;
    }
    d[n] = 0;
}

/* Should the launch stop before (block, warp) issues?  why: the headline. */
static bool should_stop(Stepper *s, uint64_t block, int warp, char *why, size_t cap)
{
    bool focus = block == s->fblock && warp == s->fwarp;
    bool alive_check = s->check_alive;
    s->check_alive = false;
    *why = 0;
    if (s->fault_at && view_warp_insts(s->v) == s->fault_at - 1) {
        s->fault_at = 0;
        s->fblock = block;
        s->fwarp = warp;
        s->flane = s->fault_lane;
        snprintf(why, cap, "the next instruction of block %llu warp %d faults in lane %d; focus on it",
                 (unsigned long long)block, warp, s->fault_lane);
        return true;
    }
    if (s->interrupted) {
        s->interrupted = 0;
        ViewWarp vw;
        if (!view_warp(s->v, s->fblock, s->fwarp, &vw) || !(vw.present & ~vw.exited)) {
            s->fblock = block; /* the focus warp is gone: follow the one running now */
            s->fwarp = warp;
        }
        snprintf(why, cap, "interrupted");
        return true;
    }
    switch (s->mode) {
    case STEP_PAUSE:
        return true;
    case STEP_QUIT:
        return false;
    case STEP_STEP:
        if (focus && s->focus_issued >= s->target)
            return true;
        break;
    case STEP_NEXT:
        if (focus && s->focus_issued > s->target) {
            const char *f;
            int line = pc_line(s, cur_pc(s), &f);
            if (line && (line != s->next_line || strcmp(f, s->next_file))) {
                if (--s->count <= 0)
                    return true;
                s->next_line = line;
                s->next_file = f;
                s->target = s->focus_issued;
            }
        }
        break;
    case STEP_TILE:
        if (focus && s->focus_issued > s->target) {
            int32_t pc = cur_pc(s);
            TraceEvent ev;
            if (pc >= 0 && step_tile_at(s, block, warp, pc, &ev)) {
                if (--s->count <= 0)
                    return true;
                s->target = s->focus_issued;
            }
        }
        break;
    case STEP_CONTINUE:
        if (s->nlive && cur_pc(s) >= 0 && s->cur_pc < s->n_insts && s->break_at[s->cur_pc]) {
            StepBreak *b = break_at_pc(s, s->cur_pc);
            if (b) {
                b->hits++;
                s->fblock = block;
                s->fwarp = warp;
                uint32_t m;
                int32_t pc;
                /* the focus lane stays the lane the user chose, while it is
                 * one of the lanes that reached the breakpoint */
                if (view_next(s->v, block, warp, &pc, &m) && m && !(m >> s->flane & 1))
                    s->flane = __builtin_ctz(m);
                snprintf(why, cap, "breakpoint %d (%s:%d), hit %llu: focus on block %llu warp %d", b->id,
                         step_basename(b->file), b->line, (unsigned long long)b->hits,
                         (unsigned long long)block, warp);
                return true;
            }
        }
        return false;
    }
    /* step / next: the focus warp issued its last instruction */
    if (alive_check && !step_focus_alive(s)) {
        snprintf(why, cap, "block %llu warp %d has exited; focus on another warp (info warps)",
                 (unsigned long long)s->fblock, s->fwarp);
        return true;
    }
    return false;
}

bool step_core_stop_here(Stepper *s, const SimView *v, uint64_t block, int warp, char *why, size_t cap)
{
    s->v = v;
    s->cur_block = block;
    s->cur_warp = warp;
    s->cur_pc = -2;
    if (block > s->max_block)
        s->max_block = block;
    *why = 0;
    if (!s->started && s->fault_at) { /* a replay: run to the fault */
        s->started = true;
        count_insts(s);
        s->fblock = block;
        s->fwarp = warp;
        s->mode = STEP_CONTINUE;
        return should_stop(s, block, warp, why, cap);
    }
    if (!s->started) {
        s->started = true;
        count_insts(s);
        s->fblock = block;
        s->fwarp = warp;
        uint32_t mask = 0;
        step_focus_pc(s, &mask);
        s->flane = mask ? __builtin_ctz(mask) : 0;
        snprintf(why, cap, "paused before the first instruction of %s (help lists the commands)",
                 view_kernel(v));
        s->check_alive = false;
        return true;
    }
    return should_stop(s, block, warp, why, cap);
}

void step_core_issued(Stepper *s, uint64_t block, int warp)
{
    if (s->mode != STEP_QUIT && block == s->fblock && warp == s->fwarp) {
        s->focus_issued++;
        s->check_alive = true;
    }
    s->v = NULL;
}

/* ---- words and values ------------------------------------------------------- */

void step_error(Stepper *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(s->cfg.out, "error: ");
    vfprintf(s->cfg.out, fmt, ap);
    fprintf(s->cfg.out, "\n");
    va_end(ap);
    s->errors++;
}

bool step_parse_u64(const char *t, uint64_t *v)
{
    if (!t || !*t || *t == '-' || *t == '+')
        return false;
    char *end;
    unsigned long long x = strtoull(t, &end, 0);
    if (*end)
        return false;
    *v = x;
    return true;
}

void step_format_value(int type, uint64_t v, char *buf, size_t cap)
{
    int size = type >= 0 ? ptx_type_size((PtxType)type) : 8;
    if (type == PTX_T_PRED) {
        snprintf(buf, cap, "%s", v & 1 ? "true" : "false");
    } else if (type == PTX_T_F32) {
        uint32_t b = (uint32_t)v;
        float f;
        memcpy(&f, &b, 4);
        snprintf(buf, cap, "%.9g", f);
    } else if (type == PTX_T_F64) {
        double d;
        memcpy(&d, &v, 8);
        snprintf(buf, cap, "%.17g", d);
    } else {
        if (size < 8)
            v &= (1ull << (8 * size)) - 1;
        bool is_unsigned = type >= PTX_T_U8 && type <= PTX_T_U64;
        int64_t sv = size < 8 && (v >> (8 * size - 1) & 1) ? (int64_t)(v | ~((1ull << (8 * size)) - 1)) : (int64_t)v;
        if (size == 8 && v > 0xffffffffull && !ptx_type_is_signed((PtxType)type)) /* an address */
            snprintf(buf, cap, "0x%llx", (unsigned long long)v);
        else if (is_unsigned)
            snprintf(buf, cap, v >= 65536 ? "%llu (0x%llx)" : "%llu", (unsigned long long)v, (unsigned long long)v);
        else
            snprintf(buf, cap, sv >= 65536 || sv <= -65536 ? "%lld (0x%llx)" : "%lld", (long long)sv,
                     (unsigned long long)v);
    }
}

const char *step_basename(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

DeviceDim3 step_thread_of(const Stepper *s, int warp, int lane)
{
    DeviceDim3 b = s->cfg.spec->block;
    unsigned t = (unsigned)warp * 32u + (unsigned)lane;
    return (DeviceDim3){t % b.x, t / b.x % b.y, t / b.x / b.y};
}
