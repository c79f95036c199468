/* carveout.c: preferred carveout -> supported shared-memory capacity, and
 * the L1 left beside it (see carveout.h).  Follows arch-facts.md part (a). */
#include "carveout.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

SimStatus carveout_round_up(const ArchProfile *a, size_t bytes, size_t *out,
                            SimError *err)
{
    for (int i = 0; i < a->n_carveouts; i++) {
        size_t cap = (size_t)a->carveout_kb[i] * 1024;
        if (bytes <= cap) {
            *out = cap;
            return SIM_OK;
        }
    }
    return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                         "%zu bytes of shared memory is more than %s's largest "
                         "carveout (%d KB)", bytes, a->name,
                         a->carveout_kb[a->n_carveouts - 1]);
}

SimStatus carveout_effective(int pref, CarveoutCacheConfig cache, int *out,
                             SimError *err)
{
    if (pref < CARVEOUT_DEFAULT || pref > CARVEOUT_MAX_SHARED)
        return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                             "carveout %d is out of range: use -1 (default) or "
                             "a percentage 0..100", pref);
    if (pref == CARVEOUT_DEFAULT) {
        switch (cache) {
        case CARVEOUT_CACHE_PREFER_L1: pref = CARVEOUT_MAX_L1; break;
        case CARVEOUT_CACHE_PREFER_SHARED: pref = CARVEOUT_MAX_SHARED; break;
        case CARVEOUT_CACHE_PREFER_EQUAL: pref = 50; break;
        default: break;
        }
    }
    *out = pref;
    return SIM_OK;
}

SimStatus carveout_capacity(const ArchProfile *a, int pref,
                            CarveoutCacheConfig cache, size_t *smem,
                            SimError *err)
{
    int p = CARVEOUT_DEFAULT;
    SimStatus st = carveout_effective(pref, cache, &p, err);
    if (st != SIM_OK)
        return st;
    /* The default never limits occupancy: the API assumes the maximum. */
    size_t target = p == CARVEOUT_DEFAULT
                        ? (size_t)a->smem_per_sm
                        : (size_t)p * (size_t)a->smem_per_sm / 100;
    return carveout_round_up(a, target, smem, err);
}

size_t carveout_l1(const ArchProfile *a, size_t smem)
{
    return smem < (size_t)a->unified_cache ? (size_t)a->unified_cache - smem : 0;
}

SimStatus carveout_parse(const char *text, int *pref, SimError *err)
{
    static const struct { const char *name; int value; } named[] = {
        {"default", CARVEOUT_DEFAULT}, {"maxl1", CARVEOUT_MAX_L1},
        {"maxshared", CARVEOUT_MAX_SHARED}, {"half", 50},
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (text && !strcasecmp(text, named[i].name)) {
            *pref = named[i].value;
            return SIM_OK;
        }
    if (text && *text) {
        char *end;
        long v = strtol(text, &end, 10);
        if (*end == '%')
            end++;
        if (!*end && isdigit((unsigned char)text[0]) && v >= 0 && v <= 100) {
            *pref = (int)v;
            return SIM_OK;
        }
        if (!*end && !strcmp(text, "-1")) {
            *pref = CARVEOUT_DEFAULT;
            return SIM_OK;
        }
    }
    return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                         "bad carveout '%s': use default, maxl1, maxshared, or "
                         "a percentage 0..100 of the largest shared-memory size",
                         text ? text : "");
}

char *carveout_format(int pref, char *buf, size_t cap)
{
    if (pref == CARVEOUT_DEFAULT)
        snprintf(buf, cap, "default");
    else if (pref == CARVEOUT_MAX_L1)
        snprintf(buf, cap, "maxl1");
    else if (pref == CARVEOUT_MAX_SHARED)
        snprintf(buf, cap, "maxshared");
    else
        snprintf(buf, cap, "%d%%", pref);
    return buf;
}
