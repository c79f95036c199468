/* measure.h: measured occupancy.  Runs the synthetic kernel (gpu/synth.h),
 * instrumented for residency (gpu/instrument.h), with exactly the resources
 * of a launch, and lays beside each other what is predicted -- the model's
 * blocks_per_sm and resident_blocks_per_sm (sim/occupancy.h) and the CUDA
 * occupancy API's answer (cuOccupancyMaxActiveBlocksPerMultiprocessor) --
 * and what happens: the most blocks resident per SM at once, the waves and
 * the achieved occupancy (gpu/residency.h).  Also the carveout sweep, many
 * such launches with one kernel, and its scoring against the model.
 *
 * Works on either backend: on a GPU for real; in the simulator (blocks run
 * one after another on SM 0, %globaltimer counts instructions) end to end,
 * for tests, with the model standing in for the occupancy API. */
#ifndef WARPSIM_MEASURE_H
#define WARPSIM_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "occupancy.h"
#include "residency.h"

typedef struct MeasureKernel MeasureKernel; /* opaque: the loaded kernel and its buffers */

/* One measured launch.  Start from measure_config_init(). */
typedef struct {
    int block_size;          /* threads per block (1-D), 1..1024 */
    size_t smem_dynamic;     /* dynamic shared memory per block, bytes */
    int carveout;            /* -1 default, else 0..100 */
    unsigned grid;           /* blocks; 0 = two waves of the most blocks an SM
                                could hold with all its shared memory */
    uint64_t wait_ns;        /* each block's wait; 0 = 50 us on a GPU, 200 ns
                                in the simulator */
    bool timing;             /* the simulator runs its timing model (DeviceLaunch.timing):
                                %globaltimer, so the residency, is modelled time; the
                                GPU ignores it */
} MeasureConfig;

typedef struct {
    /* The launch as it ran. */
    int block_size, carveout;
    size_t smem_dynamic;
    unsigned grid;
    uint64_t wait_ns;
    int regs;                /* registers per thread of the launched kernel
                                (cuFuncGetAttribute; the request in the simulator) */
    size_t smem_static;      /* its static shared memory */
    int sm_count;            /* SMs of the device */
    /* Predicted. */
    OccResult model;         /* occ_compute with regs and smem_static above */
    int api_blocks_per_sm;   /* the occupancy API; the model's blocks_per_sm
                                in the simulator */
    bool api_from_model;     /* true in the simulator */
    /* Measured. */
    Residency res;           /* owned; measure_result_free */
    double sim_achieved_occupancy; /* with timing in the simulator: the timing
                                model's own (sim/timing.h), else -1 */
    double seconds;          /* host time of the launch */
} MeasureResult;

void measure_config_init(MeasureConfig *c);

/* Build the synthetic kernel with regs registers and smem_static bytes of
 * static shared memory, instrument it and load it on d.  SIM_OK and *out,
 * or the error of the step that failed (bad values: SIM_ERR_USAGE). */
SimStatus measure_kernel_load(Device *d, int regs, size_t smem_static, MeasureKernel **out,
                              SimError *err);
void measure_kernel_free(MeasureKernel *k);

/* Set the carveout and dynamic-shared-memory attributes, ask the occupancy
 * API, launch, read the records back and compute the residency.  SIM_OK
 * and *r filled; SIM_ERR_USAGE for a launch that cannot run (the model
 * gives 0 blocks per SM, say why), SIM_ERR_FAULT if the kernel faulted,
 * or the device's error. */
SimStatus measure_run(MeasureKernel *k, const MeasureConfig *c, MeasureResult *r, SimError *err);
void measure_result_free(MeasureResult *r);

/* ---- the carveout sweep ---------------------------------------------- */

/* One configuration of a sweep, as written to and read from its JSON. */
typedef struct {
    int block, regs, carveout;
    long smem_static, smem_dyn;
    int api;                 /* occupancy API's blocks per SM */
    int measured;            /* measured max resident blocks per SM */
    int waves;
    double achieved;
} SweepRow;

/* The configurations of the standard sweep (block sizes 32..1024, dynamic
 * shared memory 0..100 KB, carveouts -1, 0, 10, 25, 50, 100: 504) or, with
 * tiny, 8 of them.  Returns the count; rows[0..n) get block, smem_dyn,
 * carveout (the rest zero).  rows may be NULL to count. */
int measure_sweep_configs(bool tiny, SweepRow *rows);

/* Write one row as a JSON object on one line (no trailing comma). */
void measure_sweep_row_json(FILE *f, const SweepRow *r);

/* Read a row back from one line written by measure_sweep_row_json: true
 * when the line holds "block", "smem_dyn", "carveout", "api" and
 * "measured". */
bool measure_sweep_row_parse(const char *line, SweepRow *r);

/* Scores of a sweep: how many rows each prediction gets exactly right. */
typedef struct {
    int rows;
    int api_vs_measured;       /* API answer == measured residency */
    int model_vs_api;          /* model blocks_per_sm == API (must be all) */
    int model_vs_measured;     /* model resident_blocks_per_sm == measured */
    int max_shared_vs_measured;/* hypothesis: the carveout is ignored and all
                                  shared memory is available (carveout 100) */
    int measured_above_api;    /* rows where the driver kept more than the API */
    int measured_below_api;    /* rows where fewer were seen (too short a wait?) */
} SweepScore;

/* Score rows against the model on arch a.  When report is non-NULL, every
 * row where the measurement differs from the model's
 * resident_blocks_per_sm is written to it, one line each. */
void measure_sweep_score(const ArchProfile *a, const SweepRow *rows, int n, SweepScore *s,
                         FILE *report);

#endif
