/* timing_l1.c: the L1 data cache of one SM, and the sectored cache both
 * levels use.  The L1's capacity is what the unified L1/shared cache keeps
 * beside the shared memory the carveout gave the launch (carveout.c), so a
 * larger carveout means fewer L1 hits -- lessons/04-occupancy.  128-byte
 * lines of four 32-byte sectors, allocated on a load miss and filled
 * sector by sector; LRU replacement within a set; stores write through to
 * L2 and update only sectors already present; atomics invalidate. */
#include <stdlib.h>
#include <string.h>

#include "timing_int.h"

bool timing_cache_init(TimingCache *c, uint64_t bytes, int min_ways, bool pow2)
{
    memset(c, 0, sizeof *c);
    uint64_t lines = bytes / 128;
    if (!lines)
        return true;
    if (min_ways < 1)
        min_ways = 1;
    uint64_t sets = lines / (uint64_t)min_ways;
    if (sets < 1)
        sets = 1;
    if (pow2) {
        uint64_t p = 1;
        while (p * 2 <= sets)
            p *= 2;
        sets = p;
    }
    c->sets = (uint32_t)sets;
    c->set_mask = (sets & (sets - 1)) == 0 ? (uint32_t)sets - 1 : 0;
    c->ways = (uint32_t)(lines / sets);
    c->bytes = (uint64_t)c->sets * c->ways * 128;
    c->lines = calloc((size_t)c->sets * c->ways, sizeof *c->lines);
    c->tags = calloc((size_t)c->sets * c->ways, sizeof *c->tags); /* all TIMING_NO_TAG */
    c->lru = calloc((size_t)c->sets * c->ways, sizeof *c->lru);
    return c->lines && c->tags && c->lru;
}

void timing_cache_free(TimingCache *c)
{
    free(c->lines);
    free(c->tags);
    free(c->lru);
    c->lines = NULL;
    c->tags = NULL;
    c->lru = NULL;
}

static size_t set_of(const TimingCache *c, uint32_t tag)
{
    uint32_t h = tag ^ (tag >> 11) ^ (tag >> 19); /* spread strided lines over sets */
    uint32_t s = c->set_mask || c->sets == 1 ? (h & c->set_mask) : h % c->sets;
    return (size_t)s * c->ways;
}

static inline uint32_t key_of(uint32_t tag) { return (tag & 0x7fffffffu) + 1; }

TimingLine *timing_cache_find(TimingCache *c, uint32_t tag)
{
    if (!c->lines)
        return NULL;
    size_t s = set_of(c, tag);
    const uint32_t *tags = c->tags + s;
    uint32_t key = key_of(tag);
    for (uint32_t w = 0; w < c->ways; w++)
        if (tags[w] == key)
            return c->lines[s + w].sectors ? &c->lines[s + w] : NULL;
    return NULL;
}

TimingLine *timing_cache_lookup(TimingCache *c, uint32_t tag, uint32_t *victim)
{
    *victim = UINT32_MAX;
    if (!c->lines)
        return NULL;
    size_t s = set_of(c, tag);
    const uint32_t *tags = c->tags + s, *lru = c->lru + s;
    uint32_t key = key_of(tag), empty = UINT32_MAX, oldest = 0;
    /* one pass: the line itself, else the first empty way, else the least
     * recently used (the first of equals) */
    for (uint32_t w = 0; w < c->ways; w++) {
        uint32_t k = tags[w];
        if (k == key && c->lines[s + w].sectors)
            return &c->lines[s + w];
        if (k == TIMING_NO_TAG) {
            if (empty == UINT32_MAX)
                empty = w;
        } else if (lru[w] < lru[oldest]) {
            oldest = w;
        }
    }
    *victim = (uint32_t)s + (empty != UINT32_MAX ? empty : oldest);
    return NULL;
}

TimingLine *timing_cache_claim(TimingCache *c, uint32_t victim, uint32_t tag, uint8_t *evicted)
{
    *evicted = 0;
    if (victim == UINT32_MAX || !c->lines)
        return NULL;
    TimingLine *l = &c->lines[victim];
    *evicted = l->sectors ? l->dirty : 0;
    memset(l, 0, sizeof *l);
    l->tag = tag;
    c->tags[victim] = key_of(tag);
    return l;
}

TimingLine *timing_cache_fill(TimingCache *c, uint32_t tag, uint8_t *evicted)
{
    uint32_t victim;
    TimingLine *l = timing_cache_lookup(c, tag, &victim);
    if (l) {
        *evicted = 0;
        return l;
    }
    return timing_cache_claim(c, victim, tag, evicted);
}

uint64_t timing_l1_load(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors, uint8_t *missed)
{
    TimingCache *c = &tm->sms[sm].l1;
    uint64_t hit_done = t + (uint64_t)tm->p->v[TP_L1_LAT];
    unsigned n = timing_nsectors(sectors);
    tm->out->l1_sectors += (uint64_t)n;
    uint32_t victim;
    TimingLine *l = timing_cache_lookup(c, line, &victim);
    uint8_t hit = l ? (uint8_t)(l->sectors & sectors) : 0;
    uint64_t done = 0;
    if (hit) {
        tm->out->l1_hits += (uint64_t)timing_nsectors(hit);
        done = timing_vmax(tm, sm, l->ready, hit_done); /* a fill still on its way: wait for it */
        timing_cache_touch(c, l);
    }
    uint8_t miss = (uint8_t)(sectors & ~hit);
    if (missed)
        *missed = miss;
    if (miss) {
        uint64_t back = timing_defer_l2(tm, sm, t + (uint64_t)tm->p->v[TP_L1_LAT] / 2, line, miss, TIMING_L2_LOAD);
        uint8_t ev;
        if (!l) /* (the L2 access leaves this L1 as it was) */
            l = timing_cache_claim(c, victim, line, &ev);
        if (l) {
            l->sectors |= miss;
            timing_defer_u64(tm, sm, &l->ready, timing_vmax(tm, sm, l->ready, back));
            timing_cache_touch(c, l);
        }
        done = timing_vmax(tm, sm, done, back);
    }
    return done;
}

void timing_l1_store(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors)
{
    (void)t;
    TimingLine *l = timing_cache_find(&tm->sms[sm].l1, line);
    if (l)
        timing_cache_touch(&tm->sms[sm].l1, l); /* write through: the data stays valid */
    (void)sectors;
}

void timing_l1_invalidate(TimingModel *tm, int sm, uint32_t line)
{
    TimingCache *c = &tm->sms[sm].l1;
    TimingLine *l = timing_cache_find(c, line);
    if (l) {
        l->sectors = 0;
        c->tags[(size_t)(l - c->lines)] = TIMING_NO_TAG;
    }
}
