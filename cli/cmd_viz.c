/* cmd_viz.c: `warpsim viz FILE [FILE2]` -- open the trace visualizer
 * (viz/viz.h) in a window, or with --png render one frame to a PNG with no
 * display.  Only argument handling lives here; the arch profiles supply the
 * warps-per-SM limit the occupancy strips are drawn against. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cmd.h"
#include "viz.h"

static const char viz_help[] =
    "usage: warpsim viz FILE [FILE2] [--at CYCLE] [--view gpu|sm|memory|atomics|tile]\n"
    "                   [--block B] [--sm S] [--size WxH] [--png OUT.png] [--script CMDS]\n"
    "\n"
    "Shows a trace written by `warpsim run ... --trace FILE` in a window: blocks landing\n"
    "on SMs, warps diverging and waiting at barriers, shared-memory bank conflicts and\n"
    "32-byte sectors, atomics queueing on one address.  With FILE2, both traces side by\n"
    "side on one time axis (the simulator beside another run).\n"
    "\n"
    "  --view V       the view shown first: gpu (SMs as tiles, resident blocks, occupancy\n"
    "                 over time), sm (a block's warps as rows of 32 lanes), memory (banks\n"
    "                 and sectors), atomics (each address's queue of updates), tile (an\n"
    "                 array as its tile space: tiles loaded, stored, padded, dropped)\n"
    "  --at CYCLE     the cycle shown first (window: 0; --png: the middle of the launch);\n"
    "                 `end` for the last\n"
    "  --block B, --sm S  select a block or an SM first (the sm and memory views show it)\n"
    "  --size WxH     window or image size in pixels (default 1280x800)\n"
    "  --png OUT.png  render one frame to OUT.png and exit: no display needed\n"
    "  --script CMDS  (window, for tests) commands run as if typed, separated by ';':\n"
    "                 key NAME, click X Y, drag X0 Y0 X1 Y1, wheel N X Y, wait MS, print TEXT,\n"
    "                 state (prints the cycle, view, selection, zoom: what the commands did)\n"
    "\n"
    "In the window: space play/pause, right arrow next event, `.` next cycle (left arrow\n"
    "and `,` go back), + and - speed, drag the time axis to scrub, mouse wheel zooms the\n"
    "time axis, click an SM, block, warp or address to select it (double-click a block\n"
    "for the sm view), c clears the selection, 1-5 switch views, h help, q or Esc quit.\n"
    "\n"
    "Exit status: 0 done, 2 bad usage, an unreadable or corrupt trace, or no display\n"
    "(then use --png).\n"
    "\n"
    "example:\n"
    "  warpsim run lessons/01-threads-and-races/kernel.ptx --kernel atomic_sum --grid 4 \\\n"
    "      --block 256 --arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000 \\\n"
    "      --trace sum.wst --trace-level memory\n"
    "  warpsim viz sum.wst\n"
    "  warpsim viz sum.wst --view atomics --at end --png atomics.png\n";

static int usage_error(const char *fmt, const char *a)
{
    return cmd_usage("viz", fmt, a);
}

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!*s || *s == '-' || *s == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static uint32_t arch_warps(const char *arch)
{
    const ArchProfile *p = arch_find(arch);
    return p ? (uint32_t)p->max_warps_per_sm : 0;
}

int cmd_viz(int argc, char **argv)
{
    VizOptions o;
    viz_options_init(&o);
    o.max_warps_per_sm = arch_warps;
    const char *png = NULL;
    bool at_given = false, at_end = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(viz_help, stdout);
            return 0;
        } else if (a[0] == '-' && a[1] && !v) {
            return usage_error("option '%s' needs a value", a);
        } else if (!strcmp(a, "--png")) {
            png = argv[++i];
        } else if (!strcmp(a, "--at")) {
            i++;
            at_given = true;
            if (!strcmp(v, "end"))
                at_end = true;
            else if (!parse_u64(v, &o.at_cycle) || o.at_cycle >= VIZ_AT_END)
                return usage_error("--at '%s': a cycle (0, 1, 2, ...) or end", v);
        } else if (!strcmp(a, "--view")) {
            i++;
            if ((o.view = viz_view_parse(v)) < 0)
                return usage_error("--view '%s': gpu, sm, memory, atomics or tile", v);
        } else if (!strcmp(a, "--block")) {
            i++;
            if (!parse_u64(v, &o.block) || o.block == VIZ_NONE)
                return usage_error("--block '%s': a linear block index", v);
        } else if (!strcmp(a, "--sm")) {
            i++;
            uint64_t sm;
            if (!parse_u64(v, &sm) || sm > 65535)
                return usage_error("--sm '%s': an SM index", v);
            o.sm = (int)sm;
        } else if (!strcmp(a, "--size")) {
            i++;
            char x;
            int n = 0;
            if (sscanf(v, "%d%c%d%n", &o.width, &x, &o.height, &n) != 3 || (x != 'x' && x != 'X') || v[n] ||
                o.width < 320 || o.height < 240 || o.width > 8192 || o.height > 8192)
                return usage_error("--size '%s': WIDTHxHEIGHT, from 320x240 to 8192x8192", v);
        } else if (!strcmp(a, "--script")) {
            o.script = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (o.npaths < 2) {
            o.paths[o.npaths++] = a;
        } else {
            return usage_error("unexpected argument '%s' (at most two traces)", a);
        }
    }
    if (!o.npaths)
        return usage_error("%s", "missing FILE (a trace from warpsim run --trace)");
    if (at_end)
        o.at_cycle = VIZ_AT_END;
    if (png) {
        if (o.script)
            return usage_error("%s", "--script drives the window; it has no effect with --png");
        if (!at_given)
            o.at_cycle = VIZ_AT_MIDDLE;
        SimError err;
        sim_error_clear(&err);
        if (viz_render_png(&o, png, NULL, 0, NULL, &err) != SIM_OK) {
            if (err.file[0])
                fprintf(stderr, "warpsim viz: %s: %s\n", err.file, err.msg);
            else
                fprintf(stderr, "warpsim viz: %s\n", err.msg);
            return 2;
        }
        printf("wrote %s (%s view)\n", png, viz_view_name(o.view));
        return 0;
    }
    char msg[600];
    if (viz_window_opts(&o, msg, sizeof msg) != 0) {
        fprintf(stderr, "warpsim viz: %s\n", msg);
        return 2;
    }
    return 0;
}
