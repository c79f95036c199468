/* test_race.c: the race and sync checker (sim/race.c), called directly as
 * the executor will call it.  Every hazard kind is shown on a sequence of
 * calls that has it and on the correct twin that does not (a barrier, the
 * same thread, atomics, __syncwarp, waiting for cp.async, other bytes, other
 * blocks' shared windows); then the lockstep-warp lost update, atomic
 * scopes across blocks, deduplication and the cap, the memory cap, huge
 * addresses, bad calls, and two properties on random programs: word and byte
 * shadows give the same findings, and race-free programs give none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "race.h"

enum { SH = RACE_SPACE_SHARED, GL = RACE_SPACE_GLOBAL };
#define G0 0x0000700000000000ull /* a global address */

static RaceChecker *rc;

/* A checker for 256-thread blocks with block 0 resident (48 KB shared). */
static int setup(void **s)
{
    (void)s;
    rc = race_new(256);
    if (!rc)
        return -1;
    race_block_start(rc, 0, 48 * 1024);
    return 0;
}

static int teardown(void **s)
{
    (void)s;
    race_free(rc);
    rc = NULL;
    return 0;
}

static void acc(int space, uint64_t addr, unsigned size, int op, uint64_t block, uint32_t tid,
                int32_t pc)
{
    RaceWho w = {.block = block, .tid = tid, .pc = pc};
    race_access(rc, space, addr, size, op, RACE_SCOPE_GPU, &w);
}

static void rd(int space, uint64_t addr, unsigned size, uint32_t tid, int32_t pc)
{
    acc(space, addr, size, RACE_READ, 0, tid, pc);
}

static void wr(int space, uint64_t addr, unsigned size, uint32_t tid, int32_t pc)
{
    acc(space, addr, size, RACE_WRITE, 0, tid, pc);
}

static void atom(int space, uint64_t addr, int scope, uint64_t block, uint32_t tid, int32_t pc)
{
    RaceWho w = {.block = block, .tid = tid, .pc = pc};
    race_access(rc, space, addr, 4, RACE_ATOMIC, scope, &w);
}

static void fill(uint64_t addr, unsigned size, uint32_t group, uint32_t tid, int32_t pc)
{
    RaceWho w = {.block = 0, .tid = tid, .pc = pc};
    race_async_fill(rc, addr, size, group, &w);
}

/* The finding of that kind, NULL if none. */
static const RaceFinding *find(const char *kind)
{
    for (int i = 0; i < race_count(rc); i++)
        if (!strcmp(race_finding(rc, i)->kind, kind))
            return race_finding(rc, i);
    return NULL;
}

/* Exactly one finding, of that kind; returns it. */
static const RaceFinding *only(const char *kind)
{
    if (race_count(rc) != 1) {
        for (int i = 0; i < race_count(rc); i++)
            fprintf(stderr, "  finding %d: %s\n", i, race_finding(rc, i)->kind);
        fail_msg("%d findings, want one %s", race_count(rc), kind);
    }
    assert_string_equal(race_finding(rc, 0)->kind, kind);
    return race_finding(rc, 0);
}

static void assert_who(RaceWho w, uint64_t block, uint32_t tid, int32_t pc)
{
    assert_int_equal(w.block, block);
    assert_int_equal(w.tid, tid);
    assert_int_equal(w.pc, pc);
}

/* ---- the three plain hazards and their twins ----------------------------- */

static void test_read_after_write_in_shared_is_found(void **s)
{
    (void)s;
    wr(SH, 64, 4, 3, 10);
    rd(SH, 64, 4, 4, 20);
    const RaceFinding *f = only("read-after-write");
    assert_int_equal(f->space, SH);
    assert_int_equal(f->addr, 64);
    assert_who(f->first, 0, 3, 10);
    assert_who(f->second, 0, 4, 20);
    assert_int_equal(f->first_op, RACE_WRITE);
    assert_int_equal(f->second_op, RACE_READ);
    assert_int_equal(race_total(rc), 1);
}

static void test_read_after_write_twins_barrier_same_thread_other_bytes(void **s)
{
    (void)s;
    wr(SH, 64, 4, 3, 10);
    race_barrier(rc, 0);
    rd(SH, 64, 4, 4, 20);       /* a barrier between */
    wr(SH, 128, 4, 5, 11);
    rd(SH, 128, 4, 5, 21);      /* the same thread */
    wr(SH, 256, 4, 6, 12);
    rd(SH, 260, 4, 7, 22);      /* the next word */
    assert_int_equal(race_count(rc), 0);
    assert_int_equal(race_total(rc), 0);
}

static void test_write_after_read_is_found_and_barrier_twin_is_not(void **s)
{
    (void)s;
    rd(SH, 8, 4, 1, 30);
    wr(SH, 8, 4, 2, 31);
    const RaceFinding *f = only("write-after-read");
    assert_who(f->first, 0, 1, 30);
    assert_who(f->second, 0, 2, 31);
    assert_int_equal(f->first_op, RACE_READ);
    assert_int_equal(f->second_op, RACE_WRITE);

    rd(SH, 16, 4, 1, 40);
    race_barrier(rc, 0);
    wr(SH, 16, 4, 2, 41);
    assert_int_equal(race_count(rc), 1);
}

static void test_write_after_read_found_when_writer_was_the_last_reader(void **s)
{
    (void)s;
    rd(SH, 8, 4, 1, 30);
    rd(SH, 8, 4, 2, 30);
    rd(SH, 8, 4, 2, 30);
    wr(SH, 8, 4, 2, 31);        /* thread 1's read is still unordered */
    const RaceFinding *f = only("write-after-read");
    assert_who(f->first, 0, 1, 30);
}

static void test_write_after_write_is_found_and_twins_are_not(void **s)
{
    (void)s;
    wr(SH, 0, 4, 0, 50);
    wr(SH, 0, 4, 1, 51);
    const RaceFinding *f = only("write-after-write");
    assert_who(f->first, 0, 0, 50);
    assert_who(f->second, 0, 1, 51);

    wr(SH, 32, 4, 0, 52);
    race_barrier(rc, 0);
    wr(SH, 32, 4, 1, 53);       /* barrier */
    wr(SH, 64, 4, 0, 54);
    wr(SH, 64, 4, 0, 55);       /* same thread */
    wr(SH, 96, 1, 0, 56);
    wr(SH, 97, 1, 1, 57);       /* adjacent bytes */
    assert_int_equal(race_count(rc), 1);
}

/* ---- byte granularity ------------------------------------------------------ */

static void test_word_store_and_byte_load_of_its_top_byte_conflict(void **s)
{
    (void)s;
    wr(SH, 64, 4, 0, 1);
    rd(SH, 67, 1, 1, 2);
    const RaceFinding *f = only("read-after-write");
    assert_int_equal(f->addr, 67);
    wr(GL, G0 + 64, 4, 0, 3);
    rd(GL, G0 + 67, 1, 1, 4);
    assert_int_equal(race_count(rc), 2);
    assert_int_equal(race_finding(rc, 1)->addr, G0 + 67);
}

static void test_adjacent_bytes_of_two_threads_do_not_conflict(void **s)
{
    (void)s;
    for (uint32_t t = 0; t < 8; t++)
        wr(SH, 100 + t, 1, t, 1);
    for (uint32_t t = 0; t < 8; t++)
        rd(SH, 100 + t, 1, t, 2);
    assert_int_equal(race_count(rc), 0);
    rd(SH, 100, 4, 9, 3);       /* a word over four threads' bytes */
    assert_int_equal(race_count(rc), 1);
    assert_int_equal(race_total(rc), 4);
    const RaceFinding *f = only("read-after-write");
    assert_int_equal(f->addr, 100);
    assert_who(f->first, 0, 0, 1);
}

static void test_unaligned_write_over_word_shadow_keeps_the_word_history(void **s)
{
    (void)s;
    wr(SH, 0, 8, 0, 1);         /* two words, word shadow */
    wr(SH, 3, 2, 0, 2);         /* splits the page; same thread, no race */
    rd(SH, 0, 1, 1, 3);         /* byte 0 is still pc 1's */
    rd(SH, 4, 1, 2, 4);         /* byte 4 is pc 2's */
    rd(SH, 6, 1, 2, 5);         /* byte 6 is pc 1's */
    assert_int_equal(race_count(rc), 3);
    assert_int_equal(race_finding(rc, 0)->first.pc, 1);
    assert_int_equal(race_finding(rc, 1)->first.pc, 2);
    assert_int_equal(race_finding(rc, 2)->first.pc, 1);
}

/* ---- lost updates -------------------------------------------------------- */

static void test_lost_update_of_two_threads_is_found(void **s)
{
    (void)s;
    rd(SH, 0, 4, 0, 7);         /* s[0] = s[0] + x by threads 0 and 1 */
    rd(SH, 0, 4, 1, 7);
    wr(SH, 0, 4, 0, 8);
    wr(SH, 0, 4, 1, 8);
    const RaceFinding *f = only("lost-update");   /* not the WAR / WAW it also is */
    assert_who(f->first, 0, 0, 8);
    assert_who(f->second, 0, 1, 8);
    assert_int_equal(f->first_op, RACE_WRITE);
    assert_int_equal(f->second_op, RACE_WRITE);
    assert_true(race_total(rc) >= 2);
}

static void test_lockstep_warp_lost_update_is_found(void **s)
{
    (void)s;
    for (uint32_t lane = 0; lane < 32; lane++)   /* ld.shared, lanes 0..31 */
        rd(SH, 0, 4, lane, 7);
    for (uint32_t lane = 0; lane < 32; lane++)   /* st.shared, lanes 0..31 */
        wr(SH, 0, 4, lane, 9);
    const RaceFinding *f = only("lost-update");
    assert_who(f->first, 0, 0, 9);
    assert_who(f->second, 0, 1, 9);
    assert_int_equal(f->addr, 0);
}

static void test_lost_update_across_blocks_in_global(void **s)
{
    (void)s;
    race_block_start(rc, 1, 0);
    acc(GL, G0, 4, RACE_READ, 0, 5, 3);          /* out[0] += in[i] */
    acc(GL, G0, 4, RACE_READ, 1, 5, 3);
    acc(GL, G0, 4, RACE_WRITE, 0, 5, 4);
    acc(GL, G0, 4, RACE_WRITE, 1, 5, 4);
    const RaceFinding *f = only("lost-update");
    assert_who(f->first, 0, 5, 4);
    assert_who(f->second, 1, 5, 4);
    assert_int_equal(f->space, GL);
}

/* A device free forgets the freed bytes: block 1 writing memory that
 * malloc handed it after block 0 freed it is no race (the allocator orders
 * the two); bytes outside the freed range keep their history, and a page
 * split to bytes forgets exactly the range.  (Without it, two blocks each
 * taking a scratch buffer in turn were reported as racing.) */
static void test_freed_global_memory_is_forgotten(void **s)
{
    (void)s;
    race_block_start(rc, 1, 0);
    acc(GL, G0, 8, RACE_WRITE, 0, 5, 3);         /* block 0 fills its buffer */
    acc(GL, G0 + 8, 4, RACE_WRITE, 0, 5, 3);     /* and the word after it */
    acc(GL, G0 + 2048 + 1, 1, RACE_WRITE, 0, 5, 3); /* a byte page */
    race_forget_global(rc, G0, 8);               /* free(buffer) */
    race_forget_global(rc, G0 + 2048 + 1, 1);
    acc(GL, G0, 8, RACE_WRITE, 1, 7, 9);         /* block 1's malloc got it */
    acc(GL, G0 + 2048 + 1, 1, RACE_READ, 1, 7, 9);
    assert_int_equal(race_count(rc), 0);
    acc(GL, G0 + 2048, 1, RACE_WRITE, 0, 5, 3);  /* a byte beside the freed one */
    acc(GL, G0 + 2048, 1, RACE_READ, 1, 7, 10);
    acc(GL, G0 + 8, 4, RACE_READ, 1, 7, 11);     /* the word that was not freed */
    assert_int_equal(race_count(rc), 2);
    assert_string_equal(race_finding(rc, 0)->kind, "read-after-write");
    assert_string_equal(race_finding(rc, 1)->kind, "read-after-write");
    race_forget_global(rc, G0 + (1ull << 30), 4096); /* never touched: nothing to do */
    race_forget_global(NULL, G0, 8);
    assert_int_equal(race_count(rc), 2);
}

static void test_lost_update_twins_atomics_and_sync_between_read_and_write(void **s)
{
    (void)s;
    for (uint32_t lane = 0; lane < 32; lane++)   /* atomicAdd(&s[0], x) */
        atom(SH, 0, RACE_SCOPE_GPU, 0, lane, 1);
    assert_int_equal(race_count(rc), 0);
    /* Reads, a barrier, then the writes: the writes still race with each
     * other, but no thread lost an update it read. */
    for (uint32_t t = 0; t < 4; t++)
        rd(SH, 64, 4, t, 2);
    race_barrier(rc, 0);
    for (uint32_t t = 0; t < 4; t++)
        wr(SH, 64, 4, t, 3);
    only("write-after-write");
    /* The same with a __syncwarp of the lanes between. */
    for (uint32_t t = 0; t < 4; t++)
        rd(SH, 128, 4, t, 4);
    race_warp_sync(rc, 0, 0, 0xf);
    for (uint32_t t = 0; t < 4; t++)
        wr(SH, 128, 4, t, 5);
    assert_int_equal(race_count(rc), 2);
    assert_null(find("lost-update"));
}

static void test_lost_update_of_an_atomic_by_a_plain_read_modify_write(void **s)
{
    (void)s;
    rd(GL, G0, 4, 0, 1);
    atom(GL, G0, RACE_SCOPE_GPU, 0, 1, 2);
    wr(GL, G0, 4, 0, 3);
    assert_non_null(find("lost-update"));
    assert_int_equal(find("lost-update")->first_op, RACE_ATOMIC);
}

/* ---- __syncwarp ---------------------------------------------------------- */

static void test_syncwarp_orders_the_lanes_of_its_mask(void **s)
{
    (void)s;
    wr(SH, 0, 4, 0, 1);
    race_warp_sync(rc, 0, 0, 0xffffffffu);
    rd(SH, 0, 4, 1, 2);                          /* ordered */
    wr(SH, 4, 4, 0, 3);
    race_warp_sync(rc, 0, 0, 0x1 | 0x4);
    rd(SH, 4, 4, 2, 4);                          /* lanes 0 and 2: ordered */
    assert_int_equal(race_count(rc), 0);
    rd(SH, 4, 4, 1, 5);                          /* lane 1 was not in the mask */
    only("read-after-write");
}

static void test_syncwarp_is_transitive_and_only_orders_what_came_before(void **s)
{
    (void)s;
    wr(SH, 0, 4, 0, 1);
    race_warp_sync(rc, 0, 0, 0x3);               /* 0 with 1 */
    race_warp_sync(rc, 0, 0, 0x6);               /* 1 with 2 */
    rd(SH, 0, 4, 2, 2);                          /* 0 -> 1 -> 2 */
    assert_int_equal(race_count(rc), 0);
    race_warp_sync(rc, 0, 0, 0xffffffffu);
    wr(SH, 8, 4, 0, 3);                          /* after the last sync */
    rd(SH, 8, 4, 1, 4);
    assert_int_equal(race_count(rc), 1);
    assert_int_equal(race_finding(rc, 0)->first.pc, 3);
}

static void test_syncwarp_does_not_order_other_warps(void **s)
{
    (void)s;
    wr(SH, 0, 4, 0, 1);
    race_warp_sync(rc, 0, 0, 0xffffffffu);
    race_warp_sync(rc, 0, 1, 0xffffffffu);
    rd(SH, 0, 4, 32, 2);                         /* warp 1, lane 0 */
    const RaceFinding *f = only("read-after-write");
    assert_int_equal(f->second.tid, 32);
}

/* ---- atomics and scopes -------------------------------------------------- */

static void test_atomics_never_race_with_atomics_but_with_plain_accesses(void **s)
{
    (void)s;
    atom(GL, G0, RACE_SCOPE_GPU, 0, 0, 1);
    atom(GL, G0, RACE_SCOPE_GPU, 0, 1, 1);
    assert_int_equal(race_count(rc), 0);
    rd(GL, G0, 4, 2, 2);                         /* a plain read of it */
    const RaceFinding *f = only("read-after-write");
    assert_int_equal(f->first_op, RACE_ATOMIC);
    rd(GL, G0 + 8, 4, 2, 3);
    atom(GL, G0 + 8, RACE_SCOPE_GPU, 0, 3, 4);
    assert_non_null(f = find("write-after-read"));
    assert_int_equal(f->second_op, RACE_ATOMIC);
    wr(GL, G0 + 16, 4, 2, 5);
    atom(GL, G0 + 16, RACE_SCOPE_GPU, 0, 3, 6);
    assert_non_null(f = find("write-after-write"));
    assert_int_equal(f->first_op, RACE_WRITE);
    assert_int_equal(f->second_op, RACE_ATOMIC);
    assert_int_equal(race_count(rc), 3);
}

static void test_cta_atomic_on_global_other_blocks_touch_is_found(void **s)
{
    (void)s;
    race_block_start(rc, 1, 0);
    atom(GL, G0, RACE_SCOPE_CTA, 0, 0, 1);
    atom(GL, G0, RACE_SCOPE_GPU, 1, 0, 2);       /* then another block's atomic */
    const RaceFinding *f = only("atomic-scope");
    assert_who(f->first, 0, 0, 1);
    assert_who(f->second, 1, 0, 2);
    /* The other order: another block read it, then the .cta atomic. */
    acc(GL, G0 + 64, 4, RACE_READ, 1, 3, 3);
    atom(GL, G0 + 64, RACE_SCOPE_CTA, 0, 0, 4);
    assert_int_equal(race_count(rc), 3);         /* and the read is a write-after-read */
    assert_int_equal(race_finding(rc, 1)->second.pc, 4);
    assert_non_null(find("write-after-read"));
    /* A plain read of the .cta atomic's data by another block. */
    atom(GL, G0 + 128, RACE_SCOPE_CTA, 0, 0, 5);
    acc(GL, G0 + 128, 4, RACE_READ, 1, 0, 6);
    assert_int_equal(race_count(rc), 5);
    assert_int_equal(race_finding(rc, 3)->first.pc, 5);
    assert_string_equal(race_finding(rc, 3)->kind, "atomic-scope");
    /* Another block's plain write, or .gpu atomic, then the .cta atomic. */
    acc(GL, G0 + 192, 4, RACE_WRITE, 1, 0, 7);
    atom(GL, G0 + 192, RACE_SCOPE_CTA, 0, 0, 8);
    atom(GL, G0 + 256, RACE_SCOPE_GPU, 1, 0, 9);
    atom(GL, G0 + 256, RACE_SCOPE_CTA, 0, 0, 10);
    assert_int_equal(race_count(rc), 8);         /* scope, write-after-write, scope */
    assert_string_equal(race_finding(rc, 5)->kind, "atomic-scope");
    assert_int_equal(race_finding(rc, 5)->first_op, RACE_WRITE);
    assert_string_equal(race_finding(rc, 6)->kind, "write-after-write");
    assert_string_equal(race_finding(rc, 7)->kind, "atomic-scope");
    assert_int_equal(race_finding(rc, 7)->first.pc, 9);
}

static void test_cta_atomics_within_one_block_or_in_shared_are_fine(void **s)
{
    (void)s;
    race_block_start(rc, 1, 1024);
    for (uint32_t t = 0; t < 64; t++)
        atom(GL, G0, RACE_SCOPE_CTA, 0, t, 1);
    for (uint32_t t = 0; t < 64; t++)
        atom(GL, G0 + 4, RACE_SCOPE_CTA, 1, t, 1);   /* block 1's own counter */
    for (uint32_t t = 0; t < 64; t++) {
        atom(SH, 0, RACE_SCOPE_CTA, 0, t, 2);
        atom(SH, 0, RACE_SCOPE_CTA, 1, t, 2);
    }
    assert_int_equal(race_count(rc), 0);
    atom(GL, G0 + 4, RACE_SCOPE_GPU, 0, 0, 3);
    only("atomic-scope");
}

/* ---- blocks -------------------------------------------------------------- */

static void test_shared_windows_of_two_blocks_never_conflict(void **s)
{
    (void)s;
    race_block_start(rc, 1, 48 * 1024);
    acc(SH, 0, 4, RACE_WRITE, 0, 0, 1);
    acc(SH, 0, 4, RACE_WRITE, 1, 0, 2);
    acc(SH, 0, 4, RACE_READ, 1, 1, 3);           /* block 1's own race */
    const RaceFinding *f = only("read-after-write");
    assert_who(f->first, 1, 0, 2);
}

static void test_global_races_between_blocks_ignore_barriers(void **s)
{
    (void)s;
    race_block_start(rc, 7, 0);
    acc(GL, G0, 4, RACE_WRITE, 0, 0, 1);
    race_barrier(rc, 0);
    race_barrier(rc, 7);
    acc(GL, G0, 4, RACE_READ, 7, 0, 2);
    const RaceFinding *f = only("read-after-write");
    assert_who(f->first, 0, 0, 1);
    assert_who(f->second, 7, 0, 2);
}

static void test_retired_blocks_still_race_and_restarted_windows_are_fresh(void **s)
{
    (void)s;
    acc(GL, G0, 4, RACE_WRITE, 0, 0, 1);
    acc(SH, 0, 4, RACE_WRITE, 0, 0, 2);
    race_block_end(rc, 0);
    race_block_start(rc, 1000000, 1024);
    acc(GL, G0, 4, RACE_READ, 1000000, 0, 3);    /* block 0 retired: still a race */
    const RaceFinding *f = only("read-after-write");
    assert_int_equal(f->first.block, 0);
    assert_int_equal(f->second.block, 1000000);
    race_block_start(rc, 0, 1024);               /* block 0 again: fresh window */
    acc(SH, 0, 4, RACE_READ, 0, 1, 4);
    acc(SH, 0, 4, RACE_READ, 1000000, 1, 4);
    assert_int_equal(race_count(rc), 1);
}

static void test_many_resident_blocks_and_retired_ones_reused(void **s)
{
    (void)s;
    for (int round = 0; round < 4; round++) {
        for (uint64_t b = 1; b <= 300; b++)
            race_block_start(rc, round * 1000 + b, 1024);
        for (uint64_t b = 1; b <= 300; b++) {
            acc(SH, 0, 4, RACE_WRITE, round * 1000 + b, 0, 1);
            race_barrier(rc, round * 1000 + b);
            acc(SH, 0, 4, RACE_READ, round * 1000 + b, 1, 2);
        }
        for (uint64_t b = 1; b <= 300; b++)
            race_block_end(rc, round * 1000 + b);
    }
    assert_int_equal(race_count(rc), 0);
    uint64_t used = race_memory_used(rc);
    race_block_start(rc, 5000, 1024);             /* reuses a retired block's memory */
    acc(SH, 0, 4, RACE_WRITE, 5000, 0, 1);
    assert_true(race_memory_used(rc) == used);
    acc(SH, 0, 4, RACE_READ, 5000, 1, 2);
    only("read-after-write");
}

/* ---- cp.async ------------------------------------------------------------ */

static void test_reading_a_pending_cp_async_is_found(void **s)
{
    (void)s;
    fill(0, 16, 0, 0, 1);
    rd(SH, 4, 4, 1, 2);                          /* another thread */
    const RaceFinding *f = only("cp-async");
    assert_who(f->first, 0, 0, 1);
    assert_int_equal(f->first_op, RACE_CP_ASYNC);
    assert_int_equal(f->second_op, RACE_READ);
    assert_int_equal(f->addr, 4);
    rd(SH, 8, 4, 0, 3);                          /* the issuer itself */
    assert_int_equal(race_count(rc), 2);
    race_barrier(rc, 0);                         /* a barrier does not wait */
    rd(SH, 12, 4, 2, 4);
    assert_int_equal(race_count(rc), 3);
}

static void test_waiting_then_barrier_makes_cp_async_data_safe(void **s)
{
    (void)s;
    for (uint32_t t = 0; t < 4; t++)
        fill(t * 16, 16, 0, t, 1);
    for (uint32_t t = 0; t < 4; t++)
        race_async_complete(rc, 0, t, 0);
    race_barrier(rc, 0);
    for (uint32_t t = 0; t < 4; t++)
        rd(SH, ((t + 1) % 4) * 16, 16, t, 2);
    assert_int_equal(race_count(rc), 0);
    /* Without the barrier the landed data is the issuer's write. */
    fill(64, 4, 1, 0, 3);
    race_async_complete(rc, 0, 0, 1);
    rd(SH, 64, 4, 0, 4);                         /* the issuer: fine */
    rd(SH, 64, 4, 1, 5);
    const RaceFinding *f = only("read-after-write");
    assert_who(f->first, 0, 0, 3);
    assert_int_equal(f->first_op, RACE_WRITE);
}

static void test_wait_group_completes_only_older_groups(void **s)
{
    (void)s;
    fill(0, 16, 0, 0, 1);                        /* double buffering */
    fill(16, 16, 1, 0, 2);
    race_async_complete(rc, 0, 0, 0);            /* cp.async.wait_group 1 */
    race_barrier(rc, 0);
    rd(SH, 0, 16, 1, 3);
    assert_int_equal(race_count(rc), 0);
    rd(SH, 16, 16, 1, 4);
    const RaceFinding *f = only("cp-async");
    assert_int_equal(f->first.pc, 2);
    race_async_complete(rc, 0, 1, 5);            /* another thread's wait: no effect */
    race_barrier(rc, 0);
    rd(SH, 20, 4, 2, 5);
    assert_int_equal(race_count(rc), 2);
}

static void test_cp_async_hazards_with_writes_and_earlier_reads(void **s)
{
    (void)s;
    fill(0, 4, 0, 0, 1);
    wr(SH, 0, 4, 0, 2);                          /* the issuer: not reported */
    assert_int_equal(race_count(rc), 0);
    wr(SH, 0, 4, 1, 3);                          /* another thread */
    const RaceFinding *f = only("write-after-write");
    assert_int_equal(f->first_op, RACE_CP_ASYNC);
    rd(SH, 0, 4, 2, 4);                          /* still pending */
    assert_non_null(find("cp-async"));
    rd(SH, 64, 4, 3, 5);                         /* reuse a buffer still being read */
    fill(64, 4, 0, 0, 6);
    assert_non_null(f = find("write-after-read"));
    assert_int_equal(f->second_op, RACE_CP_ASYNC);
    race_barrier(rc, 0);
    rd(SH, 128, 4, 3, 7);
    race_barrier(rc, 0);
    fill(128, 4, 0, 0, 8);                       /* after a barrier: fine */
    assert_int_equal(race_count(rc), 3);
}

/* ---- dedup, cap, totals -------------------------------------------------- */

static void test_findings_are_deduplicated_by_kind_and_pcs(void **s)
{
    (void)s;
    for (int i = 0; i < 1000; i++) {
        wr(SH, 4 * (uint64_t)i, 4, 0, 1);
        rd(SH, 4 * (uint64_t)i, 4, 1, 2);
    }
    assert_int_equal(race_count(rc), 1);
    assert_int_equal(race_total(rc), 1000);
    assert_int_equal(race_distinct(rc), 1);
    wr(SH, 8000, 4, 2, 3);                       /* another pc pair */
    rd(SH, 8000, 4, 1, 2);
    assert_int_equal(race_count(rc), 2);
}

static void test_at_most_64_findings_kept_but_all_counted(void **s)
{
    (void)s;
    for (int i = 0; i < 100; i++) {
        wr(SH, 4 * (uint64_t)i, 4, 0, 1000 + i);
        rd(SH, 4 * (uint64_t)i, 4, 1, 2000 + i);
    }
    assert_int_equal(race_count(rc), RACE_MAX_FINDINGS);
    assert_int_equal(race_total(rc), 100);
    assert_int_equal(race_distinct(rc), 100);
    assert_int_equal(race_finding(rc, 63)->first.pc, 1063);
    assert_null(race_finding(rc, 64));
    assert_null(race_finding(rc, -1));
}

/* ---- memory, huge addresses, bad calls ------------------------------------ */

static void test_memory_cap_truncates_instead_of_growing(void **s)
{
    (void)s;
    uint64_t limit = race_memory_used(rc) + (1u << 20);
    race_set_memory_limit(rc, limit);
    wr(GL, G0, 4, 0, 1);
    assert_false(race_truncated(rc));
    for (uint64_t i = 0; i < 100000; i++)        /* 100 MB of global memory */
        wr(GL, G0 + 1024 * i, 4, 0, 2);
    assert_true(race_truncated(rc));
    assert_true(race_memory_used(rc) <= limit);
    uint64_t used = race_memory_used(rc);
    for (uint64_t i = 0; i < 1000; i++)
        wr(GL, 0x100000000000ull + 4096 * i, 4, 0, 3);
    assert_int_equal(race_memory_used(rc), used);
    rd(GL, G0, 4, 1, 4);                         /* tracked before the cap */
    only("read-after-write");
}

static void test_default_cap_holds_a_sweep_of_a_gigabyte(void **s)
{
    (void)s;
    for (uint64_t a = 0; a < (1ull << 30); a += 4096)
        wr(GL, G0 + a, 4, 0, 1);
    assert_true(race_truncated(rc));
    assert_true(race_memory_used(rc) <= RACE_DEFAULT_MEMORY_LIMIT + (4u << 20));
    assert_int_equal(race_count(rc), 0);
}

static void test_huge_addresses_do_not_wrap_or_crash(void **s)
{
    (void)s;
    wr(GL, 0xfffffffffffffffcull, 8, 2, 3);      /* would wrap: clamped at 2^64 */
    rd(GL, 0, 4, 3, 4);                          /* nothing wrapped round to 0 */
    assert_int_equal(race_count(rc), 0);
    rd(GL, 0xffffffffffffffffull, 1, 3, 5);
    only("read-after-write");
    wr(GL, 0xfffffffffffffff0ull, 16, 0, 1);     /* the last 16 bytes */
    rd(GL, 0xfffffffffffffff8ull, 1, 1, 2);
    assert_int_equal(race_count(rc), 4);         /* + write-after-write with pc 3, write-
                                                    after-read with pc 5, read-after-write */
    wr(SH, 0xfffffffffffffff0ull, 16, 0, 5);     /* far past the window: ignored */
    rd(SH, 48 * 1024 - 2, 4, 1, 6);              /* the window's last two bytes */
    wr(SH, 48 * 1024 - 2, 4, 2, 7);
    assert_int_equal(race_count(rc), 5);
    assert_int_equal(race_finding(rc, 4)->addr, 48 * 1024 - 2);
    race_set_memory_limit(rc, UINT64_MAX);
    race_block_start(rc, 10, 1ull << 40);        /* past the 4 GiB window: refused */
    assert_true(race_truncated(rc));
    race_block_start(rc, 9, 0xffffffffffffffffull);  /* absurd window */
    acc(SH, 1ull << 40, 4, RACE_WRITE, 9, 0, 7);
    acc(SH, 1ull << 40, 4, RACE_READ, 9, 1, 8);
    assert_true(race_truncated(rc));
    assert_int_equal(race_count(rc), 5);
}

static void test_bad_calls_are_ignored(void **s)
{
    (void)s;
    RaceWho w = {.block = 0, .tid = 0, .pc = 1};
    race_access(NULL, GL, G0, 4, RACE_WRITE, 0, &w);
    race_access(rc, GL, G0, 4, RACE_WRITE, 0, NULL);
    race_access(rc, 7, G0, 4, RACE_WRITE, 0, &w);
    race_access(rc, GL, G0, 4, 9, 0, &w);
    race_access(rc, GL, G0, 4, RACE_CP_ASYNC, 0, &w);
    race_access(rc, GL, G0, 0, RACE_WRITE, 0, &w);
    acc(GL, G0, 4, RACE_WRITE, 42, 0, 1);        /* block never started */
    acc(GL, G0, 4, RACE_WRITE, 0, 256, 1);       /* tid past the block */
    race_barrier(rc, 42);
    race_warp_sync(rc, 0, 8, ~0u);               /* warp past the block */
    race_warp_sync(rc, 42, 0, ~0u);
    race_async_fill(NULL, 0, 4, 0, &w);
    race_async_complete(rc, 42, 0, 0);
    race_async_complete(rc, 0, 999, 0);
    race_block_end(rc, 42);
    race_block_end(NULL, 0);
    race_free(NULL);
    rd(GL, G0, 4, 1, 2);
    assert_int_equal(race_count(rc), 0);
    assert_int_equal(race_total(rc), 0);
    assert_null(race_new(0));
    assert_null(race_new(65537));
    assert_int_equal(race_count(NULL), 0);
    assert_null(race_finding(NULL, 0));
    assert_false(race_truncated(NULL));
}

static void test_partial_last_warp_and_odd_block_sizes(void **s)
{
    (void)s;
    race_free(rc);
    rc = race_new(40);                           /* warp 1 has 8 lanes */
    race_block_start(rc, 0, 256);
    wr(SH, 0, 4, 32, 1);
    race_warp_sync(rc, 0, 1, ~0u);               /* lanes past 39 ignored */
    rd(SH, 0, 4, 39, 2);
    assert_int_equal(race_count(rc), 0);
    rd(SH, 0, 4, 40, 3);                         /* no thread 40 */
    assert_int_equal(race_count(rc), 0);
    rd(SH, 0, 4, 0, 4);
    only("read-after-write");
}

static void test_block_keys_running_out_truncate(void **s)
{
    (void)s;
    race_free(rc);
    rc = race_new(65536);                        /* 16 bits of thread: 65535 blocks */
    for (uint64_t b = 0; b < 65535; b++) {
        race_block_start(rc, b, 0);
        race_block_end(rc, b);
    }
    assert_false(race_truncated(rc));
    race_block_start(rc, 70000, 0);
    assert_true(race_truncated(rc));
    acc(GL, G0, 4, RACE_WRITE, 70000, 0, 1);     /* unchecked, no crash */
    acc(GL, G0, 4, RACE_WRITE, 70000, 1, 1);
    assert_int_equal(race_count(rc), 0);
}

/* ---- properties on random programs ---------------------------------------- */

static uint64_t rng = 1;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* The same random calls on a word-shadow and a byte-shadow checker give the
 * same findings, totals and order. */
static void test_word_and_byte_shadows_agree_on_random_programs(void **s)
{
    (void)s;
    static const unsigned sizes[] = {1, 2, 4, 4, 4, 8, 16};
    for (int prog = 0; prog < 40; prog++) {
        RaceChecker *c[2] = {race_new(64), race_new(64)};
        race_set_bytewise(c[1], true);
        rng = 0x9e3779b97f4a7c15ull * (uint64_t)(prog + 1);
        for (int k = 0; k < 2; k++) {
            race_block_start(c[k], 0, 512);
            race_block_start(c[k], 1, 512);
        }
        for (int step = 0; step < 3000; step++) {
            uint32_t what = rnd(100), blk = rnd(2), tid = rnd(64), sz = sizes[rnd(7)];
            uint64_t addr = (uint64_t)rnd(256 / sz) * sz + (rnd(8) == 0 ? rnd(4) : 0);
            int space = rnd(2) ? SH : GL, op = what < 50 ? RACE_READ : what < 85 ? RACE_WRITE
                                                                                  : RACE_ATOMIC;
            RaceWho w = {.block = blk, .tid = tid, .pc = (int32_t)rnd(12)};
            uint32_t group = rnd(2), mask = (uint32_t)rng, scope = rnd(2);
            for (int k = 0; k < 2; k++) {
                if (what < 2)
                    race_barrier(c[k], blk);
                else if (what < 4)
                    race_warp_sync(c[k], blk, tid / 32, mask);
                else if (what < 5 && space == SH)
                    race_async_fill(c[k], addr, sz, group, &w);
                else if (what < 6)
                    race_async_complete(c[k], blk, tid, 1);
                else
                    race_access(c[k], space, space == GL ? G0 + addr : addr, sz, op,
                                (int)scope, &w);
            }
        }
        assert_int_equal(race_total(c[0]), race_total(c[1]));
        assert_int_equal(race_count(c[0]), race_count(c[1]));
        assert_true(race_count(c[0]) > 0);
        for (int i = 0; i < race_count(c[0]); i++) {
            const RaceFinding *a = race_finding(c[0], i), *b = race_finding(c[1], i);
            assert_string_equal(a->kind, b->kind);
            assert_int_equal(a->addr, b->addr);
            assert_memory_equal(&a->first, &b->first, sizeof a->first);
            assert_memory_equal(&a->second, &b->second, sizeof a->second);
        }
        race_free(c[0]);
        race_free(c[1]);
    }
}

/* A random program race-free by construction, on blocks 0 and 1 of 128
 * threads: in each barrier interval every 8-byte slot is either owned by one
 * thread (which may first fill it with cp.async and wait, then reads and
 * writes it), only read, or only updated atomically.  Global slots are split
 * between the blocks, except the atomic ones.  limit: the memory cap, 0 for
 * the default. */
static void race_free_program(uint64_t seed, uint64_t limit)
{
    rng = seed;
    race_free(rc);
    rc = race_new(128);
    if (limit)
        race_set_memory_limit(rc, limit);
    race_block_start(rc, 0, 4096);
    race_block_start(rc, 1, 4096);
    uint32_t group[2][128] = {{0}};
    for (int interval = 0; interval < 20; interval++) {
        int owner[2][64];       /* thread, -1 read-only, -2 atomics only */
        for (uint32_t b = 0; b < 2; b++)
            for (uint32_t i = 0; i < 64; i++) {
                uint32_t k = rnd(6);
                owner[b][i] = k < 4 ? (int)rnd(128) : k == 4 ? -1 : -2;
                if (owner[b][i] >= 0 && rnd(4) == 0) {
                    uint32_t t = (uint32_t)owner[b][i];
                    RaceWho w = {.block = b, .tid = t, .pc = 90};
                    race_async_fill(rc, i * 8, 8, group[b][t], &w);
                    race_async_complete(rc, b, t, group[b][t]++);
                }
            }
        for (int step = 0; step < 400; step++) {
            uint32_t b = rnd(2), slot = rnd(64), tid = rnd(128), off = rnd(8);
            unsigned sz = 1u << rnd(4);
            if (off + sz > 8)
                off = 0;
            int o = owner[b][slot];
            int32_t pc = (int32_t)rnd(20);
            if (o == -2) {
                RaceWho w = {.block = b, .tid = tid, .pc = pc};
                race_access(rc, SH, slot * 8, 4, RACE_ATOMIC, RACE_SCOPE_CTA, &w);
                race_access(rc, GL, G0 + 0x10000 + slot * 8, 4, RACE_ATOMIC, RACE_SCOPE_GPU,
                            &w);
                continue;
            }
            int op = o < 0 ? RACE_READ : rnd(2) ? RACE_READ : RACE_WRITE;
            if (o >= 0)
                tid = (uint32_t)o;
            acc(SH, slot * 8 + off, sz, op, b, tid, pc);
            acc(GL, G0 + (uint64_t)(slot * 16 + b * 8 + off), sz, op, b, tid, pc);
            if (rnd(50) == 0) {
                uint32_t m = (uint32_t)rng;
                race_warp_sync(rc, b, rnd(4), m);
            }
        }
        race_barrier(rc, 0);
        race_barrier(rc, 1);
    }
}

static void test_race_free_random_programs_give_no_findings(void **s)
{
    (void)s;
    for (int prog = 0; prog < 30; prog++) {
        race_free_program(0x2545f4914f6cdd1dull * (uint64_t)(prog + 1), 0);
        assert_int_equal(race_count(rc), 0);
        assert_int_equal(race_total(rc), 0);
        assert_false(race_truncated(rc));
        acc(SH, 0, 4, RACE_WRITE, 0, 0, 98);    /* and a racy pair is seen */
        acc(SH, 0, 4, RACE_READ, 0, 1, 99);
        only("read-after-write");
    }
}

/* Running short of memory loses coverage, never invents a finding: the
 * race-free programs under caps from nothing to enough. */
static void test_short_memory_never_invents_findings(void **s)
{
    (void)s;
    bool short_seen = false;
    for (uint64_t limit = 1; limit < (1u << 20); limit = limit * 3 + 1000) {
        for (int prog = 0; prog < 3; prog++) {
            race_free_program(0x9e3779b97f4a7c15ull * (uint64_t)(prog + 1), limit);
            assert_int_equal(race_count(rc), 0);
            short_seen |= race_truncated(rc);
        }
    }
    assert_true(short_seen);
    assert_false(race_truncated(rc));             /* the last caps were enough */
}

/* One pass of the speed test: blocks of 256 threads, each thread loading a
 * word of global memory (new memory per block when cold, the same 64 KB over
 * and over when warm), storing its shared word and loading its neighbour's,
 * 8 times; with a barrier before the neighbour's load unless racy (then the
 * race is found again and again). */
static double bench_pass(uint64_t n, bool cold, bool racy, uint64_t *done)
{
    struct timespec t0, t1;
    *done = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t blk = 0; *done < n; blk++) {
        race_block_start(rc, blk, 4096);
        uint64_t base = G0 + (cold ? blk : blk % 64) * 1024;
        for (int it = 0; it < 8 && *done < n; it++) {
            for (uint32_t t = 0; t < 256; t++, *done += 2) {
                RaceWho w = {.block = blk, .tid = t, .pc = 1};
                race_access(rc, GL, base + t * 4, 4, RACE_READ, 0, &w);
                w.pc = 2;
                race_access(rc, SH, t * 4, 4, RACE_WRITE, 0, &w);
            }
            if (!racy)
                race_barrier(rc, blk);
            for (uint32_t t = 0; t < 256; t++, *done += 1) {
                RaceWho w = {.block = blk, .tid = t, .pc = 3};
                race_access(rc, SH, ((t + 1) % 256) * 4, 4, RACE_READ, 0, &w);
            }
            race_barrier(rc, blk);
        }
        race_block_end(rc, blk);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    return ns / (double)*done;
}

/* Speed, for the record: RACE_BENCH=N accesses (default 1 M) on fresh
 * global memory, then N on memory already shadowed; prints ns per access. */
static void test_access_rate(void **s)
{
    (void)s;
    const char *env = getenv("RACE_BENCH");
    uint64_t n = env ? strtoull(env, NULL, 10) : 1000000, done;
    static const struct { bool cold, racy; const char *what; } pass[] = {
        {true, false, "new memory"}, {false, false, "shadowed memory"},
        {false, true, "shadowed memory, a third of them racing"},
    };
    for (int i = 0; i < 3; i++) {
        race_free(rc);
        rc = race_new(256);
        double ns = bench_pass(n, pass[i].cold, pass[i].racy, &done);
        fprintf(stderr, "race_access: %llu accesses on %s: %.1f ns each, %.1f MB shadow\n",
                (unsigned long long)done, pass[i].what, ns, (double)race_memory_used(rc) / 1e6);
        assert_int_equal(race_count(rc), pass[i].racy ? 1 : 0);
        assert_int_equal(race_total(rc), pass[i].racy ? done / 3 : 0);
    }
    assert_string_equal(race_finding(rc, 0)->kind, "read-after-write");
    assert_false(race_truncated(rc));
}

/* A grid barrier orders every block's global accesses before it with every
 * access after it; shared memory is the blocks' own, and accesses after
 * it still race with each other. */
static void test_grid_barrier_orders_blocks_in_global_memory_only(void **s)
{
    (void)s;
    race_block_start(rc, 1, 1024);
    acc(GL, G0 + 8, 4, RACE_WRITE, 0, 3, 10);   /* block 0 writes, then the barrier */
    acc(SH, 16, 4, RACE_WRITE, 0, 4, 11);
    race_grid_barrier(rc);
    acc(GL, G0 + 8, 4, RACE_READ, 1, 7, 20);    /* block 1 reads it: ordered */
    assert_int_equal(race_count(rc), 0);
    acc(SH, 16, 4, RACE_READ, 0, 5, 21);        /* shared: no block barrier between */
    only("read-after-write");
    acc(GL, G0 + 8, 4, RACE_WRITE, 0, 9, 22);   /* after it, two blocks still race */
    assert_non_null(find("write-after-read"));
    race_grid_barrier(NULL);                    /* no checker: nothing */
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_read_after_write_in_shared_is_found),
        T(test_grid_barrier_orders_blocks_in_global_memory_only),
        T(test_read_after_write_twins_barrier_same_thread_other_bytes),
        T(test_write_after_read_is_found_and_barrier_twin_is_not),
        T(test_write_after_read_found_when_writer_was_the_last_reader),
        T(test_write_after_write_is_found_and_twins_are_not),
        T(test_word_store_and_byte_load_of_its_top_byte_conflict),
        T(test_adjacent_bytes_of_two_threads_do_not_conflict),
        T(test_unaligned_write_over_word_shadow_keeps_the_word_history),
        T(test_lost_update_of_two_threads_is_found),
        T(test_lockstep_warp_lost_update_is_found),
        T(test_lost_update_across_blocks_in_global),
        T(test_freed_global_memory_is_forgotten),
        T(test_lost_update_twins_atomics_and_sync_between_read_and_write),
        T(test_lost_update_of_an_atomic_by_a_plain_read_modify_write),
        T(test_syncwarp_orders_the_lanes_of_its_mask),
        T(test_syncwarp_is_transitive_and_only_orders_what_came_before),
        T(test_syncwarp_does_not_order_other_warps),
        T(test_atomics_never_race_with_atomics_but_with_plain_accesses),
        T(test_cta_atomic_on_global_other_blocks_touch_is_found),
        T(test_cta_atomics_within_one_block_or_in_shared_are_fine),
        T(test_shared_windows_of_two_blocks_never_conflict),
        T(test_global_races_between_blocks_ignore_barriers),
        T(test_retired_blocks_still_race_and_restarted_windows_are_fresh),
        T(test_many_resident_blocks_and_retired_ones_reused),
        T(test_reading_a_pending_cp_async_is_found),
        T(test_waiting_then_barrier_makes_cp_async_data_safe),
        T(test_wait_group_completes_only_older_groups),
        T(test_cp_async_hazards_with_writes_and_earlier_reads),
        T(test_findings_are_deduplicated_by_kind_and_pcs),
        T(test_at_most_64_findings_kept_but_all_counted),
        T(test_memory_cap_truncates_instead_of_growing),
        T(test_default_cap_holds_a_sweep_of_a_gigabyte),
        T(test_huge_addresses_do_not_wrap_or_crash),
        T(test_bad_calls_are_ignored),
        T(test_partial_last_warp_and_odd_block_sizes),
        T(test_block_keys_running_out_truncate),
        T(test_word_and_byte_shadows_agree_on_random_programs),
        T(test_race_free_random_programs_give_no_findings),
        T(test_short_memory_never_invents_findings),
        T(test_access_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
