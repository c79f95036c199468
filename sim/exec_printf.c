/* exec_printf.c: the device-side printf (a call to vprintf).  The format
 * string and the packed argument buffer are read from simulated memory;
 * each argument sits at its natural alignment (floats are promoted to
 * double, as CUDA does).  Output goes to the launch's text buffer. */
#include "exec_int.h"
#include "file_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXEC_PRINTF_MAX_FIELD 400u /* largest width or precision honoured */

static void out_append(Exec *x, const char *s, size_t n)
{
    if (x->out_len + n + 1 > x->out_cap) {
        size_t cap = x->out_cap ? x->out_cap * 2 : 4096;
        while (cap < x->out_len + n + 1)
            cap *= 2;
        if (cap > DEVICE_PRINTF_MAX) {
            x->out_dropped += n; /* reported: DeviceStats.printf_dropped */
            return;
        }
        char *no = realloc(x->out, cap);
        if (!no) {
            x->out_dropped += n;
            return;
        }
        x->out = no;
        x->out_cap = cap;
    }
    memcpy(x->out + x->out_len, s, n);
    x->out_len += n;
    x->out[x->out_len] = 0;
}

static bool read_mem(Exec *x, Warp *w, const SimInst *in, int l, uint64_t a, void *dst, unsigned n)
{
    uint8_t *p = exec_addr(x, w, in, l, PTX_SPACE_NONE, a, n, false);
    if (!p)
        return false;
    memcpy(dst, p, n);
    return true;
}

/* The bytes a generic read by lane l can take at address a without a
 * fault: their host pointer, and in *avail how many follow in the same
 * allocation or window (the windows as exec_addr decodes them).  NULL when
 * a is not readable; no fault is recorded. */
static const uint8_t *readable(Exec *x, Warp *w, int l, uint64_t a, uint64_t *avail)
{
    *avail = 0;
    uint64_t lim;
    uint8_t *base;
    int tid = exec_tid(w, l);
    if (a >= MEM_SHARED_WIN && a < MEM_SHARED_WIN + MEM_WIN_SIZE) {
        a -= MEM_SHARED_WIN;
        lim = x->shared_size;
        base = w->blk->shared;
    } else if (a >= MEM_LOCAL_WIN && a < MEM_LOCAL_WIN + MEM_WIN_SIZE) {
        a -= MEM_LOCAL_WIN;
        lim = x->prog->local_size;
        base = w->blk->local + (uint64_t)tid * x->prog->local_size;
    } else if (a >= MEM_CONST_WIN && a < MEM_CONST_WIN + MEM_WIN_SIZE) {
        a -= MEM_CONST_WIN;
        lim = x->prog->const_size;
        base = x->prog->const_bank;
    } else if (a >= MEM_PARAM_WIN && a < MEM_PARAM_WIN + MEM_WIN_SIZE) {
        a -= MEM_PARAM_WIN;
        lim = x->params_size;
        base = x->params;
    } else {
        MemAlloc *al = mem_find(x->mem, a, 1);
        if (!al)
            return NULL;
        *avail = al->size - (a - al->addr);
        return al->host + (a - al->addr);
    }
    if (a >= lim)
        return NULL;
    *avail = lim - a;
    return base + a;
}

/* Read a NUL-terminated string of at most cap-1 bytes.  A run of readable
 * bytes at a time (readable, above): every lane of every printf reads its format
 * this way, and a byte at a time through exec_addr was most of the cost of
 * a kernel that prints.  An unreadable byte faults exactly as a 1-byte
 * read there would. */
static bool read_str(Exec *x, Warp *w, const SimInst *in, int l, uint64_t a, char *buf, size_t cap)
{
    size_t i = 0;
    while (i + 1 < cap) {
        uint64_t avail;
        const uint8_t *p = readable(x, w, l, a + i, &avail);
        if (!p) {
            uint8_t c;
            return read_mem(x, w, in, l, a + i, &c, 1); /* faults: not readable */
        }
        size_t n = cap - 1 - i < avail ? cap - 1 - i : (size_t)avail;
        const uint8_t *z = memchr(p, 0, n);
        if (z) {
            memcpy(buf + i, p, (size_t)(z - p) + 1);
            return true;
        }
        memcpy(buf + i, p, n);
        i += n;
    }
    buf[i] = 0;
    return true;
}

static void vprintf_body(Exec *x, Warp *w, const SimInst *in, int l, uint64_t fmt, uint64_t args);

/* One printf call's text, remembered with who printed it so that the
 * launch's output can be put in block, warp, lane order at the end. */
void exec_vprintf(Exec *x, Warp *w, const SimInst *in, int l, uint64_t fmt, uint64_t args)
{
    size_t start = x->out_len;
    if (x->printf_limit && x->out_len + x->out_dropped > x->printf_limit)
        return; /* stopped (below): the warp's other lanes print nothing more */
    vprintf_body(x, w, in, l, fmt, args);
    if (x->printf_limit && x->out_len + x->out_dropped > x->printf_limit) {
        char lim[32];
        exec_fault(x, w, in, l, "printf-limit", 0,
                   "printf wrote more than %s, this launch's printf limit; the launch was stopped",
                   file_size_text(x->printf_limit, lim, sizeof lim));
    }
    if (x->out_len == start)
        return;
    if (x->n_prints == x->cap_prints) {
        size_t cap = x->cap_prints ? x->cap_prints * 2 : 64;
        ExecPrint *np = realloc(x->prints, cap * sizeof *np);
        if (!np)
            return;
        x->prints = np;
        x->cap_prints = cap;
    }
    x->prints[x->n_prints++] = (ExecPrint){.block = w->blk->linear, .tid = (uint32_t)exec_tid(w, l),
                                           .seq = x->n_prints, .start = start, .len = x->out_len - start};
}

static int print_cmp(const void *a, const void *b)
{
    const ExecPrint *p = a, *q = b;
    if (p->block != q->block)
        return p->block < q->block ? -1 : 1;
    if (p->tid / WARP != q->tid / WARP)
        return p->tid / WARP < q->tid / WARP ? -1 : 1;
    if (p->seq != q->seq) /* a warp's lanes print one call after another */
        return p->seq < q->seq ? -1 : 1;
    return 0;
}

void exec_printf_finish(Exec *x)
{
    if (x->n_prints > 1 && x->out) {
        qsort(x->prints, x->n_prints, sizeof *x->prints, print_cmp);
        char *sorted = malloc(x->out_len + 1);
        if (sorted) {
            size_t o = 0;
            for (size_t i = 0; i < x->n_prints; i++) {
                memcpy(sorted + o, x->out + x->prints[i].start, x->prints[i].len);
                o += x->prints[i].len;
            }
            sorted[o] = 0;
            free(x->out);
            x->out = sorted;
            x->out_len = o;
            x->out_cap = o + 1;
        }
    }
    free(x->prints);
    x->prints = NULL;
    x->n_prints = x->cap_prints = 0;
}

static void vprintf_body(Exec *x, Warp *w, const SimInst *in, int l, uint64_t fmt, uint64_t args)
{
    char f[1024];
    if (!read_str(x, w, in, l, fmt, f, sizeof f))
        return;
    uint64_t ap = args;
    char piece[512];
    for (const char *s = f; *s;) {
        if (*s != '%') {
            const char *e = strchr(s, '%');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            out_append(x, s, n);
            s += n;
            continue;
        }
        if (s[1] == '%') {
            out_append(x, "%", 1);
            s += 2;
            continue;
        }
        /* %[flags][width][.prec][length]conv */
        char spec[32];
        size_t k = 0;
        spec[k++] = *s++;
        while (*s && strchr("-+ #0", *s) && k < 20)
            spec[k++] = *s++;
        /* width and .precision, each capped: one conversion fits in piece,
         * and "%.999999999f" must not make the host's printf work for
         * seconds or allocate a gigabyte */
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (*s != '.')
                    break;
                spec[k++] = *s++;
            }
            unsigned v = 0;
            bool any = false;
            for (; *s >= '0' && *s <= '9'; s++, any = true)
                if (v < 1000)
                    v = v * 10 + (unsigned)(*s - '0');
            if (any)
                k += (size_t)snprintf(spec + k, sizeof spec - k, "%u", v > EXEC_PRINTF_MAX_FIELD
                                                                        ? EXEC_PRINTF_MAX_FIELD : v);
        }
        int lng = 0;
        while (*s == 'l' || *s == 'h' || *s == 'z' || *s == 'j' || *s == 't') {
            if (*s == 'l' || *s == 'z' || *s == 'j' || *s == 't')
                lng++;
            s++;
        }
        char conv = *s ? *s++ : 0;
        int n = 0;
        if (strchr("diouxXc", conv) && conv) {
            unsigned sz = lng ? 8 : 4;
            ap = (ap + sz - 1) & ~(uint64_t)(sz - 1);
            uint64_t v = 0;
            if (!read_mem(x, w, in, l, ap, &v, sz))
                return;
            ap += sz;
            spec[k++] = 'l';
            spec[k++] = 'l';
            spec[k++] = conv;
            spec[k] = 0;
            if (conv == 'd' || conv == 'i')
                n = snprintf(piece, sizeof piece, spec, sz == 4 ? (long long)(int32_t)v : (long long)v);
            else if (conv == 'c') {
                spec[k - 3] = 'c';
                spec[k - 2] = 0;
                n = snprintf(piece, sizeof piece, spec, (int)(uint8_t)v);
            } else
                n = snprintf(piece, sizeof piece, spec, sz == 4 ? (unsigned long long)(uint32_t)v
                                                                 : (unsigned long long)v);
        } else if (conv && strchr("fFeEgGaA", conv)) {
            ap = (ap + 7) & ~7ull;
            double v;
            if (!read_mem(x, w, in, l, ap, &v, 8))
                return;
            ap += 8;
            spec[k++] = conv;
            spec[k] = 0;
            n = snprintf(piece, sizeof piece, spec, v);
        } else if (conv == 's' || conv == 'p') {
            ap = (ap + 7) & ~7ull;
            uint64_t p;
            if (!read_mem(x, w, in, l, ap, &p, 8))
                return;
            ap += 8;
            if (conv == 'p') {
                n = snprintf(piece, sizeof piece, "0x%llx", (unsigned long long)p);
            } else {
                char str[256];
                if (!p)
                    snprintf(str, sizeof str, "(null)");
                else if (!read_str(x, w, in, l, p, str, sizeof str))
                    return;
                spec[k++] = 's';
                spec[k] = 0;
                n = snprintf(piece, sizeof piece, spec, str);
            }
        } else {
            /* unknown conversion: print it as written */
            spec[k++] = conv;
            spec[k] = 0;
            n = snprintf(piece, sizeof piece, "%s", spec);
        }
        if (n > 0)
            out_append(x, piece, (size_t)n < sizeof piece ? (size_t)n : sizeof piece - 1);
    }
}
