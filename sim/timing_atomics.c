/* timing_atomics.c: atomics.  Global atomics are performed at L2, one
 * update of an address after the other: the updates of one address
 * serialise (TP_ATOM_SAME_ADDR cycles each), while different addresses
 * proceed in parallel.  So 262,144 atomicAdds to one counter cost about
 * 262,144 L2 cycles however many warps issue them -- the contention lesson
 * 3 measures against a block tree reduction.  Shared-memory atomics
 * serialise per address inside the SM. */
#include <stdlib.h>

#include "timing_int.h"

static uint64_t slot_of(uint64_t a)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull;
    return (h >> 40) % TIMING_ATOM_SLOTS;
}

/* Updates leave SM sm from cycle t, each when the one TP_ATOM_OUTSTANDING
 * before it has been performed (the ring holds when each was); returns when
 * the last left. */
static uint64_t send(TimingModel *tm, int sm, uint64_t t, const int *n, const uint64_t *fin, int nsec)
{
    TimingSM *ts = &tm->sms[sm];
    uint64_t size = (uint64_t)tm->p->v[TP_ATOM_OUTSTANDING], last = t;
    if (!size || ts->atom_nomem)
        return t;
    if (!ts->atom_ring && !(ts->atom_ring = calloc(size, sizeof *ts->atom_ring))) {
        ts->atom_nomem = true;
        return t;
    }
    for (int i = 0; i < nsec; i++)
        for (int k = 0; k < n[i]; k++) {
            uint64_t *slot = &ts->atom_ring[ts->atom_head++ % size];
            if (*slot > last)
                last = *slot;
            *slot = fin[i];
        }
    return last;
}

uint64_t timing_atomics_global(TimingModel *tm, int sm, uint64_t t, uint32_t mask, const uint64_t addr[32],
                               unsigned size, uint64_t *sent)
{
    const double *v = tm->p->v;
    /* per 32-byte sector of the request: how many updates it sends (lanes on
     * one address go one at a time: bins1 sends 32 a warp, bins32 4; the
     * H100's lts__t_sectors_op_red) and when the last is performed */
    uint64_t sec_key[32], sec_fin[32];
    int sec_n[32], nsec = 0;
    TimingAccess acc;
    timing_coalesce(mask, addr, size, &acc);
    uint64_t arrive = t;
    for (int i = 0; i < acc.nlines; i++) { /* the requests travel as sectors to L2 */
        timing_l1_invalidate(tm, sm, (uint32_t)acc.line[i]);
        uint64_t back = timing_l2_access(tm, sm, t, (uint32_t)acc.line[i], acc.sectors[i], TIMING_L2_ATOMIC);
        uint64_t at = back - (uint64_t)v[TP_L2_LAT] / 2;
        if (at > arrive)
            arrive = at;
    }
    uint64_t done = t + (uint64_t)v[TP_ATOM_LAT];
    uint32_t left = mask;
    /* the atomic unit of a line takes the request's addresses in it one
     * after another (TP_ATOM_SAME_LINE each); its time is kept in 1/1024
     * cycles, so a line's fraction of a cycle per address adds up */
    uint64_t line_key = 0, line_free = 0;
    TimingAtomSlot *ls = NULL;
    while (left) {
        int l = __builtin_ctz(left);
        uint64_t a = addr[l];
        uint64_t key = (a >> 7) | (1ull << 63);
        if (key != line_key) {
            if (ls)
                ls->free = line_free;
            ls = &tm->atom[slot_of(key)];
            line_key = key;
            line_free = arrive * 1024;
            if (ls->addr == key && ls->free > line_free)
                line_free = ls->free;
            ls->addr = key;
        }
        uint64_t line_at = (line_free + 1023) / 1024;
        line_free += (uint64_t)(v[TP_ATOM_SAME_LINE] * 1024);
        int count = 0;
        for (uint32_t r = left; r; r &= r - 1) {
            int k = __builtin_ctz(r);
            if (addr[k] == a) {
                count++;
                left &= ~(1u << k);
            }
        }
        TimingAtomSlot *s = &tm->atom[slot_of(a)];
        uint64_t begin = line_at;
        if (s->addr == a && s->free > begin)
            begin = s->free;
        uint64_t finish = begin + (uint64_t)(count * v[TP_ATOM_SAME_ADDR]);
        s->addr = a;
        s->free = finish;
        uint64_t back = finish + (uint64_t)v[TP_ATOM_LAT] / 2;
        if (back > done)
            done = back;
        int j = 0;
        while (j < nsec && sec_key[j] != a >> 5)
            j++;
        if (j == nsec) {
            sec_key[nsec] = a >> 5;
            sec_n[nsec] = 0;
            sec_fin[nsec++] = 0;
        }
        if (count > sec_n[j])
            sec_n[j] = count;
        if (finish > sec_fin[j])
            sec_fin[j] = finish;
    }
    if (ls)
        ls->free = line_free;
    if (sent)
        *sent = send(tm, sm, t, sec_n, sec_fin, nsec);
    if (done > tm->end)
        tm->end = done;
    return done;
}

int timing_atomics_shared_serial(uint32_t mask, const uint64_t addr[32])
{
    int worst = 0;
    for (uint32_t r = mask; r; r &= r - 1) {
        int l = __builtin_ctz(r), count = 0;
        for (uint32_t q = mask; q; q &= q - 1)
            count += addr[__builtin_ctz(q)] == addr[l];
        if (count > worst)
            worst = count;
    }
    return worst > 1 ? worst - 1 : 0;
}
