/* error.h: the error record every warpsim library call fills instead of
 * printing or exiting.  The CLI turns it into "file:line:col: error: ..."
 * followed by the offending source line and a caret (chibicc style). */
#ifndef WARPSIM_ERROR_H
#define WARPSIM_ERROR_H

#include <stddef.h>

typedef enum {
    SIM_OK = 0,
    SIM_ERR_PARSE,       /* malformed PTX or other input text */
    SIM_ERR_UNSUPPORTED, /* well-formed but not supported by the simulator */
    SIM_ERR_USAGE,       /* bad argument to an API call (unknown kernel, ...) */
    SIM_ERR_IO,          /* a file could not be read or written */
    SIM_ERR_NOMEM,
    SIM_ERR_FAULT,       /* the simulated kernel faulted (see SimFault) */
    SIM_ERR_NODEVICE     /* a backend is not available on this machine */
} SimStatus;

typedef struct {
    SimStatus status;
    char file[256];   /* input the problem is in, "" when none */
    int line;         /* 1-based; 0 when the problem has no position */
    int col;          /* 1-based; 0 when unknown */
    char msg[512];
} SimError;

/* Clear an error record to SIM_OK. */
void sim_error_clear(SimError *e);

/* Fill e (when non-NULL) and return status, so callers can write
 * `return sim_error_set(err, SIM_ERR_PARSE, path, line, col, "...", ...);` */
SimStatus sim_error_set(SimError *e, SimStatus status, const char *file,
                        int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Render e as text into buf: "file:line:col: error: msg", then, when
 * source is given and the line exists in it, the line and a caret under
 * col.  Returns buf. */
char *sim_error_format(const SimError *e, const char *source, size_t source_len,
                       char *buf, size_t cap);

/* "parse error", "unsupported", ... */
const char *sim_status_name(SimStatus s);

#endif
