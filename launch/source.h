/* source.h: getting PTX text for a kernel file: a .ptx is read as it is, a
 * .cu is compiled with `nvcc -ptx -lineinfo -O3` for the chosen arch when
 * nvcc can be found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin). */
#ifndef WARPSIM_SOURCE_H
#define WARPSIM_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* Read a whole file (NUL-terminated; *len bytes).  NULL and msg
 * ("path: ...") when it cannot be read, is not a regular file (a device, a
 * FIFO, a terminal: refused before any read, so /dev/stdin never waits) or
 * is over SOURCE_MAX_PTX bytes. */
char *source_read_file(const char *path, size_t *len, char *msg, size_t cap);

/* Largest .cu accepted for compiling, and largest PTX read back. */
#define SOURCE_MAX_CU (8u << 20)
#define SOURCE_MAX_PTX (256u << 20)

/* Is arch a compute capability nvcc takes ("sm_90", "sm_90a", "sm_100f")? */
bool source_arch_valid(const char *arch);

/* PTX text for path (.ptx or .cu) compiled for arch ("sm_90").  For a .cu,
 * compiler diagnostics go into msg (truncated) and NULL is returned when it
 * fails or nvcc is missing.  The caller frees the result. */
char *source_load_ptx(const char *path, const char *arch, size_t *len, char *msg, size_t cap);
/* The same, and a .cu may also #include "x.h" from include_dir (NULL: none),
 * a folder of headers the course ships (lessons/include: tile.cuh). */
char *source_load_ptx_inc(const char *path, const char *arch, const char *include_dir, size_t *len, char *msg,
                          size_t cap);

/* Path of a CUDA toolkit program ("nvcc", "ptxas") from PATH, then
 * $CUDA_HOME/bin, then /usr/local/cuda/bin; NULL when none is found.  The
 * result lives until the next call on the same thread. */
const char *source_find_tool(const char *tool);
/* source_find_tool("nvcc"). */
const char *source_find_nvcc(void);

#endif
