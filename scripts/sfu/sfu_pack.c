/* sfu_pack.c: packs measured SFU tables (raw little-endian uint32 files) into
 * the blob sim/sfu_tables.bin that sim/sfu_table.c embeds and decodes.
 *
 * Blob: "WSFUTAB1", then records: name (16 bytes, NUL padded), entry count
 * (u32 LE), compressed length (u32 LE), zlib stream of the entries' second
 * differences (of the order-preserving integer view of each value) as zigzag
 * varints.  usage: sfu_pack [-a] OUT.bin NAME FILE.u32 ...  (-a appends
 * records to an existing blob). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int64_t ord_of(uint32_t u)
{
    return (u & 0x80000000u) ? -(int64_t)(u & 0x7fffffffu) - 1 : (int64_t)u;
}

static void put32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {v, v >> 8, v >> 16, v >> 24};
    fwrite(b, 1, 4, f);
}

int main(int argc, char **argv)
{
    int a = 1, append = 0;
    if (argc > 1 && !strcmp(argv[1], "-a")) { append = 1; a++; }
    if (argc - a < 3 || (argc - a) % 2 != 1) {
        fprintf(stderr, "usage: sfu_pack [-a] OUT.bin NAME FILE.u32 ...\n");
        return 2;
    }
    FILE *out = fopen(argv[a], append ? "ab" : "wb");
    if (!out) { perror(argv[a]); return 1; }
    if (!append) fwrite("WSFUTAB1", 1, 8, out);
    for (int i = a + 1; i + 1 < argc; i += 2) {
        FILE *f = fopen(argv[i + 1], "rb");
        if (!f) { perror(argv[i + 1]); return 1; }
        fseek(f, 0, SEEK_END);
        long n = ftell(f) / 4;
        fseek(f, 0, SEEK_SET);
        uint32_t *v = malloc(4 * (size_t)n);
        if (fread(v, 4, (size_t)n, f) != (size_t)n) { fprintf(stderr, "short read\n"); return 1; }
        fclose(f);
        unsigned char *raw = malloc(10 * (size_t)n + 16);
        size_t k = 0;
        int64_t p = 0, pp = 0;
        for (long j = 0; j < n; j++) {
            int64_t s = ord_of(v[j]), d = s - 2 * p + pp;
            pp = p;
            p = s;
            uint64_t z = ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
            while (z >= 128) { raw[k++] = (unsigned char)(z | 128); z >>= 7; }
            raw[k++] = (unsigned char)z;
        }
        uLongf zl = compressBound(k);
        unsigned char *zb = malloc(zl);
        if (compress2(zb, &zl, raw, k, 9) != Z_OK) { fprintf(stderr, "zlib failed\n"); return 1; }
        char name[16] = {0};
        strncpy(name, argv[i], 15);
        fwrite(name, 1, 16, out);
        put32(out, (uint32_t)n);
        put32(out, (uint32_t)zl);
        fwrite(zb, 1, zl, out);
        printf("%-12s %9ld entries %8lu bytes\n", name, n, (unsigned long)zl);
        free(v); free(raw); free(zb);
    }
    fclose(out);
    return 0;
}
