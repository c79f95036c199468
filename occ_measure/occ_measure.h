/* occ_measure.h: the measuring half of `warpsim occupancy` (cmd_occupancy.c
 * parses the options and calls these): --measure (predicted beside
 * measured for one launch), --sweep-carveout (the carveout sweep, written
 * to a JSON file) and --analyze-sweep (scoring a sweep file against the
 * model).  The work is in gpu/measure.h. */
#ifndef WARPSIM_OCC_MEASURE_H
#define WARPSIM_OCC_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *arch;      /* --arch/--gpu value, or NULL (the device's) */
    bool sim;              /* --backend sim: the simulator stands in */
    int block, regs, carveout;
    size_t smem_static, smem_dyn;
    unsigned grid;         /* --grid, 0 = automatic */
    double wait_us;        /* --wait-us, 0 = automatic */
    bool json, ncu, tiny;
    int argc;              /* the whole command line, for re-running under ncu */
    char **argv;
} OccMeasureOpts;

/* Each returns the exit status: 0 done, 1 the measurement failed (device
 * error, kernel fault), 2 bad usage; messages go to stderr. */
int occ_measure_one(const OccMeasureOpts *o);
int occ_measure_sweep(const OccMeasureOpts *o, const char *path);
int occ_measure_analyze(const char *path, const char *arch);

#endif
