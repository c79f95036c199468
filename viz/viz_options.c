/* viz_options.c: the visualizer's view names and option defaults (viz.h):
 * plain C, so that a warpsim built without SDL2 still parses `--view` and
 * can say what it lacks. */
#include "viz.h"

#include <string.h>

const char *viz_view_name(int view)
{
    static const char *names[] = {"gpu", "sm", "memory", "atomics"};
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
