/* race_mbar.c: mbarriers as happens-before edges for the race checker.  A
 * phase completing stamps the mbarrier with a new tick of its block's clock;
 * a thread that then sees the completion (test_wait / try_wait true) takes
 * that tick as its acquire clock, and ordered() in race.c treats every
 * access of the block stamped before it as ordered before the thread's.  So
 * a producer/consumer handshake through an mbarrier (seed 002) is no race,
 * and reading before the wait still is. */
#include <string.h>

#include "race_int.h"

static RaceMbar *mbar_find(RaceChecker *rc, RaceBlock *b, uint64_t addr, bool add)
{
    for (uint32_t i = 0; i < b->nmbar; i++)
        if (b->mbar[i].addr == addr)
            return &b->mbar[i];
    if (!add)
        return NULL;
    if (b->nmbar == RACE_MBARS) {
        rc->truncated = true;
        return NULL;
    }
    RaceMbar *m = &b->mbar[b->nmbar++];
    m->addr = addr;
    m->done = 0;
    return m;
}

void race_mbarrier_complete(RaceChecker *rc, uint64_t block, uint64_t addr)
{
    RaceBlock *b = rc ? race_block_find(rc, block) : NULL;
    RaceMbar *m = b ? mbar_find(rc, b, addr, true) : NULL;
    if (m)
        m->done = ++b->seq;
}

void race_mbarrier_observe(RaceChecker *rc, uint64_t block, uint64_t addr, uint32_t tid)
{
    RaceBlock *b = rc ? race_block_find(rc, block) : NULL;
    if (!b || tid >= rc->tpb)
        return;
    RaceMbar *m = mbar_find(rc, b, addr, false);
    if (!m || !m->done)
        return;
    if (!b->acq) {
        b->acq = race_mem_alloc(rc, rc->tpb * sizeof *b->acq, false);
        if (!b->acq) {
            rc->truncated = true;
            return;
        }
        memset(b->acq, 0, rc->tpb * sizeof *b->acq);
    }
    b->acq_used = true;
    if (m->done > b->acq[tid])
        b->acq[tid] = m->done;
}
