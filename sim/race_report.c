/* race_report.c: the race checker's findings.  Each hazard race.c detects
 * arrives here; it is counted, deduplicated by (kind, first pc, second pc)
 * in a set that also counts past the list's cap, and kept in order of
 * discovery up to RACE_MAX_FINDINGS.  A lost update also takes the place of
 * the write-after-read and write-after-write findings that are parts of it. */
#include <stdlib.h>
#include <string.h>

#include "race_int.h"

static const char *const kind_names[K_COUNT] = {
    [K_RAW] = "read-after-write",  [K_WAR] = "write-after-read",
    [K_WAW] = "write-after-write", [K_LOST] = "lost-update",
    [K_SCOPE] = "atomic-scope",    [K_ASYNC] = "cp-async",
};

static uint32_t seen_hash(int kind, int32_t p1, int32_t p2)
{
    uint64_t x = ((uint64_t)(uint32_t)p1 << 32 | (uint32_t)p2) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(x >> 32) ^ (uint32_t)kind * 0x85ebca6bu;
}

static bool seen_grow(RaceChecker *rc)
{
    uint32_t ncap = rc->capseen ? rc->capseen * 2 : 256;
    RaceSeen *t = race_mem_alloc(rc, (size_t)ncap * sizeof *t, false);
    if (!t)
        return false;
    memset(t, 0, (size_t)ncap * sizeof *t);
    for (uint32_t i = 0; i < rc->capseen; i++) {
        RaceSeen *e = &rc->seen[i];
        if (!e->used)
            continue;
        uint32_t j = seen_hash(e->kind, e->p1, e->p2) & (ncap - 1);
        while (t[j].used)
            j = (j + 1) & (ncap - 1);
        t[j] = *e;
    }
    race_mem_free(rc, rc->seen, (size_t)rc->capseen * sizeof *rc->seen);
    rc->seen = t;
    rc->capseen = ncap;
    return true;
}

/* true when (kind, p1, p2) was seen before; otherwise records it.  Without
 * memory for the set, falls back to the kept list (the count of distinct
 * keys is then a lower bound). */
static bool seen_check(RaceChecker *rc, int kind, int32_t p1, int32_t p2)
{
    if ((rc->nseen + 1) * 2 > rc->capseen && !seen_grow(rc)) {
        for (int i = 0; i < rc->nfound; i++)
            if (rc->found[i].kind == kind_names[kind] && rc->found[i].first.pc == p1 &&
                rc->found[i].second.pc == p2)
                return true;
        return false;
    }
    uint32_t mask = rc->capseen - 1, j = seen_hash(kind, p1, p2) & mask;
    for (; rc->seen[j].used; j = (j + 1) & mask)
        if (rc->seen[j].kind == kind && rc->seen[j].p1 == p1 && rc->seen[j].p2 == p2)
            return true;
    rc->seen[j] = (RaceSeen){.p1 = p1, .p2 = p2, .kind = (uint8_t)kind, .used = 1};
    rc->nseen++;
    rc->distinct++;
    return false;
}

/* Is a write-after-read (r, w) or write-after-write (w1, w2) part of a lost
 * update found before? */
static bool part_of_lost(const RaceChecker *rc, int kind, int32_t p1, int32_t p2)
{
    for (uint32_t i = 0; i < rc->nlost; i++) {
        const RaceLost *l = &rc->lost[i];
        if (kind == K_WAW && l->w_other == p1 && l->w_self == p2)
            return true;
        if (kind == K_WAR && l->r == p1 && (l->w_other == p2 || l->w_self == p2))
            return true;
    }
    return false;
}

static void lost_add(RaceChecker *rc, int32_t w_other, int32_t w_self, int32_t r)
{
    for (uint32_t i = 0; i < rc->nlost; i++)
        if (rc->lost[i].w_other == w_other && rc->lost[i].w_self == w_self && rc->lost[i].r == r)
            return;
    if (rc->nlost == rc->caplost) {
        uint32_t ncap = rc->caplost ? rc->caplost * 2 : 16;
        RaceLost *t = race_mem_alloc(rc, (size_t)ncap * sizeof *t, false);
        if (!t)
            return;
        if (rc->nlost)
            memcpy(t, rc->lost, (size_t)rc->nlost * sizeof *t);
        race_mem_free(rc, rc->lost, (size_t)rc->caplost * sizeof *rc->lost);
        rc->lost = t;
        rc->caplost = ncap;
    }
    rc->lost[rc->nlost++] = (RaceLost){w_other, w_self, r};
    /* Drop the kept findings the new lost update explains. */
    int k = 0;
    for (int i = 0; i < rc->nfound; i++) {
        const RaceFinding *f = &rc->found[i];
        bool part = (f->kind == kind_names[K_WAW] && f->first.pc == w_other &&
                     f->second.pc == w_self) ||
                    (f->kind == kind_names[K_WAR] && f->first.pc == r &&
                     (f->second.pc == w_other || f->second.pc == w_self));
        if (!part)
            rc->found[k++] = *f;
    }
    rc->nfound = k;
}

static RaceWho who_of(const RaceChecker *rc, uint32_t key, int32_t pc)
{
    return (RaceWho){.block = rc->serial_block[key >> rc->tbits], .tid = key & rc->tmask, .pc = pc};
}

void race_report(RaceChecker *rc, int kind, int space, uint64_t addr, uint32_t key1,
                 int32_t pc1, int op1, uint32_t key2, int32_t pc2, int op2, int32_t read_pc)
{
    if (seen_check(rc, kind, pc1, pc2))
        return;
    if ((kind == K_WAR || kind == K_WAW) && part_of_lost(rc, kind, pc1, pc2))
        return;
    if (kind == K_LOST)
        lost_add(rc, pc1, pc2, read_pc);
    if (rc->nfound == RACE_MAX_FINDINGS)
        return;
    rc->found[rc->nfound++] = (RaceFinding){
        .kind = kind_names[kind], .space = space, .addr = addr,
        .first = who_of(rc, key1, pc1), .second = who_of(rc, key2, pc2),
        .first_op = op1, .second_op = op2,
    };
}

void race_report_free(RaceChecker *rc)
{
    free(rc->seen);
    free(rc->lost);
}

int race_count(const RaceChecker *rc)
{
    return rc ? rc->nfound : 0;
}

const RaceFinding *race_finding(const RaceChecker *rc, int i)
{
    return rc && i >= 0 && i < rc->nfound ? &rc->found[i] : NULL;
}

uint64_t race_total(const RaceChecker *rc)
{
    return rc ? rc->total : 0;
}

uint64_t race_distinct(const RaceChecker *rc)
{
    return rc ? rc->distinct : 0;
}
