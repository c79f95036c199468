/* viz_headless.c: one frame of the visualizer into a PNG with no display --
 * the software renderer draws into an SDL surface (no video driver is
 * initialised at all), then viz_png_write saves it.  `warpsim viz --png`,
 * the tests and the README's pictures use it. */
#include "viz_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "png.h"

SimStatus viz_render_png(const VizOptions *o, const char *out, VizHit *hits, int cap, int *nhits, SimError *err)
{
    int w = o->width ? o->width : 1280, h = o->height ? o->height : 800;
    if (w < 320 || h < 240 || w > 8192 || h > 8192)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "--size %dx%d: from 320x240 to 8192x8192", w, h);
    if (nhits)
        *nhits = 0;
    VizState *s = calloc(1, sizeof *s);
    VizCanvas *c = calloc(1, sizeof *c);
    SDL_Surface *surf = NULL;
    SDL_Renderer *r = NULL;
    SimStatus st = SIM_OK;
    bool ttf = false, canvas = false, state = false;
    if (!s || !c) {
        st = sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
        goto done;
    }
    if (!viz_state_open(s, o, err)) {
        st = err ? err->status : SIM_ERR_IO;
        goto done;
    }
    state = true;
    if (TTF_Init() != 0) {
        st = sim_error_set(err, SIM_ERR_NODEVICE, "", 0, 0, "SDL_ttf: %s", TTF_GetError());
        goto done;
    }
    ttf = true;
    surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    if (!r) {
        st = sim_error_set(err, SIM_ERR_NODEVICE, "", 0, 0, "SDL: %s", SDL_GetError());
        goto done;
    }
    char msg[300];
    if (!viz_canvas_open(c, r, w, h, o->font_path, msg, sizeof msg)) {
        st = sim_error_set(err, SIM_ERR_IO, o->font_path ? o->font_path : "DejaVuSans.ttf", 0, 0, "%s", msg);
        goto done;
    }
    canvas = true;
    viz_frame_draw(c, s);
    SDL_RenderPresent(r);
    if (SDL_MUSTLOCK(surf))
        SDL_LockSurface(surf);
    st = viz_png_write(out, surf->pixels, w, h, surf->pitch, err);
    if (SDL_MUSTLOCK(surf))
        SDL_UnlockSurface(surf);
    if (hits && nhits) {
        int n = c->nhits < cap ? c->nhits : cap;
        for (int i = 0; i < n; i++)
            hits[i] = c->hits[i];
        *nhits = n;
    }
done:
    if (canvas)
        viz_canvas_close(c);
    if (r)
        SDL_DestroyRenderer(r);
    if (surf)
        SDL_FreeSurface(surf);
    if (ttf)
        TTF_Quit();
    if (state)
        viz_state_close(s);
    free(s);
    free(c);
    return st;
}
