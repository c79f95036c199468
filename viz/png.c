/* png.c: RGBA -> PNG through libpng (see png.h).  libpng reports errors by
 * longjmp; everything it could leak is released on that path. */
#include "png.h"

#include <errno.h>
/* libpng by its versioned path: -Iviz would make <png.h> find this folder's png.h */
#include <libpng16/png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

SimStatus viz_png_write(const char *path, const uint8_t *rgba, int width, int height,
                        int stride, SimError *err)
{
    if (width <= 0 || height <= 0 || stride < 4 * width || !rgba)
        return sim_error_set(err, SIM_ERR_USAGE, path, 0, 0,
                             "bad image: %d x %d pixels, stride %d", width, height, stride);
    FILE *f = fopen(path, "wb");
    if (!f)
        return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info)
        goto fail;
    if (setjmp(png_jmpbuf(png)))
        goto fail;
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; y++)
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * (size_t)stride));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0) {
        remove(path);
        return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    }
    return SIM_OK;
fail:
    png_destroy_write_struct(&png, info ? &info : NULL);
    fclose(f);
    remove(path);
    return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot write the PNG image");
}
