/* viz_options.c: the visualizer's view names and option defaults (viz.h):
 * plain C, so that a warpsim built without SDL2 still parses `--view` and
 * can say what it lacks. */
#include "viz.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *viz_view_name(int view)
{
    static const char *names[] = {"gpu", "sm", "memory", "atomics", "tile"};
    return view >= 0 && view < VIZ_VIEW_COUNT ? names[view] : "?";
}

int viz_view_parse(const char *name)
{
    for (int v = 0; v < VIZ_VIEW_COUNT; v++)
        if (!strcmp(name, viz_view_name(v)))
            return v;
    return -1;
}

void viz_options_init(VizOptions *o)
{
    memset(o, 0, sizeof *o);
    o->view = VIZ_VIEW_GPU;
    o->block = VIZ_NONE;
    o->sm = -1;
}

const char *viz_font(const char *file, char *buf, size_t cap)
{
    snprintf(buf, cap, "/usr/share/fonts/truetype/dejavu/%s", file);
    if (access(buf, R_OK) == 0)
        return buf;
    /* an installed warpsim: PREFIX/bin/warpsim finds PREFIX/share/warpsim/fonts */
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            char alt[1400];
            snprintf(alt, sizeof alt, "%s/../share/warpsim/fonts/%s", exe, file);
            if (access(alt, R_OK) == 0) {
                snprintf(buf, cap, "%s", alt);
                return buf;
            }
        }
    }
    snprintf(buf, cap, "/usr/share/fonts/truetype/dejavu/%s", file);
    return buf;
}
