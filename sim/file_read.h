/* file_read.h: reading a user's file with a stated limit.  Every reader of
 * a file a user names (PTX, traces, xcheck recordings, --arg file:, step
 * scripts, the sources a trace names) comes through here, so that a device
 * (/dev/zero), a FIFO or a terminal is refused instead of read forever or
 * waited on, and a file over the limit is refused before anything is
 * allocated for it. */
#ifndef WARPSIM_FILE_READ_H
#define WARPSIM_FILE_READ_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* Read the whole of path into a malloc'd buffer with a NUL after the last
 * byte; *len gets the size.  what names the file in messages ("trace",
 * "PTX file").  Only regular files are read: anything else (a character or
 * block device, a FIFO or pipe, a socket, a folder) is NULL with SIM_ERR_IO
 * "... is a character device, not a regular file ...", decided before any
 * read, so a FIFO without a writer does not block.  A file whose size is
 * over limit bytes is NULL with SIM_ERR_IO naming both sizes; a file that
 * grows past limit while it is read (or a /proc file, whose size says 0) is
 * refused when it passes limit.  SIM_ERR_NOMEM when memory runs out.  The
 * caller frees the result. */
char *file_read_all(const char *path, size_t limit, const char *what, size_t *len, SimError *err);

/* Open path for reading ("rb") after the same checks as file_read_all: a
 * regular file no bigger than limit bytes (0: any size).  The caller reads
 * it and fcloses it.  NULL with err filled otherwise. */
FILE *file_open_regular(const char *path, size_t limit, const char *what, SimError *err);

/* "1.5 GiB", "64 KiB", "300 bytes" for messages: into buf, returned. */
const char *file_size_text(unsigned long long bytes, char *buf, size_t cap);

#endif
