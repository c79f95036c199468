/* hash.c: XXH64 (hash.h).  With libxxhash the library computes it; without
 * (a GPU node with no -dev packages) the portable version below does, so a
 * recording made on either kind of build compares equal on the other. */
#include "hash.h"

#include <string.h>

#ifdef WARPSIM_HAVE_XXHASH
#define XXH_INLINE_ALL
#include <xxhash.h>
#endif

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define P4 0x85EBCA77C2B2AE63ull
#define P5 0x27D4EB2F165667C5ull

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* Little-endian loads whatever the host's order and alignment. */
static uint64_t read64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t read32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t round64(uint64_t acc, uint64_t input)
{
    acc += input * P2;
    return rotl(acc, 31) * P1;
}

static uint64_t merge(uint64_t acc, uint64_t v)
{
    acc ^= round64(0, v);
    return acc * P1 + P4;
}

uint64_t hash_xxh64_portable(const void *data, size_t len, uint64_t seed)
{
    const uint8_t *p = data, *end = p + len;
    uint64_t h;
    if (len >= 32) {
        uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
        for (; end - p >= 32; p += 32) {
            v1 = round64(v1, read64(p));
            v2 = round64(v2, read64(p + 8));
            v3 = round64(v3, read64(p + 16));
            v4 = round64(v4, read64(p + 24));
        }
        h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
        h = merge(merge(merge(merge(h, v1), v2), v3), v4);
    } else {
        h = seed + P5;
    }
    h += (uint64_t)len;
    for (; end - p >= 8; p += 8) {
        h ^= round64(0, read64(p));
        h = rotl(h, 27) * P1 + P4;
    }
    if (end - p >= 4) {
        h ^= (uint64_t)read32(p) * P1;
        h = rotl(h, 23) * P2 + P3;
        p += 4;
    }
    for (; p < end; p++) {
        h ^= *p * P5;
        h = rotl(h, 11) * P1;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

uint64_t hash_xxh64(const void *data, size_t len, uint64_t seed)
{
#ifdef WARPSIM_HAVE_XXHASH
    return (uint64_t)XXH64(data, len, seed);
#else
    return hash_xxh64_portable(data, len, seed);
#endif
}
