/* plot.c: off-screen line charts to PNG (see plot.h).  Draws into an
 * SDL_Surface through the software renderer, text through SDL2_ttf, then
 * hands the pixels to viz_png_write.  No window, no video driver. */
#include "plot.h"
#include "viz.h"

#include <SDL.h>
#include <SDL_ttf.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "png.h"


typedef struct {
    SDL_Renderer *r;
    TTF_Font *font, *small, *big;
} Canvas;

typedef struct { int x, y, w, h; } Box;

static void color(Canvas *c, Uint8 r, Uint8 g, Uint8 b)
{
    SDL_SetRenderDrawColor(c->r, r, g, b, 255);
}

/* Draw text with its anchor at (x, y): ax/ay 0 = left/top, 1 = centre,
 * 2 = right/bottom; rotated 90 degrees counter-clockwise when vertical. */
static void text(Canvas *c, TTF_Font *f, const char *s, int x, int y, int ax, int ay,
                 SDL_Color col, int vertical)
{
    if (!s || !*s)
        return;
    SDL_Surface *ts = TTF_RenderUTF8_Blended(f, s, col);
    if (!ts)
        return;
    SDL_Texture *tx = SDL_CreateTextureFromSurface(c->r, ts);
    if (tx) {
        int w = vertical ? ts->h : ts->w, h = vertical ? ts->w : ts->h;
        int left = x - (ax == 1 ? w / 2 : ax == 2 ? w : 0);
        int top = y - (ay == 1 ? h / 2 : ay == 2 ? h : 0);
        if (vertical) {
            /* rotate about the centre of the unrotated rectangle */
            SDL_Rect d = {left + w / 2 - ts->w / 2, top + h / 2 - ts->h / 2, ts->w, ts->h};
            SDL_RenderCopyEx(c->r, tx, NULL, &d, -90.0, NULL, SDL_FLIP_NONE);
        } else {
            SDL_Rect d = {left, top, ts->w, ts->h};
            SDL_RenderCopy(c->r, tx, NULL, &d);
        }
        SDL_DestroyTexture(tx);
    }
    SDL_FreeSurface(ts);
}

static void fmt_num(double v, char *buf, size_t cap)
{
    if (fabs(v) >= 10000 && fmod(v, 1024) == 0)
        snprintf(buf, cap, "%gK", v / 1024);
    else
        snprintf(buf, cap, "%g", v);
}

static void thick_line(Canvas *c, int x0, int y0, int x1, int y1, int width)
{
    for (int d = -(width / 2); d <= width / 2; d++) {
        if (x0 == x1)
            SDL_RenderDrawLine(c->r, x0 + d, y0, x1 + d, y1);
        else
            SDL_RenderDrawLine(c->r, x0, y0 + d, x1, y1 + d);
    }
}

static void draw_chart(Canvas *c, const VizChart *ch, Box b)
{
    SDL_Color ink = {30, 30, 30, 255}, grey = {90, 90, 90, 255}, red = {200, 30, 30, 255};
    text(c, c->font, ch->title, b.x + b.w / 2, b.y + 8, 1, 0, ink, 0);
    /* plot area inside the box, leaving room for labels */
    Box p = {b.x + 80, b.y + 44, b.w - 110, b.h - 110};
    double xr = ch->xmax - ch->xmin, yr = ch->ymax - ch->ymin;
    if (xr <= 0 || yr <= 0)
        return;
#define PX(v) (p.x + (int)lround(((v) - ch->xmin) / xr * p.w))
#define PY(v) (p.y + p.h - (int)lround(((v) - ch->ymin) / yr * p.h))
    color(c, 250, 250, 250);
    SDL_Rect bg = {p.x, p.y, p.w, p.h};
    SDL_RenderFillRect(c->r, &bg);
    char buf[32];
    /* grid and ticks */
    for (double v = ch->ymin; v <= ch->ymax + 1e-9 && ch->ytick > 0; v += ch->ytick) {
        color(c, 220, 220, 220);
        SDL_RenderDrawLine(c->r, p.x, PY(v), p.x + p.w, PY(v));
        fmt_num(v, buf, sizeof buf);
        text(c, c->small, buf, p.x - 6, PY(v), 2, 1, grey, 0);
    }
    for (double v = ch->xmin; v <= ch->xmax + 1e-9 && ch->xtick > 0; v += ch->xtick) {
        color(c, 220, 220, 220);
        SDL_RenderDrawLine(c->r, PX(v), p.y, PX(v), p.y + p.h);
        fmt_num(v, buf, sizeof buf);
        text(c, c->small, buf, PX(v), p.y + p.h + 6, 1, 0, grey, 0);
    }
    color(c, 60, 60, 60);
    SDL_RenderDrawRect(c->r, &bg);
    text(c, c->font, ch->xlabel, p.x + p.w / 2, p.y + p.h + 30, 1, 0, ink, 0);
    text(c, c->font, ch->ylabel, b.x + 14, p.y + p.h / 2, 0, 1, ink, 1);
    /* the step series */
    color(c, 30, 90, 200);
    for (int i = 0; i < ch->n; i++) {
        double x1 = i + 1 < ch->n ? ch->x[i + 1] : ch->xmax;
        int xa = PX(ch->x[i]), xb = PX(x1), ya = PY(ch->y[i]);
        thick_line(c, xa, ya, xb, ya, 3);
        if (i + 1 < ch->n && ch->y[i + 1] != ch->y[i])
            thick_line(c, xb, ya, xb, PY(ch->y[i + 1]), 3);
    }
    /* the current configuration */
    int mx = PX(ch->mark_x), my = PY(ch->mark_y);
    color(c, 200, 30, 30);
    for (int y = p.y; y < p.y + p.h; y += 8)
        SDL_RenderDrawLine(c->r, mx, y, mx, y + 4);
    SDL_Rect dot = {mx - 6, my - 6, 13, 13};
    SDL_RenderFillRect(c->r, &dot);
    if (ch->mark_label) {
        /* beside the mark, on a white patch so the series does not cross it */
        int right = mx > p.x + p.w * 2 / 3, tw = 0, th = 0;
        TTF_SizeUTF8(c->small, ch->mark_label, &tw, &th);
        int ty = my - 14 - th < p.y + 4 ? my + 14 : my - 14 - th;
        int tx = right ? mx - 12 - tw : mx + 12;
        color(c, 255, 255, 255);
        SDL_Rect patch = {tx - 3, ty - 2, tw + 6, th + 4};
        SDL_RenderFillRect(c->r, &patch);
        color(c, 200, 30, 30);
        SDL_RenderDrawRect(c->r, &patch);
        text(c, c->small, ch->mark_label, tx, ty, 0, 0, red, 0);
    }
#undef PX
#undef PY
}

SimStatus viz_plot_charts(const char *path, const char *title, const VizChart *charts, int n,
                          const char *const *lines, int n_lines, int width, int height,
                          const char *font_path, SimError *err)
{
    if (n < 1 || n > 3 || width < 200 || height < 200)
        return sim_error_set(err, SIM_ERR_USAGE, path, 0, 0, "bad plot: %d charts, %d x %d", n,
                             width, height);
    SimStatus st = SIM_OK;
    Canvas c = {0};
    SDL_Surface *surf = NULL;
    bool ttf = false;
    char fb[1500];
    if (!font_path)
        font_path = viz_font("DejaVuSans.ttf", fb, sizeof fb);
    if (TTF_Init() != 0) {
        st = sim_error_set(err, SIM_ERR_NODEVICE, path, 0, 0, "SDL_ttf: %s", TTF_GetError());
        goto done;
    }
    ttf = true;
    c.font = TTF_OpenFont(font_path, 17);
    c.small = TTF_OpenFont(font_path, 14);
    c.big = TTF_OpenFont(font_path, 22);
    if (!c.font || !c.small || !c.big) {
        st = sim_error_set(err, SIM_ERR_IO, font_path, 0, 0,
                           "cannot open the font (install fonts-dejavu-core): %s", TTF_GetError());
        goto done;
    }
    surf = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_RGBA32);
    c.r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    if (!c.r) {
        st = sim_error_set(err, SIM_ERR_NODEVICE, path, 0, 0, "SDL: %s", SDL_GetError());
        goto done;
    }
    SDL_SetRenderDrawBlendMode(c.r, SDL_BLENDMODE_BLEND);
    color(&c, 255, 255, 255);
    SDL_RenderClear(c.r);
    SDL_Color ink = {20, 20, 20, 255};
    text(&c, c.big, title, width / 2, 12, 1, 0, ink, 0);
    int top = 50, cw = width / 2, chh = (height - top) / 2;
    for (int i = 0; i < 4; i++) {
        Box b = {(i % 2) * cw, top + (i / 2) * chh, cw, chh};
        if (i < n) {
            draw_chart(&c, &charts[i], b);
        } else if (i == 3 || i == n) {
            for (int l = 0; l < n_lines; l++)
                text(&c, c.font, lines[l], b.x + 40, b.y + 50 + l * 26, 0, 0, ink, 0);
            break;
        }
    }
    SDL_RenderPresent(c.r);
    if (SDL_MUSTLOCK(surf))
        SDL_LockSurface(surf);
    st = viz_png_write(path, surf->pixels, width, height, surf->pitch, err);
    if (SDL_MUSTLOCK(surf))
        SDL_UnlockSurface(surf);
done:
    if (c.r)
        SDL_DestroyRenderer(c.r);
    if (surf)
        SDL_FreeSurface(surf);
    if (c.font)
        TTF_CloseFont(c.font);
    if (c.small)
        TTF_CloseFont(c.small);
    if (c.big)
        TTF_CloseFont(c.big);
    if (ttf)
        TTF_Quit();
    return st;
}
