/* hash.h: XXH64, the 64-bit hash that xcheck recordings and the explorer
 * store for buffers too large to keep whole.  Recordings made on one machine
 * are compared on another, so the function must be exactly XXH64 (Collet's
 * specification) whether or not libxxhash was there at build time. */
#ifndef WARPSIM_HASH_H
#define WARPSIM_HASH_H

#include <stddef.h>
#include <stdint.h>

/* XXH64 of len bytes at data (data may be NULL when len is 0) with seed:
 * libxxhash's when warpsim was built with it, else hash_xxh64_portable. */
uint64_t hash_xxh64(const void *data, size_t len, uint64_t seed);

/* The same function written out from the specification, always built, so
 * tests can compare it with the library. */
uint64_t hash_xxh64_portable(const void *data, size_t len, uint64_t seed);

#endif
