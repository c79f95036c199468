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
    uint32_t s = (c->sets & (c->sets - 1)) == 0 ? (h & (c->sets - 1)) : h % c->sets;
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

TimingLine *timing_cache_fill(TimingCache *c, uint32_t tag, uint8_t *evicted)
{
    *evicted = 0;
    if (!c->lines)
        return NULL;
    size_t s = set_of(c, tag);
    const uint32_t *tags = c->tags + s, *lru = c->lru + s;
    uint32_t key = key_of(tag), victim = UINT32_MAX;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (tags[w] == key && c->lines[s + w].sectors)
            return &c->lines[s + w];
        if (tags[w] == TIMING_NO_TAG && victim == UINT32_MAX)
            victim = w; /* an empty way */
    }
    if (victim == UINT32_MAX) { /* a full set: the least recently used */
        victim = 0;
        for (uint32_t w = 1; w < c->ways; w++)
            if (lru[w] < lru[victim])
                victim = w;
    }
    TimingLine *l = &c->lines[s + victim];
    *evicted = l->sectors ? l->dirty : 0;
    memset(l, 0, sizeof *l);
    l->tag = tag;
    c->tags[s + victim] = key;
    return l;
}

uint64_t timing_l1_load(TimingModel *tm, int sm, uint64_t t, uint32_t line, uint8_t sectors)
{
    TimingCache *c = &tm->sms[sm].l1;
    uint64_t hit_done = t + (uint64_t)tm->p->v[TP_L1_LAT];
    int n = __builtin_popcount(sectors);
    tm->out->l1_sectors += (uint64_t)n;
    TimingLine *l = timing_cache_find(c, line);
    uint8_t hit = l ? (uint8_t)(l->sectors & sectors) : 0;
    uint64_t done = 0;
    if (hit) {
        tm->out->l1_hits += (uint64_t)__builtin_popcount(hit);
        done = l->ready > hit_done ? l->ready : hit_done; /* a fill still on its way: wait for it */
        timing_cache_touch(c, l);
    }
    uint8_t miss = (uint8_t)(sectors & ~hit);
    if (miss) {
        uint64_t back = timing_l2_access(tm, sm, t + (uint64_t)tm->p->v[TP_L1_LAT] / 2, line, miss, TIMING_L2_LOAD);
        uint8_t ev;
        l = timing_cache_fill(c, line, &ev);
        if (l) {
            l->sectors |= miss;
            if (back > l->ready)
                l->ready = back;
            timing_cache_touch(c, l);
        }
        if (back > done)
            done = back;
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
