/* viz_canvas.c: drawing primitives of the visualizer on an SDL renderer --
 * filled and outlined boxes, lines, text through SDL2_ttf with a cache of
 * rendered strings (a frame draws hundreds of labels, most of them the same
 * as in the last frame), legends, and the list of clickable regions. */
#include "viz_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool viz_canvas_open(VizCanvas *c, SDL_Renderer *r, int w, int h, const char *font_path, char *msg, size_t cap)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    c->w = w;
    c->h = h;
    char rb[1500], bb[1500], mb[1500];
    const char *reg = font_path ? font_path : viz_font("DejaVuSans.ttf", rb, sizeof rb);
    const char *bold = font_path ? font_path : viz_font("DejaVuSans-Bold.ttf", bb, sizeof bb);
    const char *mono = font_path ? font_path : viz_font("DejaVuSansMono.ttf", mb, sizeof mb);
    c->font[VIZ_FONT_SMALL] = TTF_OpenFont(reg, 11);
    c->font[VIZ_FONT_NORMAL] = TTF_OpenFont(reg, 13);
    c->font[VIZ_FONT_BOLD] = TTF_OpenFont(bold, 13);
    c->font[VIZ_FONT_BIG] = TTF_OpenFont(bold, 16);
    c->font[VIZ_FONT_MONO] = TTF_OpenFont(mono, 12);
    for (int i = 0; i < VIZ_FONT_COUNT; i++)
        if (!c->font[i]) {
            snprintf(msg, cap, "cannot open the font %s (install fonts-dejavu-core): %s",
                     i == VIZ_FONT_BOLD || i == VIZ_FONT_BIG ? bold : i == VIZ_FONT_MONO ? mono : reg, TTF_GetError());
            viz_canvas_close(c);
            return false;
        }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    return true;
}

void viz_canvas_close(VizCanvas *c)
{
    for (int i = 0; i < VIZ_TEXT_CACHE; i++)
        if (c->cache[i].tx)
            SDL_DestroyTexture(c->cache[i].tx);
    for (int i = 0; i < VIZ_FONT_COUNT; i++)
        if (c->font[i])
            TTF_CloseFont(c->font[i]);
    memset(c->cache, 0, sizeof c->cache);
    memset(c->font, 0, sizeof c->font);
}

static void set_color(VizCanvas *c, SDL_Color col)
{
    SDL_SetRenderDrawColor(c->r, col.r, col.g, col.b, col.a);
}

void viz_fill(VizCanvas *c, VizBox b, SDL_Color col)
{
    if (b.w <= 0 || b.h <= 0)
        return;
    set_color(c, col);
    SDL_Rect r = {b.x, b.y, b.w, b.h};
    SDL_RenderFillRect(c->r, &r);
}

void viz_frame_rect(VizCanvas *c, VizBox b, SDL_Color col, int thickness)
{
    set_color(c, col);
    for (int i = 0; i < thickness && 2 * i < b.w && 2 * i < b.h; i++) {
        SDL_Rect r = {b.x + i, b.y + i, b.w - 2 * i, b.h - 2 * i};
        SDL_RenderDrawRect(c->r, &r);
    }
}

void viz_line(VizCanvas *c, int x0, int y0, int x1, int y1, SDL_Color col)
{
    set_color(c, col);
    SDL_RenderDrawLine(c->r, x0, y0, x1, y1);
}

static Uint32 hash_text(const char *s, int font, Uint32 rgba)
{
    Uint32 h = 2166136261u ^ (Uint32)font * 16777619u ^ rgba;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The texture of s in font and colour: from the cache, or rendered now (and
 * cached when short enough).  *own is set when the caller must free it. */
static SDL_Texture *text_texture(VizCanvas *c, int font, const char *s, SDL_Color col, int *w, int *h, bool *own)
{
    Uint32 rgba = (Uint32)col.r << 24 | (Uint32)col.g << 16 | (Uint32)col.b << 8 | col.a;
    size_t len = strlen(s);
    VizTextSlot *slot = NULL;
    *own = false;
    if (len < sizeof c->cache[0].s) {
        slot = &c->cache[hash_text(s, font, rgba) % VIZ_TEXT_CACHE];
        if (slot->tx && slot->font == font && slot->rgba == rgba && !strcmp(slot->s, s)) {
            *w = slot->w;
            *h = slot->h;
            return slot->tx;
        }
    }
    SDL_Surface *ts = TTF_RenderUTF8_Blended(c->font[font], s, col);
    if (!ts)
        return NULL;
    SDL_Texture *tx = SDL_CreateTextureFromSurface(c->r, ts);
    *w = ts->w;
    *h = ts->h;
    SDL_FreeSurface(ts);
    if (!tx)
        return NULL;
    if (slot) {
        if (slot->tx)
            SDL_DestroyTexture(slot->tx);
        memcpy(slot->s, s, len + 1);
        slot->font = font;
        slot->rgba = rgba;
        slot->tx = tx;
        slot->w = *w;
        slot->h = *h;
    } else {
        *own = true;
    }
    return tx;
}

static int draw_text(VizCanvas *c, int font, const char *s, int x, int y, int ax, int ay, int max_w, SDL_Color col)
{
    if (!s || !*s)
        return 0;
    int w, h;
    bool own;
    SDL_Texture *tx = text_texture(c, font, s, col, &w, &h, &own);
    if (!tx)
        return 0;
    int left = x - (ax == 1 ? w / 2 : ax == 2 ? w : 0);
    int top = y - (ay == 1 ? h / 2 : ay == 2 ? h : 0);
    int dw = max_w > 0 && w > max_w ? max_w : w;
    SDL_Rect src = {0, 0, dw, h}, dst = {left, top, dw, h};
    SDL_RenderCopy(c->r, tx, &src, &dst);
    if (own)
        SDL_DestroyTexture(tx);
    return dw;
}

int viz_text(VizCanvas *c, int font, const char *s, int x, int y, int ax, int ay, SDL_Color col)
{
    return draw_text(c, font, s, x, y, ax, ay, 0, col);
}

int viz_text_clip(VizCanvas *c, int font, const char *s, int x, int y, int max_w, SDL_Color col)
{
    return max_w > 0 ? draw_text(c, font, s, x, y, 0, 0, max_w, col) : 0;
}

int viz_text_wrap(VizCanvas *c, int font, const char *s, int x, int y, int max_w, int max_lines, SDL_Color col)
{
    char line[512];
    int lines = 0, lh = viz_font_height(c, font);
    while (*s && lines < max_lines) {
        /* the longest run of whole words that fits (at least one word) */
        size_t fit = 0, i = 0, n = strlen(s);
        while (i <= n) {
            if (i == n || s[i] == ' ') {
                if (i >= sizeof line)
                    break;
                memcpy(line, s, i);
                line[i] = 0;
                if (fit && viz_text_width(c, font, line) > max_w)
                    break;
                fit = i;
                if (i == n)
                    break;
            }
            i++;
        }
        if (!fit)
            fit = n < sizeof line - 1 ? n : sizeof line - 1;
        memcpy(line, s, fit);
        line[fit] = 0;
        viz_text_clip(c, font, line, x, y + lines * lh, max_w, col);
        lines++;
        s += fit;
        while (*s == ' ')
            s++;
    }
    return lines;
}

int viz_textf(VizCanvas *c, int font, int x, int y, SDL_Color col, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return draw_text(c, font, buf, x, y, 0, 0, 0, col);
}

int viz_text_width(VizCanvas *c, int font, const char *s)
{
    int w = 0, h = 0;
    if (s && *s)
        TTF_SizeUTF8(c->font[font], s, &w, &h);
    return w;
}

int viz_font_height(VizCanvas *c, int font)
{
    return TTF_FontHeight(c->font[font]);
}

void viz_hit(VizCanvas *c, VizBox b, int kind, int trace, uint64_t id, uint64_t aux)
{
    if (c->nhits < VIZ_MAX_HITS)
        c->hits[c->nhits++] = (VizHit){b.x, b.y, b.w, b.h, kind, trace, id, aux};
}

SDL_Color viz_block_color(uint64_t block)
{
    double hue = fmod((double)(block % 100003) * 0.6180339887 + 0.55, 1.0) * 6.0, s = 0.50, v = 0.88;
    int i = (int)hue;
    double f = hue - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;
    switch (i % 6) {
    case 0: r = v; g = t; b = p; break;
    case 1: r = q; g = v; b = p; break;
    case 2: r = p; g = v; b = t; break;
    case 3: r = p; g = q; b = v; break;
    case 4: r = t; g = p; b = v; break;
    default: r = v; g = p; b = q; break;
    }
    return (SDL_Color){(Uint8)(r * 255), (Uint8)(g * 255), (Uint8)(b * 255), 255};
}

SDL_Color viz_state_color(int state)
{
    static const SDL_Color col[TRACE_STATE_COUNT] = {
        [TRACE_STATE_LONG_SCOREBOARD] = {214, 58, 64, 255},    [TRACE_STATE_SHORT_SCOREBOARD] = {236, 128, 170, 255},
        [TRACE_STATE_WAIT] = {124, 172, 232, 255},             [TRACE_STATE_BARRIER] = {240, 146, 24, 255},
        [TRACE_STATE_MEMBAR] = {150, 98, 54, 255},             [TRACE_STATE_MATH_PIPE_THROTTLE] = {146, 76, 200, 255},
        [TRACE_STATE_LG_THROTTLE] = {128, 24, 36, 255},        [TRACE_STATE_MIO_THROTTLE] = {196, 56, 176, 255},
        [TRACE_STATE_NOT_SELECTED] = {238, 208, 56, 255},      [TRACE_STATE_SELECTED] = {46, 160, 67, 255},
        [TRACE_STATE_DISPATCH] = {108, 128, 158, 255},         [TRACE_STATE_SLEEPING] = {36, 158, 158, 255},
        [TRACE_STATE_MISC] = {150, 150, 150, 255}};
    return state >= 0 && state < TRACE_STATE_COUNT ? col[state] : VIZ_UNKNOWN;
}

int viz_state_legend(VizCanvas *c, VizBox area)
{
    VizLegendItem items[TRACE_STATE_COUNT];
    /* issuing first, then the stalls in the model's order */
    items[0] = (VizLegendItem){viz_state_color(TRACE_STATE_SELECTED), "selected (issuing)", 0};
    int n = 1;
    for (int st = 0; st < TRACE_STATE_COUNT; st++)
        if (st != TRACE_STATE_SELECTED)
            items[n++] = (VizLegendItem){viz_state_color(st), trace_state_name(st), 0};
    return viz_legend(c, area, items, n);
}

SDL_Color viz_ink_on(SDL_Color bg)
{
    return 0.299 * bg.r + 0.587 * bg.g + 0.114 * bg.b > 140 ? VIZ_INK : (SDL_Color){255, 255, 255, 255};
}

int viz_legend(VizCanvas *c, VizBox area, const VizLegendItem *items, int n)
{
    int fh = viz_font_height(c, VIZ_FONT_SMALL), row = fh + 6, sw = 14;
    /* lay out once to know the rows, then draw from the bottom up */
    int rows = 1, x = area.x + 8;
    for (int i = 0; i < n; i++) {
        int iw = sw + 5 + viz_text_width(c, VIZ_FONT_SMALL, items[i].label) + 16;
        if (x + iw > area.x + area.w && x > area.x + 8) {
            rows++;
            x = area.x + 8;
        }
        x += iw;
    }
    int h = rows * row + 6, y = area.y + area.h - h + 4;
    viz_fill(c, (VizBox){area.x, area.y + area.h - h, area.w, h}, VIZ_PANEL);
    viz_line(c, area.x, area.y + area.h - h, area.x + area.w, area.y + area.h - h, VIZ_LINE);
    x = area.x + 8;
    for (int i = 0; i < n; i++) {
        int iw = sw + 5 + viz_text_width(c, VIZ_FONT_SMALL, items[i].label) + 16;
        if (x + iw > area.x + area.w && x > area.x + 8) {
            y += row;
            x = area.x + 8;
        }
        VizBox s = {x, y + (fh - sw) / 2 + 1, sw, sw};
        if (items[i].outline) {
            viz_fill(c, s, VIZ_PANEL);
            viz_frame_rect(c, s, items[i].col, 2);
        } else {
            viz_fill(c, s, items[i].col);
            viz_frame_rect(c, s, VIZ_GREY, 1);
        }
        viz_text(c, VIZ_FONT_SMALL, items[i].label, x + sw + 5, y, 0, 0, VIZ_INK);
        x += iw;
    }
    return h;
}
