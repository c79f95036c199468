/* viz_image.h: what tests/test_viz.c needs to look at pictures -- read a
 * PNG back (libpng) and an X11 screen dump (xwd's XWD format: a big-endian
 * header, a colour map, then rows of pixels in the server's byte order)
 * into 8-bit RGBA, and small pixel helpers. */
#ifndef WARPSIM_TEST_VIZ_IMAGE_H
#define WARPSIM_TEST_VIZ_IMAGE_H

#include <libpng16/png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int w, h;
    uint8_t *px;   /* w * h * 4 bytes, RGBA */
} VizImage;

typedef struct { uint8_t r, g, b; } VizRGB;

static inline VizRGB viz_image_at(const VizImage *im, int x, int y)
{
    if (x < 0 || y < 0 || x >= im->w || y >= im->h)
        return (VizRGB){0, 0, 0};
    const uint8_t *p = im->px + ((size_t)y * (size_t)im->w + (size_t)x) * 4;
    return (VizRGB){p[0], p[1], p[2]};
}

static inline bool viz_rgb_eq(VizRGB a, uint8_t r, uint8_t g, uint8_t b)
{
    return a.r == r && a.g == g && a.b == b;
}

/* Pixels of exactly (r, g, b) in the rectangle. */
static inline int viz_image_count(const VizImage *im, int x, int y, int w, int h, uint8_t r, uint8_t g, uint8_t b)
{
    int n = 0;
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++)
            n += viz_rgb_eq(viz_image_at(im, i, j), r, g, b);
    return n;
}

/* Distinct colours (up to cap) in the whole image. */
static inline int viz_image_colours(const VizImage *im, int cap)
{
    uint32_t *seen = calloc((size_t)cap, sizeof *seen);
    int n = 0;
    for (int i = 0; i < im->w * im->h && n < cap; i++) {
        const uint8_t *p = im->px + (size_t)i * 4;
        uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2] | 1u << 24;
        int k;
        for (k = 0; k < n && seen[k] != v; k++)
            ;
        if (k == n)
            seen[n++] = v;
    }
    free(seen);
    return n;
}

static inline bool viz_png_read(const char *path, VizImage *im)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path))
        return false;
    pi.format = PNG_FORMAT_RGBA;
    im->w = (int)pi.width;
    im->h = (int)pi.height;
    im->px = malloc(PNG_IMAGE_SIZE(pi));
    if (!im->px || !png_image_finish_read(&pi, NULL, im->px, 0, NULL)) {
        free(im->px);
        png_image_free(&pi);
        return false;
    }
    return true;
}

static inline uint32_t xwd_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline int xwd_shift(uint32_t mask)
{
    int s = 0;
    while (s < 32 && !(mask >> s & 1))
        s++;
    return s;
}

/* A TrueColor ZPixmap dump from `xwd -root` (8 to 32 bits a pixel). */
static inline bool viz_xwd_read(const char *path, VizImage *im)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = len > 100 ? malloc((size_t)len) : NULL;
    bool ok = d && fread(d, 1, (size_t)len, f) == (size_t)len;
    fclose(f);
    if (!ok) {
        free(d);
        return false;
    }
    uint32_t hsize = xwd_be32(d), format = xwd_be32(d + 8), w = xwd_be32(d + 16), h = xwd_be32(d + 20);
    uint32_t order = xwd_be32(d + 28), bpp = xwd_be32(d + 44), bpl = xwd_be32(d + 48);
    uint32_t rm = xwd_be32(d + 56), gm = xwd_be32(d + 60), bm = xwd_be32(d + 64), ncolors = xwd_be32(d + 76);
    size_t off = (size_t)hsize + (size_t)ncolors * 12;
    if (format != 2 || bpp < 8 || bpp > 32 || bpp % 8 || !w || !h || w > 16384 || h > 16384 ||
        off + (size_t)bpl * h > (size_t)len || bpl < w * (bpp / 8) || !rm || !gm || !bm) {
        free(d);
        return false;
    }
    im->w = (int)w;
    im->h = (int)h;
    im->px = malloc((size_t)w * h * 4);
    if (!im->px) {
        free(d);
        return false;
    }
    int rs = xwd_shift(rm), gs = xwd_shift(gm), bs = xwd_shift(bm), k = (int)bpp / 8;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = d + off + (size_t)y * bpl + (size_t)x * (size_t)k;
            uint32_t v = 0;
            for (int i = 0; i < k; i++) /* order 0: least significant byte first */
                v |= (uint32_t)p[order == 0 ? i : k - 1 - i] << (8 * i);
            uint8_t *q = im->px + ((size_t)y * w + x) * 4;
            q[0] = (uint8_t)((v & rm) >> rs);
            q[1] = (uint8_t)((v & gm) >> gs);
            q[2] = (uint8_t)((v & bm) >> bs);
            q[3] = 255;
        }
    free(d);
    return true;
}

#endif
