/* argspec.c: parsing --arg specs and generating their inputs (argspec.h). */
#include "argspec.h"

#include "file_read.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    PtxType t;
} types[] = {
    {"i8", PTX_T_S8}, {"u8", PTX_T_U8}, {"i16", PTX_T_S16}, {"u16", PTX_T_U16},
    {"i32", PTX_T_S32}, {"u32", PTX_T_U32}, {"i64", PTX_T_S64}, {"u64", PTX_T_U64},
    {"f32", PTX_T_F32}, {"f64", PTX_T_F64},
};

PtxType argspec_type(const char *name)
{
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (!strcmp(types[i].name, name))
            return types[i].t;
    return PTX_T_NONE;
}

const char *argspec_type_name(PtxType t)
{
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (types[i].t == t)
            return types[i].name;
    return "?";
}

int argspec_type_size(PtxType t)
{
    switch (t) {
    case PTX_T_S8: case PTX_T_U8: return 1;
    case PTX_T_S16: case PTX_T_U16: return 2;
    case PTX_T_S32: case PTX_T_U32: case PTX_T_F32: return 4;
    case PTX_T_S64: case PTX_T_U64: case PTX_T_F64: return 8;
    default: return 0;
    }
}

uint64_t argspec_splitmix64(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ull;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void put(PtxType t, uint8_t *dst, uint64_t bits)
{
    memcpy(dst, &bits, (size_t)argspec_type_size(t)); /* little-endian host */
}

void argspec_fill_rand(PtxType t, uint64_t seed, uint8_t *dst, uint64_t n)
{
    uint64_t st = seed;
    int sz = argspec_type_size(t);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t z = argspec_splitmix64(&st), v;
        if (t == PTX_T_F32) {
            float f = (float)((double)(z >> 40) * 0x1p-24 * 2 - 1);
            uint32_t b;
            memcpy(&b, &f, 4);
            v = b;
        } else if (t == PTX_T_F64) {
            double d = (double)(z >> 11) * 0x1p-53 * 2 - 1;
            memcpy(&v, &d, 8);
        } else if (sz == 8) {
            v = z;
        } else {
            v = z >> 32; /* 32-bit; 8/16-bit keep its low bits */
        }
        put(t, dst + i * (uint64_t)sz, v);
    }
}

/* Parse one scalar value of type t; false when it does not fit. */
static bool parse_value(PtxType t, const char *s, uint64_t *out)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    if (t == PTX_T_F32 || t == PTX_T_F64) {
        double d;
        if (!strcmp(s, "nan")) d = NAN;
        else if (!strcmp(s, "inf")) d = INFINITY;
        else if (!strcmp(s, "-inf")) d = -INFINITY;
        else {
            d = strtod(s, &end);
            if (*end)
                return false;
        }
        if (t == PTX_T_F32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            *out = b;
        } else {
            memcpy(out, &d, 8);
        }
        return true;
    }
    int sz = argspec_type_size(t);
    bool sgn = t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
    if (sgn) {
        long long v = strtoll(s, &end, 0);
        if (*end || errno)
            return false;
        if (sz < 8) {
            long long lo = -(1ll << (sz * 8 - 1)), hi = (1ll << (sz * 8 - 1)) - 1;
            if (v < lo || v > hi)
                return false;
        }
        *out = (uint64_t)v & (sz == 8 ? ~0ull : (1ull << (sz * 8)) - 1);
    } else {
        if (*s == '-')
            return false;
        unsigned long long v = strtoull(s, &end, 0);
        if (*end || errno)
            return false;
        if (sz < 8 && v >> (sz * 8))
            return false;
        *out = v;
    }
    return true;
}

bool argspec_parse(const char *spec, ArgSpec *out, char *msg, size_t cap)
{
    memset(out, 0, sizeof *out);
    out->text = spec;
    const char *colon = strchr(spec, ':');
    if (!colon) {
        snprintf(msg, cap, "--arg '%s': expected TYPE:VALUE (e.g. i32:5), buf:T[N]=INIT or val:T[N]=INIT", spec);
        return false;
    }
    char head[16];
    size_t hl = (size_t)(colon - spec);
    if (hl >= sizeof head) {
        snprintf(msg, cap, "--arg '%s': unknown type '%.*s'", spec, (int)hl, spec);
        return false;
    }
    memcpy(head, spec, hl);
    head[hl] = 0;
    if (strcmp(head, "buf") && strcmp(head, "val")) {
        PtxType t = argspec_type(head);
        if (t == PTX_T_NONE || argspec_type_size(t) < 4) {
            snprintf(msg, cap, "--arg '%s': unknown scalar type '%s' (i32 u32 i64 u64 f32 f64)", spec, head);
            return false;
        }
        out->type = t;
        if (!parse_value(t, colon + 1, &out->scalar)) {
            snprintf(msg, cap, "--arg '%s': '%s' is not a valid %s", spec, colon + 1, head);
            return false;
        }
        return true;
    }
    /* buf:T[N]=INIT, val:T[N]=INIT */
    out->by_value = head[0] == 'v';
    out->is_buffer = !out->by_value;
    const char *p = colon + 1, *lb = strchr(p, '['), *rb = lb ? strchr(lb, ']') : NULL;
    if (!lb || !rb || rb[1] != '=') {
        snprintf(msg, cap, "--arg '%s': expected %s:T[N]=INIT, e.g. %s:i32[1024]=iota", spec, head, head);
        return false;
    }
    char tn[8];
    size_t tl = (size_t)(lb - p);
    if (tl == 0 || tl >= sizeof tn) {
        snprintf(msg, cap, "--arg '%s': missing element type before '['", spec);
        return false;
    }
    memcpy(tn, p, tl);
    tn[tl] = 0;
    out->type = argspec_type(tn);
    if (out->type == PTX_T_NONE) {
        snprintf(msg, cap, "--arg '%s': unknown element type '%s' (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)",
                 spec, tn);
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(lb + 1, &end, 10);
    if (end != rb || errno || n == 0 || n > (1ull << 28) || lb[1] == '-') {
        snprintf(msg, cap, "--arg '%s': element count must be 1 to 268435456", spec);
        return false;
    }
    int sz = argspec_type_size(out->type);
    out->count = n;
    out->data = calloc(n, (size_t)sz);
    if (!out->data) {
        snprintf(msg, cap, "--arg '%s': out of memory", spec);
        return false;
    }
    const char *init = rb + 2;
    if (!strncmp(init, "fill:", 5)) {
        uint64_t v;
        if (!parse_value(out->type, init + 5, &v)) {
            snprintf(msg, cap, "--arg '%s': '%s' is not a valid %s", spec, init + 5, tn);
            goto fail;
        }
        for (uint64_t i = 0; i < n; i++)
            put(out->type, out->data + i * (uint64_t)sz, v);
    } else if (!strcmp(init, "iota")) {
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = i;
            if (out->type == PTX_T_F32) {
                float f = (float)i;
                uint32_t b;
                memcpy(&b, &f, 4);
                v = b;
            } else if (out->type == PTX_T_F64) {
                double d = (double)i;
                memcpy(&v, &d, 8);
            }
            put(out->type, out->data + i * (uint64_t)sz, v);
        }
    } else if (!strncmp(init, "list:", 5)) {
        char *copy = strdup(init + 5);
        if (!copy)
            goto fail;
        uint64_t i = 0;
        for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            uint64_t v;
            if (i >= n) {
                snprintf(msg, cap, "--arg '%s': the list has more than %llu values", spec, n);
                free(copy);
                goto fail;
            }
            if (!parse_value(out->type, tok, &v)) {
                snprintf(msg, cap, "--arg '%s': '%s' is not a valid %s", spec, tok, tn);
                free(copy);
                goto fail;
            }
            put(out->type, out->data + i++ * (uint64_t)sz, v);
        }
        free(copy);
    } else if (!strncmp(init, "rand:", 5)) {
        uint64_t seed;
        if (!parse_value(PTX_T_U64, init + 5, &seed)) {
            snprintf(msg, cap, "--arg '%s': seed '%s' is not an unsigned 64-bit integer", spec, init + 5);
            goto fail;
        }
        argspec_fill_rand(out->type, seed, out->data, n);
    } else if (!strncmp(init, "file:", 5)) {
        /* a regular file only: /dev/zero or a FIFO would fill the buffer
         * with whatever they give, or wait */
        SimError e;
        FILE *f = file_open_regular(init + 5, 0, "data file", &e);
        if (!f) {
            snprintf(msg, cap, "--arg '%s': '%s': %s", spec, init + 5, e.msg);
            goto fail;
        }
        size_t got = fread(out->data, (size_t)sz, n, f);
        fclose(f);
        if (got != n) {
            snprintf(msg, cap, "--arg '%s': '%s' holds %zu elements of %s, %llu needed", spec, init + 5, got,
                     tn, n);
            goto fail;
        }
    } else {
        snprintf(msg, cap, "--arg '%s': unknown INIT '%s' (fill:V, iota, list:V,V,..., rand:SEED, file:PATH)",
                 spec, init);
        goto fail;
    }
    return true;
fail:
    argspec_free(out);
    return false;
}

void argspec_free(ArgSpec *a)
{
    free(a->data);
    a->data = NULL;
}

static uint64_t get(PtxType t, const uint8_t *e)
{
    uint64_t v = 0;
    memcpy(&v, e, (size_t)argspec_type_size(t));
    return v;
}

void argspec_format_text(PtxType t, const uint8_t *e, char *buf, size_t cap)
{
    uint64_t v = get(t, e);
    switch (t) {
    case PTX_T_S8: snprintf(buf, cap, "%d", (int8_t)v); break;
    case PTX_T_S16: snprintf(buf, cap, "%d", (int16_t)v); break;
    case PTX_T_S32: snprintf(buf, cap, "%d", (int32_t)v); break;
    case PTX_T_S64: snprintf(buf, cap, "%" PRId64, (int64_t)v); break;
    case PTX_T_F32: {
        float f;
        uint32_t b = (uint32_t)v;
        memcpy(&f, &b, 4);
        if (isnan(f)) snprintf(buf, cap, "nan");
        else if (isinf(f)) snprintf(buf, cap, f > 0 ? "inf" : "-inf");
        else snprintf(buf, cap, "%.9g", (double)f);
        break;
    }
    case PTX_T_F64: {
        double d;
        memcpy(&d, &v, 8);
        if (isnan(d)) snprintf(buf, cap, "nan");
        else if (isinf(d)) snprintf(buf, cap, d > 0 ? "inf" : "-inf");
        else snprintf(buf, cap, "%.17g", d);
        break;
    }
    default: snprintf(buf, cap, "%" PRIu64, v); break;
    }
}

void argspec_format_json(PtxType t, const uint8_t *e, char *buf, size_t cap)
{
    argspec_format_text(t, e, buf, cap);
    if (!strcmp(buf, "nan") || !strcmp(buf, "inf") || !strcmp(buf, "-inf")) {
        char tmp[8];
        snprintf(tmp, sizeof tmp, "%s", buf);
        snprintf(buf, cap, "\"%s\"", tmp);
    }
}

void argspec_format_hex(PtxType t, const uint8_t *e, char *buf, size_t cap)
{
    int sz = argspec_type_size(t);
    snprintf(buf, cap, "%0*" PRIx64, sz * 2, get(t, e));
}
