/* exec_par.h: one launch's SMs on several threads (exec_par.c), what the
 * executor sees of it: starting and ending an attempt, a round, and the
 * notes and saves its memory paths make inside a chunk.  The attempt's own
 * state: exec_par_int.h. */
#ifndef WARPSIM_EXEC_PAR_H
#define WARPSIM_EXEC_PAR_H

#include "exec_int.h"

/* ---- one launch's SMs on several threads (exec_par.c) --------------------- */
/* Runs SM sm for its part of a round, to the cycle limit (exec_sched.c). */
typedef void (*ExecParSlice)(Exec *x, SimSM *sm, uint64_t limit);
typedef struct {
    int threads;              /* threads that ran the launch's rounds */
    uint64_t rounds, rounds_parallel; /* rounds, and those cut into several chunks */
    uint64_t rounds_serial;   /* rounds run on one thread at the end (serial_why) */
    char serial_why[96];      /* "" or why the last rounds_serial rounds ran on one thread */
    uint64_t pages_round;     /* 4 KB pages of global memory copied before a round's write */
    uint64_t pages_kept;      /* of them, kept for the launch (read, then written) */
    bool abandoned;           /* the attempt was given up: run the launch again serially */
    char why[96];             /* why */
} ExecParReport;
/* Start running the launch's rounds on `threads` threads (workers started
 * here): NULL.  Else why the launch runs on one thread (a static string:
 * one thread asked, one SM, anything shared between SMs but memory, a
 * kernel whose blocks would meet: see exec_par.c's banner), and x->par
 * stays NULL. */
const char *exec_par_begin(Exec *x, int threads, ExecParSlice slice);
/* One round: SMs act[0..nact) in chunks side by side, each to limit; *end
 * raised to the furthest clock reached.  false: the attempt was abandoned
 * (the round's effects are not the serial run's); stop the launch. */
bool exec_par_round(Exec *x, const int *act, int nact, uint64_t limit, uint64_t *end);
/* Stop the workers and free the attempt, filling *rep (may be NULL).  true
 * when it was abandoned: global memory is back as it was before the launch,
 * and the caller runs the launch again with x->par NULL. */
bool exec_par_end(Exec *x, ExecParReport *rep);
/* In a chunk (x->pchunk): lanes read (write false) or wrote size bytes of
 * global memory at a.  A write is a plain store (what it leaves does not
 * depend on what was there): read-modify-writes of global memory, the
 * atomics, never run on threads (exec_par.c). */
void exec_par_note(Exec *x, uint64_t a, uint64_t size, bool write);
/* In a chunk: a lane read global memory at a, in allocation al, in a warp
 * access that is not one range (a gather): its 4 KB page is noted whole. */
void exec_par_note_gather(Exec *x, const MemAlloc *al, uint64_t a);
/* In a chunk, before writing size bytes at a in allocation al: their 4 KB
 * pages are saved for the round (by the first chunk to write each; another
 * waits for its copy).  false when memory ran out (the write must not
 * happen). */
bool exec_par_write(Exec *x, const MemAlloc *al, uint64_t a, uint64_t size);
/* In a chunk: exec_atomic_log's work, into the chunk's own log. */
void exec_par_atomic_log(Exec *x, Warp *w, int lane, const char *space, uint64_t addr, uint64_t old,
                         uint64_t val);

#endif
