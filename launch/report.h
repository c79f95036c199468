/* report.h: printing what a launch produced -- errors with their source
 * line and caret, fault reports, buffers (text and JSON) and statistics --
 * shared by `warpsim run`, `warpsim lesson` and the tools after them. */
#ifndef WARPSIM_REPORT_H
#define WARPSIM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "argspec.h"
#include "device.h"
#include "error.h"

/* "file:line:col: error: msg", the source line and a caret, on f. */
void report_error(FILE *f, const SimError *e, const char *source, size_t len);

/* A fault as a student reads it: what, where in the .cu and the PTX, which
 * block and thread. */
void report_fault(FILE *f, const DeviceFault *fault);
/* The same as a JSON object (no trailing newline). */
void report_fault_json(FILE *f, const DeviceFault *fault);

/* The statistics of a launch: text lines (simulated: every counter; else
 * what a GPU run knows), or a JSON object. */
void report_stats(FILE *f, const DeviceStats *s, bool simulated);
void report_stats_json(FILE *f, const DeviceStats *s);
/* The timing model's results (stats.timing, when .on): text lines (the
 * modelled cycles, occupancy, hit rates, the stall reasons that matter), or
 * the "timing" JSON object of the stats (docs/timing.md lists its keys). */
void report_timing(FILE *f, const DeviceTiming *t, uint64_t cycles);
void report_timing_json(FILE *f, const DeviceTiming *t);

/* Race findings of a launch run with --check races: a paragraph each
 * (kind, space, address, the two threads and lines), or a JSON array. */
void report_races(FILE *f, const Device *d);
void report_races_json(FILE *f, const Device *d);
/* The order of atomic element updates on the first addresses updated, as a
 * JSON array ({"space", "address", "total", "updates": [...]}). */
void report_atomic_log_json(FILE *f, const Device *d);

/* Print a JSON string literal (quotes and escapes). */
void report_json_string(FILE *f, const char *s);

#endif
