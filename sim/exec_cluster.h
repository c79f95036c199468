/* exec_cluster.h: thread block clusters of more than one CTA (sm_90,
 * exec_cluster.c) -- what exec_run.c, exec_sched.c, exec_mem.c, exec_ctrl.c,
 * exec_hint.c and exec_race.c share about them.  A launch with clusters
 * (DeviceLaunch.cluster or the kernel's __cluster_dims__) dispatches a
 * cluster's CTAs together onto free slots of one GPC (arch_gpc_layout),
 * gives them distributed shared memory and barrier.cluster.  A launch
 * without clusters has x->cl == NULL and runs each CTA as a cluster of one. */
#ifndef WARPSIM_EXEC_CLUSTER_H
#define WARPSIM_EXEC_CLUSTER_H

#include "exec_int.h"

#define EXEC_CLUSTER_MAX 16
/* A shared::cluster address (an offset in the shared window, generic or
 * not) names CTA rank r of the cluster with r + 1 in bits 24..28, its own
 * CTA with 0 there (the shared::cta window lies inside the shared::cluster
 * one, PTX ISA 5.1.4); a CTA's shared memory is at most 228 KB < 2^24. */
#define EXEC_DSMEM_SHIFT 24
#define EXEC_DSMEM_OFF ((1ull << EXEC_DSMEM_SHIFT) - 1)

/* One resident cluster. */
typedef struct ExecCluster {
    uint64_t id;              /* linear index in the grid of clusters */
    Block *cta[EXEC_CLUSTER_MAX]; /* by rank; NULL once that CTA retired */
    int live;                 /* CTAs not yet retired; 0: the entry is free */
    uint32_t arrived;         /* threads arrived at barrier.cluster this phase */
    uint32_t exited;          /* threads of the cluster that exited */
    uint32_t phases;          /* phases completed */
} ExecCluster;

/* A launch's clusters (Exec.cl). */
typedef struct ExecClusters {
    DeviceDim3 dim;           /* CTAs per cluster in x, y, z */
    int size;                 /* dim.x * dim.y * dim.z, 2 .. EXEC_CLUSTER_MAX */
    DeviceDim3 grid;          /* clusters in x, y, z */
    uint64_t count, next;     /* clusters in the grid; next to dispatch */
    ExecCluster *c;           /* nc entries */
    int nc;
    int ngpc;
    int gpc_first[ARCH_MAX_GPCS + 1]; /* GPC g holds SMs [gpc_first[g], gpc_first[g+1]) */
} ExecClusters;

/* Set up x->cl for cluster dimensions dim (size > 1) on nsm SMs; false
 * when out of memory.  exec_cluster_end frees it (NULL is fine). */
bool exec_cluster_begin(Exec *x, DeviceDim3 dim, int nsm);
void exec_cluster_end(Exec *x);
/* The most CTAs of one cluster that the slots of one GPC hold (nsm SMs,
 * per_sm slots each): a cluster larger than this can never be resident. */
int exec_cluster_gpc_room(int nsm, int per_sm);

/* The next cluster to dispatch, with the slots its ranks go to in slot[]
 * (free slots of one GPC: the GPC whose chosen SMs free up first, then the
 * one with the most free slots; ranks to the SM with the most free slots),
 * or NULL when every cluster is out or no GPC has room.  The entry is
 * taken; *when gets the cycle the gang can start (the latest of its SMs). */
ExecCluster *exec_cluster_place(Exec *x, Block **slot, uint64_t *when);
/* The linear block index of rank r of cluster c. */
uint64_t exec_cluster_cta(const Exec *x, const ExecCluster *c, int r);
/* Block b becomes rank r of c (before its warps are set up). */
void exec_cluster_join(ExecCluster *c, Block *b, int r);
/* Block b retires: its rank's shared memory is gone. */
void exec_cluster_retire(Exec *x, Block *b);
/* Lanes em of w exited: they no longer hold up barrier.cluster (an
 * arrival of theirs no longer counts either). */
void exec_cluster_exit(Exec *x, Warp *w, uint32_t em);

/* Special register sreg (a PTX_SREG_CLUSTER_*, %clusterid, %nclusterid,
 * %is_explicit_cluster) of the threads of b (b->cl may be NULL: a cluster
 * of one); 0 for any other.  They take no register slot: mov reads them
 * (exec_arith.c). */
uint64_t exec_cluster_sreg(const Exec *x, const Block *b, int sreg);
/* true for the special registers exec_cluster_sreg gives. */
bool exec_cluster_is_sreg(int sreg);
/* The handler of mov d, %cluster_... (in->sub the PtxSreg, in->d the
 * destination): pred false a value register, true a predicate
 * (%is_explicit_cluster, the one predicate special register). */
ExecFn exec_cluster_mov_fn(bool pred);

/* barrier.cluster.arrive (in->sub 1) / .wait (2) for lanes m of w, in a
 * launch with clusters (flow SIM_FLOW_SELF: it moves the lanes' pcs). */
void exec_cluster_barrier(Exec *x, Warp *w, const SimInst *in, uint32_t m);
/* Block b can run no warp and some of its lanes wait at barrier.cluster:
 * fault with "deadlock" when no CTA of its cluster can make progress.
 * true when b's lanes wait for the cluster (nothing more to look at). */
bool exec_cluster_stalled(Exec *x, Block *b);

/* The CTA whose shared memory shared offset *a of lane l of w names, with
 * *a made an offset in it; NULL after a fault (a rank outside the cluster,
 * or a CTA that exited).  Offsets without rank bits are w's own. */
Block *exec_cluster_window(Exec *x, Warp *w, const SimInst *in, int l, uint64_t *a);
/* The same without faulting (the race checker): NULL when none. */
Block *exec_cluster_owner(const Exec *x, const Warp *w, uint64_t *a);

#endif
