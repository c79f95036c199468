/* step_cmd.c: the stepper's command line -- splitting a line into words,
 * finding the command (full name, cuda-gdb's one-letter abbreviations, or an
 * unambiguous prefix; the closest name is suggested otherwise), and the
 * commands that move the launch or change the focus.  What commands show
 * lives in step_show.c and step_print.c. */
#include "step_int.h"

#include <stdlib.h>
#include <string.h>

#define MAXW 16

typedef bool (*CmdFn)(Stepper *s, int argc, char **argv);

typedef struct {
    const char *name;
    const char *alias;   /* one-letter abbreviation, or NULL */
    CmdFn fn;
    const char *usage;
    const char *help;
} Cmd;

/* "N" (the linear index) or "x,y,z" / "x,y" in a space of shape dim. */
static bool parse_index(const char *t, DeviceDim3 dim, uint64_t *lin)
{
    uint64_t c[3] = {0, 0, 0};
    int n = 0;
    char buf[96];
    snprintf(buf, sizeof buf, "%s", t);
    char *save = NULL;
    for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        if (n == 3 || !step_parse_u64(p, &c[n]))
            return false;
        n++;
    }
    if (n == 0)
        return false;
    if (n == 1) {
        *lin = c[0];
        return true;
    }
    if (c[0] >= dim.x || c[1] >= dim.y || c[2] >= dim.z)
        return false;
    *lin = c[0] + (uint64_t)dim.x * (c[1] + (uint64_t)dim.y * c[2]);
    return true;
}

/* A positive repeat count (default 1). */
static bool parse_count(Stepper *s, int argc, char **argv, long *n)
{
    *n = 1;
    if (argc > 2) {
        step_error(s, "%s takes at most one count", argv[0]);
        return false;
    }
    uint64_t v;
    if (argc == 2 && (!step_parse_u64(argv[1], &v) || v == 0 || v > 1000000000)) {
        step_error(s, "%s '%s': expected a count from 1 to 10^9", argv[0], argv[1]);
        return false;
    }
    if (argc == 2)
        *n = (long)v;
    return true;
}

/* Can the focus warp still issue?  Says why not. */
static bool focus_can_run(Stepper *s)
{
    if (step_block_finished(s, s->fblock)) {
        step_error(s, "block %llu has finished: focus on a resident block (info blocks)",
                   (unsigned long long)s->fblock);
        return false;
    }
    ViewWarp vw;
    if (view_warp(s->v, s->fblock, s->fwarp, &vw) && !(vw.present & ~vw.exited)) {
        step_error(s, "every lane of block %llu warp %d has exited: focus on another warp (info warps)",
                   (unsigned long long)s->fblock, s->fwarp);
        return false;
    }
    return true;
}

static bool c_step(Stepper *s, int argc, char **argv)
{
    long n;
    if (!parse_count(s, argc, argv, &n) || !focus_can_run(s))
        return false;
    s->mode = STEP_STEP;
    s->target = s->focus_issued + (uint64_t)n;
    if (!step_block_resident(s, s->fblock, NULL))
        s->target = s->focus_issued; /* not started: stop before its first instruction */
    return true;
}

static bool c_next(Stepper *s, int argc, char **argv)
{
    long n;
    bool tile = argc >= 2 && !strcmp(argv[1], "tile");
    if (tile) { /* next tile [N]: the count follows the word */
        argv[1] = argv[0];
        argc--;
        argv++;
    }
    if (!parse_count(s, argc, argv, &n) || !focus_can_run(s))
        return false;
    if (!step_block_resident(s, s->fblock, NULL)) { /* not started: stop as it starts */
        s->mode = STEP_STEP;
        s->target = s->focus_issued;
        return true;
    }
    s->mode = tile ? STEP_TILE : STEP_NEXT;
    s->count = n;
    s->target = s->focus_issued;
    s->next_file = "";
    s->next_line = 0;
    int32_t pc = step_focus_pc(s, NULL);
    if (pc >= 0)
        view_inst(s->v, pc, NULL, 0, NULL, &s->next_file, &s->next_line);
    return true;
}

static bool c_continue(Stepper *s, int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        step_error(s, "continue takes no arguments");
        return false;
    }
    s->mode = STEP_CONTINUE;
    return true;
}

static bool c_break(Stepper *s, int argc, char **argv)
{
    if (argc == 1) {
        step_show_info(s, "breakpoints");
        return false;
    }
    if (argc > 2) {
        step_error(s, "break takes one LINE or FILE:LINE");
        return false;
    }
    char file[256];
    const char *colon = strrchr(argv[1], ':');
    const char *num = colon ? colon + 1 : argv[1];
    uint64_t line;
    if (!step_parse_u64(num, &line) || line == 0 || line > 1000000 || (colon && colon == argv[1])) {
        step_error(s, "break '%s': expected a .cu line number (break 26) or FILE:LINE (break kernel.cu:26)",
                   argv[1]);
        return false;
    }
    if (colon)
        snprintf(file, sizeof file, "%.*s", (int)(colon - argv[1]), argv[1]);
    char msg[512];
    if (step_break_add(s, colon ? file : NULL, (int)line, msg, sizeof msg))
        fprintf(s->cfg.out, "%s\n", msg);
    else
        step_error(s, "%s", msg);
    return false;
}

static bool c_delete(Stepper *s, int argc, char **argv)
{
    if (argc == 1) {
        step_break_delete(s, -1);
        fprintf(s->cfg.out, "deleted every breakpoint\n");
        return false;
    }
    for (int i = 1; i < argc; i++) {
        uint64_t id;
        bool found = false;
        if (step_parse_u64(argv[i], &id))
            for (int k = 0; k < s->nbreaks; k++)
                found |= s->breaks[k].live && (uint64_t)s->breaks[k].id == id;
        if (!found) {
            step_error(s, "delete '%s': no such breakpoint (break lists them)", argv[i]);
            continue;
        }
        step_break_delete(s, (int)id);
        fprintf(s->cfg.out, "deleted breakpoint %d\n", (int)id);
    }
    return false;
}

static bool c_focus(Stepper *s, int argc, char **argv)
{
    uint64_t nb = view_grid_blocks(s->v), block = s->fblock;
    int nw = view_warps_per_block(s->v), nt = view_threads_per_block(s->v);
    int warp = s->fwarp, lane = s->flane;
    bool warp_given = false;
    for (int i = 1; i < argc; i += 2) {
        const char *what = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t v;
        if (!val) {
            step_error(s, "focus %s: missing its value (focus block B warp W, or focus thread T)", what);
            return false;
        }
        if (!strcmp(what, "block")) {
            if (!parse_index(val, s->cfg.spec->grid, &v) || v >= nb) {
                step_error(s, "focus block '%s': the grid has blocks 0..%llu (or x,y,z up to %u,%u,%u)", val,
                           (unsigned long long)nb - 1, s->cfg.spec->grid.x - 1, s->cfg.spec->grid.y - 1,
                           s->cfg.spec->grid.z - 1);
                return false;
            }
            block = v;
        } else if (!strcmp(what, "warp")) {
            if (!step_parse_u64(val, &v) || v >= (uint64_t)nw) {
                step_error(s, "focus warp '%s': a block has warps 0..%d", val, nw - 1);
                return false;
            }
            warp = (int)v;
            warp_given = true;
        } else if (!strcmp(what, "lane")) {
            if (!step_parse_u64(val, &v) || v >= 32) {
                step_error(s, "focus lane '%s': lanes are 0..31", val);
                return false;
            }
            lane = (int)v;
        } else if (!strcmp(what, "thread")) {
            if (!parse_index(val, s->cfg.spec->block, &v) || v >= (uint64_t)nt) {
                step_error(s, "focus thread '%s': a block has threads 0..%d (or x,y,z up to %u,%u,%u)", val,
                           nt - 1, s->cfg.spec->block.x - 1, s->cfg.spec->block.y - 1, s->cfg.spec->block.z - 1);
                return false;
            }
            warp = (int)(v / 32);
            lane = (int)(v % 32);
            warp_given = true;
        } else {
            step_error(s, "focus: expected block B, warp W, lane L or thread T, not '%s'", what);
            return false;
        }
    }
    if (!warp_given && block != s->fblock)
        warp = 0, lane = 0;
    s->fblock = block;
    s->fwarp = warp;
    s->flane = lane;
    step_show_stop(s, NULL);
    return false;
}

static bool c_info(Stepper *s, int argc, char **argv)
{
    static const char *const whats[] = {"warps", "lanes", "blocks", "sms", "barriers", "breakpoints", "registers"};
    if (argc != 2) {
        step_error(s, "info what?  warps, lanes, blocks, sms, barriers, breakpoints or registers");
        return false;
    }
    const char *hit = NULL;
    int nhit = 0;
    for (size_t i = 0; i < sizeof whats / sizeof *whats; i++)
        if (!strncmp(whats[i], argv[1], strlen(argv[1])))
            hit = whats[i], nhit++;
    if (!strcmp(argv[1], "b"))
        hit = "breakpoints", nhit = 1; /* gdb's `i b` */
    if (nhit != 1) {
        step_error(s, "info '%s': expected warps, lanes, blocks, sms, barriers, breakpoints or registers",
                   argv[1]);
        return false;
    }
    step_show_info(s, hit);
    return false;
}

static bool c_where(Stepper *s, int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        step_error(s, "where takes no arguments (focus moves it)");
        return false;
    }
    step_show_where(s);
    return false;
}

static bool c_viz(Stepper *s, int argc, char **argv)
{
    if (argc > 2) {
        step_error(s, "viz takes at most a view: gpu, sm, memory or atomics");
        return false;
    }
    char msg[512];
    if (step_viz(s, argc == 2 ? argv[1] : "sm", msg, sizeof msg))
        step_error(s, "%s", msg);
    return false;
}

static bool c_quit(Stepper *s, int argc, char **argv)
{
    (void)argc, (void)argv;
    s->mode = STEP_QUIT;
    return true;
}

static bool c_help(Stepper *s, int argc, char **argv);

static const Cmd cmds[] = {
    {"step", "s", c_step, "step [N]",
     "Run until the focus warp has issued one warp instruction (N of them), then stop before its next\n"
     "one.  Other warps run meanwhile, as on the GPU; breakpoints do not stop a step."},
    {"next", "n", c_next, "next [N] | next tile [N]",
     "Run until the focus warp reaches another .cu line (N times).  `next tile`: run over one tile\n"
     "operation (lessons/include/tile.cuh) and the code up to the next: stop where the focus warp\n"
     "begins its next tile operation (or exits).  A stop at a tile operation says what it will do:\n"
     "the array, the tile of its tile space, and what happens to elements outside the array."},
    {"continue", "c", c_continue, "continue",
     "Run until any warp is about to enter a breakpoint's line (the focus moves to it), or to the end."},
    {"break", "b", c_break, "break LINE | FILE:LINE",
     "Stop when any warp is about to issue the first instruction of that .cu line.  Alone: list them."},
    {"delete", "d", c_delete, "delete [ID...]", "Delete breakpoints (all of them when no ID is given)."},
    {"focus", "f", c_focus, "focus block B [warp W] [lane L] | focus thread T",
     "Pick the warp that step, next, print and where look at.  B is the linear block index or x,y,z;\n"
     "T a thread of the focus block, linear or x,y,z (it picks the warp and the lane)."},
    {"info", "i", c_info, "info warps|lanes|blocks|sms|barriers|breakpoints|registers",
     "warps: the focus block's warps; lanes: the focus warp's lanes; blocks and sms: what is resident\n"
     "where; barriers: who waits at the focus block's barriers; registers: the focus lane's registers."},
    {"print", "p", step_cmd_print, "print %REG | argK | shared ADDR [N] [TYPE] | global ADDR [N] [TYPE]",
     "%REG: a register (%r5, %rd2, %f1, %p1) or %tid.x, %ctaid.x, %laneid, %warpid in every lane of the\n"
     "focus warp, equal values grouped.  argK: kernel argument K.  shared/global: N elements (default 1)\n"
     "of TYPE (i32 unless the buffer says otherwise; u32 i64 u64 f32 f64 i8 u8 i16 u16) at ADDR, shown\n"
     "with their hex.  ADDR is a number (0x100), a register of the focus lane (%rd3), argK (the\n"
     "buffer passed as argument K) or argK[I] (its element I), with an optional +BYTES."},
    {"where", "w", c_where, "where",
     "The focus warp's .cu line with its neighbours, its next PTX instruction and the active mask."},
    {"viz", "v", c_viz, "viz [gpu|sm|memory|atomics]",
     "Open the visualizer on this launch at the current cycle (the launch is run again with a trace)."},
    {"help", "h", c_help, "help [COMMAND]", "The commands, or one of them in detail."},
    {"quit", "q", c_quit, "quit", "Stop the launch and show what the buffers hold.  End of input does the same."},
};
#define NCMDS (sizeof cmds / sizeof *cmds)

static bool c_help(Stepper *s, int argc, char **argv)
{
    FILE *o = s->cfg.out;
    if (argc > 1) {
        for (size_t i = 0; i < NCMDS; i++)
            if (!strcmp(argv[1], cmds[i].name) || (cmds[i].alias && !strcmp(argv[1], cmds[i].alias))) {
                fprintf(o, "%s\n%s\n", cmds[i].usage, cmds[i].help);
                return false;
            }
        step_error(s, "help '%s': no such command (help lists them)", argv[1]);
        return false;
    }
    fprintf(o, "The launch is paused before a warp instruction.  Commands (first letters are enough):\n");
    int wide = 0; /* the alias column sits after the longest usage */
    for (size_t i = 0; i < NCMDS; i++)
        if ((int)strlen(cmds[i].usage) > wide)
            wide = (int)strlen(cmds[i].usage);
    for (size_t i = 0; i < NCMDS; i++)
        fprintf(o, "  %-*s  %s\n", wide, cmds[i].usage, cmds[i].alias ? cmds[i].alias : "");
    fprintf(o, "help COMMAND explains one.  An empty line repeats the last command.\n");
    return false;
}

/* Edit distance (insert, delete, substitute, swap neighbours), capped. */
static int distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 30 || m > 30)
        return 99;
    int d[32][32];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[n][m];
}

static const Cmd *find_cmd(const char *w, const char **ambiguous)
{
    *ambiguous = NULL;
    for (size_t i = 0; i < NCMDS; i++)
        if (!strcmp(w, cmds[i].name) || (cmds[i].alias && !strcmp(w, cmds[i].alias)))
            return &cmds[i];
    static const struct { const char *name, *is; } more[] = {
        {"stepi", "step"}, {"si", "step"}, {"nexti", "next"}, {"ni", "next"}, {"exit", "quit"},
        {"bt", "where"}, {"backtrace", "where"}, {"x", "print"}};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++)
        if (!strcmp(w, more[i].name))
            return find_cmd(more[i].is, ambiguous);
    const Cmd *hit = NULL;
    for (size_t i = 0; i < NCMDS; i++)
        if (!strncmp(cmds[i].name, w, strlen(w))) {
            if (hit) {
                *ambiguous = hit->name;
                return NULL;
            }
            hit = &cmds[i];
        }
    return hit;
}

const char *step_command_word(const char *first, int i)
{
    if (!first)
        return (size_t)i < NCMDS ? cmds[i].name : NULL;
    static const char *const info[] = {"warps", "lanes", "blocks", "sms", "barriers", "breakpoints",
                                       "registers", NULL};
    static const char *const print[] = {"shared", "global", NULL};
    static const char *const focus[] = {"block", "warp", "lane", "thread", NULL};
    static const char *const viz[] = {"gpu", "sm", "memory", "atomics", NULL};
    const char *amb;
    const Cmd *c = find_cmd(first, &amb);
    const char *const *list = !c ? NULL : c->fn == c_info ? info : c->fn == step_cmd_print ? print
                            : c->fn == c_focus ? focus : c->fn == c_viz ? viz : NULL;
    if (c && c->fn == c_help)
        return (size_t)i < NCMDS ? cmds[i].name : NULL;
    for (int k = 0; list && list[k]; k++)
        if (k == i)
            return list[k];
    return NULL;
}

bool step_cmd_run(Stepper *s, const char *line)
{
    if (*line == '#')
        return false;
    if (!*line) {
        if (!*s->last)
            return false;
        line = s->last; /* a terminal's empty line repeats */
    }
    char buf[512];
    if (strlen(line) >= sizeof buf) {
        step_error(s, "command too long (%zu characters)", strlen(line));
        return false;
    }
    snprintf(buf, sizeof buf, "%s", line);
    char *argv[MAXW + 1], *save = NULL;
    int argc = 0;
    for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (argc == MAXW) {
            step_error(s, "too many words (at most %d)", MAXW);
            return false;
        }
        argv[argc++] = w;
    }
    argv[argc] = NULL;
    if (!argc)
        return false;
    const char *amb;
    const Cmd *c = find_cmd(argv[0], &amb);
    if (!c) {
        if (amb) {
            step_error(s, "'%s' is ambiguous: %s, or another command starting so (help lists them)", argv[0],
                       amb);
            return false;
        }
        const char *best = NULL;
        int bd = 99;
        for (size_t i = 0; i < NCMDS; i++) {
            int d = distance(argv[0], cmds[i].name);
            if (d < bd)
                bd = d, best = cmds[i].name;
        }
        for (int i = 0; step_command_word("info", i); i++)
            if (!strcmp(argv[0], step_command_word("info", i))) {
                step_error(s, "unknown command '%s'; did you mean 'info %s'?", argv[0], argv[0]);
                return false;
            }
        if (argv[0][0] == '%' || !strcmp(argv[0], "shared") || !strcmp(argv[0], "global") ||
            !strncmp(argv[0], "arg", 3)) {
            step_error(s, "unknown command '%s'; did you mean 'print %s'?", argv[0], line);
            return false;
        }
        if (bd <= 2 && strlen(argv[0]) > 1)
            step_error(s, "unknown command '%s'; did you mean '%s'? (help lists the commands)", argv[0], best);
        else
            step_error(s, "unknown command '%s' (help lists the commands)", argv[0]);
        return false;
    }
    if (line != s->last)
        snprintf(s->last, sizeof s->last, "%s", line);
    return c->fn(s, argc, argv);
}
