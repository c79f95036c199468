/* test_hash.c: XXH64 (launch/hash.h).  The portable version must be the
 * library's function bit for bit, or recordings made by a build without
 * libxxhash (a GPU node) would not compare with ones made with it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "argspec.h"
#include "hash.h"

static void test_hash_xxh64_reference_values(void **s)
{
    (void)s;
    /* the empty input, seed 0, from the specification's test vectors */
    assert_true(hash_xxh64_portable("", 0, 0) == 0xef46db3751d8e999ull);
    assert_true(hash_xxh64("", 0, 0) == 0xef46db3751d8e999ull);
    assert_true(hash_xxh64_portable(NULL, 0, 0) == 0xef46db3751d8e999ull);
}

static void test_hash_portable_equals_the_library_on_every_tail_length(void **s)
{
    (void)s;
#ifndef WARPSIM_HAVE_XXHASH
    skip();
#else
    uint8_t buf[600];
    uint64_t st = 7;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)argspec_splitmix64(&st);
    /* every length up to 300 covers each tail (0-31 bytes after the
     * stripes, the 8- and 4-byte steps), at every misalignment of 0..7 */
    for (size_t len = 0; len <= 300; len++)
        for (size_t off = 0; off < 8; off++) {
            uint64_t seed = argspec_splitmix64(&st);
            assert_true(hash_xxh64_portable(buf + off, len, seed) == hash_xxh64(buf + off, len, seed));
            assert_true(hash_xxh64_portable(buf + off, len, 0) == hash_xxh64(buf + off, len, 0));
        }
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_xxh64_reference_values),
        cmocka_unit_test(test_hash_portable_equals_the_library_on_every_tail_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
