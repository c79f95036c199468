/* error.c: filling and rendering SimError records (see error.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sim_error_clear(SimError *e)
{
    if (e)
        memset(e, 0, sizeof *e);
}

SimStatus sim_error_set(SimError *e, SimStatus status, const char *file,
                        int line, int col, const char *fmt, ...)
{
    if (!e)
        return status;
    e->status = status;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    e->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return status;
}

/* Find line `line` (1-based) of src; sets *len. NULL when absent. */
static const char *find_line(const char *src, size_t n, int line, size_t *len)
{
    size_t i = 0;
    for (int l = 1; l < line; l++) {
        const char *nl = memchr(src + i, '\n', n - i);
        if (!nl)
            return NULL;
        i = (size_t)(nl - src) + 1;
    }
    if (i > n)
        return NULL;
    const char *nl = memchr(src + i, '\n', n - i);
    *len = nl ? (size_t)(nl - (src + i)) : n - i;
    if (*len && src[i + *len - 1] == '\r')
        (*len)--;
    return src + i;
}

char *sim_error_format(const SimError *e, const char *source, size_t source_len,
                       char *buf, size_t cap)
{
    size_t o = 0;
    if (!cap)
        return buf;
    buf[0] = 0;
#define PUT(...)                                                 \
    do {                                                         \
        int k_ = snprintf(buf + o, cap - o, __VA_ARGS__);        \
        if (k_ < 0)                                              \
            return buf;                                          \
        o += (size_t)k_;                                         \
        if (o >= cap)                                            \
            return buf;                                          \
    } while (0)
    if (e->file[0] && e->line > 0 && e->col > 0)
        PUT("%s:%d:%d: error: %s\n", e->file, e->line, e->col, e->msg);
    else if (e->file[0] && e->line > 0)
        PUT("%s:%d: error: %s\n", e->file, e->line, e->msg);
    else if (e->file[0])
        PUT("%s: error: %s\n", e->file, e->msg);
    else
        PUT("error: %s\n", e->msg);
    size_t len;
    const char *l = source && e->line > 0 ? find_line(source, source_len, e->line, &len) : NULL;
    if (l) {
        if (len > 200)
            len = 200;
        PUT("%5d | %.*s\n", e->line, (int)len, l);
        if (e->col > 0 && (size_t)e->col <= len + 1) {
            PUT("      | ");
            for (int c = 1; c < e->col; c++)
                PUT("%c", l[c - 1] == '\t' ? '\t' : ' ');
            PUT("^\n");
        }
    }
#undef PUT
    return buf;
}

const char *sim_status_name(SimStatus s)
{
    switch (s) {
    case SIM_OK: return "ok";
    case SIM_ERR_PARSE: return "parse error";
    case SIM_ERR_UNSUPPORTED: return "unsupported";
    case SIM_ERR_USAGE: return "bad usage";
    case SIM_ERR_IO: return "i/o error";
    case SIM_ERR_NOMEM: return "out of memory";
    case SIM_ERR_FAULT: return "kernel fault";
    case SIM_ERR_NODEVICE: return "no device";
    }
    return "error";
}
