/* test_occupancy.c: the occupancy and carveout model (sim/occupancy.c,
 * sim/carveout.c, sim/occupancy_explain.c) and `warpsim occupancy`.
 *  - the seed notes' worked examples, each with its limiter;
 *  - a sweep of >= 100,000 configurations over every compute capability the
 *    toolkit's cuda_occupancy.h supports, compared with that header (the
 *    oracle, tests/oracle/), requiring 100% agreement; skipped, saying so,
 *    when g++ or the header is absent;
 *  - the block-size search against the same oracle;
 *  - the CLI contract (--json, --batch, --explain, errors), when $WARPSIM
 *    names a built warpsim. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "carveout.h"
#include "occupancy.h"

#define KB 1024

static const ArchProfile *A(const char *name)
{
    const ArchProfile *a = arch_find(name);
    assert_non_null(a);
    return a;
}

static OccResult run(const char *arch, int block, int regs, size_t stat, size_t dyn, int carveout)
{
    OccConfig c;
    occ_config_init(&c);
    c.block_size = block;
    c.regs_per_thread = regs;
    c.smem_static = stat;
    c.smem_dynamic = dyn;
    c.carveout = carveout;
    OccResult r;
    SimError e;
    sim_error_clear(&e);
    assert_int_equal(occ_compute(A(arch), &c, &r, &e), SIM_OK);
    return r;
}

/* ---- seed 003 section 2.3.7 and seed 004 / 002 worked examples ---- */

static void test_seed_768_threads_cc100_is_75_percent_limited_by_warps(void **s)
{
    (void)s;
    OccResult r = run("sm_100", 768, 16, 0, 0, -1);
    assert_int_equal(r.blocks_per_sm, 2);
    assert_int_equal(r.warps_per_sm, 48);
    assert_true(r.occupancy == 0.75);
    assert_int_equal(r.limiters, OCC_LIMIT_WARPS);
}

static void test_seed_32_threads_cc100_is_50_percent_limited_by_blocks(void **s)
{
    (void)s;
    OccResult r = run("sm_100", 32, 16, 0, 0, -1);
    assert_int_equal(r.blocks_per_sm, 32);
    assert_int_equal(r.threads_per_sm, 1024);
    assert_true(r.occupancy == 0.5);
    assert_int_equal(r.limiters, OCC_LIMIT_BLOCKS);
}

static void test_seed_100kb_smem_per_block_gives_2_blocks_limited_by_smem(void **s)
{
    (void)s;
    OccResult r = run("sm_100", 256, 16, 0, 100 * KB, -1);
    assert_int_equal(r.blocks_per_sm, 2);
    assert_int_equal(r.limiters, OCC_LIMIT_SHARED_MEMORY);
    assert_int_equal(r.smem_per_block, 100 * KB + 1 * KB);   /* + the reserve */
    assert_int_equal(r.smem_capacity, 233472);
    assert_true(r.smem_ceiling_optin);
}

static void test_seed_carveout_50_percent_is_64kb_on_cc120_and_100kb_on_cc80(void **s)
{
    (void)s;
    size_t cap;
    assert_int_equal(carveout_capacity(A("sm_120"), 50, 0, &cap, NULL), SIM_OK);
    assert_int_equal(cap, 64 * KB);
    assert_int_equal(carveout_l1(A("sm_120"), cap), 64 * KB);
    assert_int_equal(carveout_capacity(A("sm_80"), 50, 0, &cap, NULL), SIM_OK);
    assert_int_equal(cap, 100 * KB);
    assert_int_equal(carveout_l1(A("sm_80"), cap), 92 * KB);
    /* and through the model, where 50% of sm_120 limits 40 KB blocks to 1 */
    OccResult r = run("sm_120", 128, 16, 0, 40 * KB, 50);
    assert_int_equal(r.smem_capacity, 64 * KB);
    assert_int_equal(r.l1_capacity, 64 * KB);
    assert_int_equal(r.blocks_per_sm, 1);
    assert_int_equal(r.limiters, OCC_LIMIT_SHARED_MEMORY);
}

static void test_seed002_48kb_blocks_fit_twice_in_96kb_volta(void **s)
{
    (void)s;
    /* seed 002: 4-warp blocks of 48 KB, an SM with 96 KB: 2 blocks = 8 warps */
    OccResult r = run("sm_70", 128, 16, 48 * KB, 0, -1);
    assert_int_equal(r.blocks_per_sm, 2);
    assert_int_equal(r.warps_per_sm, 8);
    assert_int_equal(r.limiters, OCC_LIMIT_SHARED_MEMORY);
    assert_true(r.occupancy == 8.0 / 64);
}

/* ---- the rules one at a time ---- */

static void test_registers_round_up_to_256_per_warp(void **s)
{
    (void)s;
    OccResult r = run("sm_90", 256, 33, 0, 0, -1);
    assert_int_equal(r.regs_per_warp, 1280);         /* 33 x 32 = 1056 -> 1280 */
    assert_int_equal(r.warps_per_sm_by_regs, 48);    /* 4 x floor(16384 / 1280) */
    assert_int_equal(r.limit_regs, 6);
    assert_int_equal(r.limiters, OCC_LIMIT_REGISTERS);
}

static void test_register_launch_check_rounds_warps_to_4(void **s)
{
    (void)s;
    /* 255 regs -> 8192 per warp; 1024 threads need 32 x 8192 > 65536 */
    OccResult r = run("sm_90", 1024, 255, 0, 0, -1);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_int_equal(r.limit_regs, 0);
    /* 7 warps x 8192 = 57344 fits, but 8 (rounded) x 8192 = 65536 still fits */
    r = run("sm_90", 224, 255, 0, 0, -1);
    assert_int_equal(r.blocks_per_sm, 1);
    /* 9 warps: 73728 > 65536 */
    r = run("sm_90", 288, 255, 0, 0, -1);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_int_equal(r.limiters & OCC_LIMIT_REGISTERS, OCC_LIMIT_REGISTERS);
}

static void test_reserve_counts_from_sm80_only(void **s)
{
    (void)s;
    assert_int_equal(run("sm_80", 64, 0, 0, 0, -1).smem_per_block, 1024);
    assert_int_equal(run("sm_75", 64, 0, 0, 0, -1).smem_per_block, 0);
    assert_int_equal(run("sm_75", 64, 0, 0, 0, -1).limit_smem, OCC_UNLIMITED);
    /* granularity: 256 B on 7.x, 128 B from 8.0 */
    assert_int_equal(run("sm_70", 64, 0, 1, 0, -1).smem_per_block, 256);
    assert_int_equal(run("sm_80", 64, 0, 1, 0, -1).smem_per_block, 1024 + 128);
}

static void test_48kb_default_ceiling_and_optin(void **s)
{
    (void)s;
    OccConfig c;
    occ_config_init(&c);
    c.block_size = 128;
    c.smem_dynamic = 48 * KB + 1;
    c.smem_optin = false;          /* never opted in */
    OccResult r;
    assert_int_equal(occ_compute(A("sm_90"), &c, &r, NULL), SIM_OK);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_int_equal(r.smem_block_ceiling, 48 * KB + 1 * KB);
    c.smem_optin = true;           /* opted in to exactly what it launches with */
    assert_int_equal(occ_compute(A("sm_90"), &c, &r, NULL), SIM_OK);
    assert_int_equal(r.blocks_per_sm, 4);
    assert_int_equal(r.smem_block_ceiling, 227 * KB + 1 * KB);
    c.max_dynamic_smem = 48 * KB;  /* attribute left at 48 KB: launch fails */
    assert_int_equal(occ_compute(A("sm_90"), &c, &r, NULL), SIM_OK);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_true(r.smem_dyn_over_max);
    /* more than the opt-in maximum never fits */
    c.max_dynamic_smem = OCC_DYN_AUTO;
    c.smem_dynamic = 227 * KB + 1;
    assert_int_equal(occ_compute(A("sm_90"), &c, &r, NULL), SIM_OK);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_int_equal(r.limiters & OCC_LIMIT_SHARED_MEMORY, OCC_LIMIT_SHARED_MEMORY);
}

static void test_small_carveout_is_raised_to_fit_one_block(void **s)
{
    (void)s;
    OccResult r = run("sm_90", 128, 0, 0, 40 * KB, 0);
    assert_int_equal(r.smem_preferred, 0);
    assert_int_equal(r.smem_capacity, 64 * KB);   /* 41 KB rounded up to a size */
    assert_int_equal(r.blocks_per_sm, 1);
    assert_int_equal(r.l1_capacity, 192 * KB);
}

static void test_carveout_rounding_tables(void **s)
{
    (void)s;
    size_t cap;
    assert_int_equal(carveout_capacity(A("sm_90"), 10, 0, &cap, NULL), SIM_OK);
    assert_int_equal(cap, 32 * KB);
    assert_int_equal(carveout_capacity(A("sm_90"), 0, 0, &cap, NULL), SIM_OK);
    assert_int_equal(cap, 0);
    assert_int_equal(carveout_capacity(A("sm_75"), 0, 0, &cap, NULL), SIM_OK);
    assert_int_equal(cap, 32 * KB);               /* Turing: 32 or 64 only */
    assert_int_equal(carveout_capacity(A("sm_70"), -1, 0, &cap, NULL), SIM_OK);
    assert_int_equal(cap, 96 * KB);
    assert_int_equal(carveout_capacity(A("sm_90"), -1, CARVEOUT_CACHE_PREFER_L1, &cap, NULL), SIM_OK);
    assert_int_equal(cap, 0);
    SimError e;
    assert_int_equal(carveout_capacity(A("sm_90"), 101, 0, &cap, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "carveout 101"));
}

static void test_carveout_parse_names_and_percentages(void **s)
{
    (void)s;
    int p;
    assert_int_equal(carveout_parse("default", &p, NULL), SIM_OK);
    assert_int_equal(p, -1);
    assert_int_equal(carveout_parse("MaxL1", &p, NULL), SIM_OK);
    assert_int_equal(p, 0);
    assert_int_equal(carveout_parse("maxshared", &p, NULL), SIM_OK);
    assert_int_equal(p, 100);
    assert_int_equal(carveout_parse("37%", &p, NULL), SIM_OK);
    assert_int_equal(p, 37);
    SimError e;
    assert_int_equal(carveout_parse("150", &p, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "maxl1"));
    assert_int_equal(carveout_parse("x", &p, &e), SIM_ERR_USAGE);
    assert_int_equal(carveout_parse("", &p, &e), SIM_ERR_USAGE);
}

static void test_barriers_bind_on_cc120_with_two_per_block(void **s)
{
    (void)s;
    OccConfig c;
    occ_config_init(&c);
    c.block_size = 32;
    c.barriers = 2;                /* 24 slots / 2 = 12 blocks */
    OccResult r;
    assert_int_equal(occ_compute(A("sm_120"), &c, &r, NULL), SIM_OK);
    assert_int_equal(r.blocks_per_sm, 12);
    assert_int_equal(r.limiters, OCC_LIMIT_BARRIERS);
    c.barriers = 1;                /* ties with the block limit */
    assert_int_equal(occ_compute(A("sm_120"), &c, &r, NULL), SIM_OK);
    assert_int_equal(r.limiters, OCC_LIMIT_BLOCKS | OCC_LIMIT_BARRIERS);
    assert_int_equal(occ_compute(A("sm_86"), &c, &r, NULL), SIM_OK);
    assert_int_equal(r.limit_barriers, OCC_UNLIMITED);   /* before sm_90 */
}

static void test_bad_input_is_an_error_with_a_message(void **s)
{
    (void)s;
    OccConfig c;
    occ_config_init(&c);
    OccResult r;
    SimError e;
    c.block_size = 0;
    assert_int_equal(occ_compute(A("sm_90"), &c, &r, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "block size 0"));
    occ_config_init(&c);
    c.regs_per_thread = -3;
    assert_int_equal(occ_compute(A("sm_90"), &c, &r, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "-3 registers"));
    occ_config_init(&c);
    c.carveout = -2;
    assert_int_equal(occ_compute(A("sm_90"), &c, &r, &e), SIM_ERR_USAGE);
}

static void test_block_size_search_matches_measured_h100(void **s)
{
    (void)s;
    /* arch-facts (d), measured on an H100: 255 regs -> 256 threads, min grid
     * 132; 40 regs -> 768, min grid 264 */
    OccConfig c;
    occ_config_init(&c);
    OccBlockSizeResult b;
    c.regs_per_thread = 255;
    assert_int_equal(occ_max_potential_block_size(A("sm_90"), 132, &c, NULL, NULL, 0, &b, NULL), SIM_OK);
    assert_int_equal(b.block_size, 256);
    assert_int_equal(b.min_grid_size, 132);
    c.regs_per_thread = 40;
    assert_int_equal(occ_max_potential_block_size(A("sm_90"), 132, &c, NULL, NULL, 0, &b, NULL), SIM_OK);
    assert_int_equal(b.block_size, 768);
    assert_int_equal(b.min_grid_size, 264);
}

static void test_cluster_bound_matches_measured_h200_small_clusters(void **s)
{
    (void)s;
    OccConfig c;
    occ_config_init(&c);
    c.block_size = 128;
    OccCluster k;
    ArchTarget t;
    assert_int_equal(arch_resolve("h200", &t, NULL), SIM_OK);
    assert_int_equal(occ_cluster(t.arch, t.sm_count, &c, 1, false, &k, NULL), SIM_OK);
    assert_int_equal(k.clusters_upper_bound, 1056);
    assert_int_equal(occ_cluster(t.arch, t.sm_count, &c, 2, false, &k, NULL), SIM_OK);
    assert_int_equal(k.clusters_upper_bound, 528);
    assert_int_equal(occ_cluster(t.arch, t.sm_count, &c, 4, false, &k, NULL), SIM_OK);
    assert_true(k.clusters_upper_bound >= 248);   /* measured 248: an upper bound */
    SimError e;
    assert_int_equal(occ_cluster(t.arch, t.sm_count, &c, 16, false, &k, &e), SIM_ERR_USAGE);
    assert_int_equal(occ_cluster(t.arch, t.sm_count, &c, 16, true, &k, NULL), SIM_OK);
    assert_int_equal(occ_cluster(A("sm_80"), 108, &c, 2, false, &k, &e), SIM_ERR_UNSUPPORTED);
}

/* Max active clusters from the GPC model (2 GPCs of 18 SMs and 6 of 16 for
 * 132 SMs): 128-thread blocks are capped at 8 per SM in a cluster launch, so
 * the cluster limits them; 1024-thread blocks (2 per SM) fill every GPC with
 * clusters of 4, and clusters of 16 leave SMs over (the cluster limits). */
static void test_max_active_clusters_follows_the_gpc_model_and_names_the_limiter(void **s)
{
    (void)s;
    OccConfig c;
    occ_config_init(&c);
    c.block_size = 128;
    OccCluster k;
    ArchTarget t;
    assert_int_equal(arch_resolve("h200", &t, NULL), SIM_OK);
    int sms[ARCH_MAX_GPCS];
    assert_int_equal(arch_gpc_layout(132, sms), 8);
    assert_int_equal(sms[0], 18);
    assert_int_equal(sms[1], 18);
    assert_int_equal(sms[7], 16);
    assert_int_equal(occ_cluster(t.arch, t.sm_count, &c, 4, false, &k, NULL), SIM_OK);
    assert_int_equal(k.gpcs, 8);
    assert_int_equal(k.max_active_clusters, 264); /* measured 248: the model is an upper bound */
    assert_true(k.cluster_limits);                 /* 8 of the 16 blocks per SM */
    c.block_size = 1024;
    assert_int_equal(occ_cluster(t.arch, t.sm_count, &c, 4, false, &k, NULL), SIM_OK);
    assert_int_equal(k.max_active_clusters, 66);   /* measured 62 */
    assert_false(k.cluster_limits);
    assert_int_equal(occ_cluster(t.arch, t.sm_count, &c, 16, true, &k, NULL), SIM_OK);
    assert_int_equal(k.max_active_clusters, 16);   /* measured 14 */
    assert_true(k.cluster_limits);                 /* 256 of 264 blocks */
}

static void test_explain_walks_through_the_seed_example(void **s)
{
    (void)s;
    ArchTarget t;
    assert_int_equal(arch_resolve("sm_100", &t, NULL), SIM_OK);
    OccConfig c;
    occ_config_init(&c);
    c.block_size = 768;
    c.regs_per_thread = 16;
    OccResult r;
    assert_int_equal(occ_compute(t.arch, &c, &r, NULL), SIM_OK);
    char buf[8192];
    size_t n = occ_explain(&t, &c, &r, buf, sizeof buf);
    assert_true(n < sizeof buf);
    assert_int_equal(n, strlen(buf));
    assert_non_null(strstr(buf, "768 threads per block"));
    assert_non_null(strstr(buf, "2048-thread limit"));
    assert_non_null(strstr(buf, "room for 2 blocks"));
    assert_non_null(strstr(buf, "75.0%"));
    assert_non_null(strstr(buf, "set by warps"));
    /* a short buffer is truncated, and the full length is still reported */
    char small[16];
    assert_int_equal(occ_explain(&t, &c, &r, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
}

static void test_batch_line_parser_accepts_the_contract_and_names_errors(void **s)
{
    (void)s;
    OccConfig c;
    ArchTarget t;
    char err[200];
    assert_true(occ_batch_parse("{\"arch\": \"sm_90\", \"block\": 256, \"regs\": 32, "
                                "\"smem_static\": 0, \"smem_dyn\": 4096, \"carveout\": -1}\n",
                                &c, &t, err, sizeof err));
    assert_string_equal(t.arch->name, "sm_90");
    assert_int_equal(c.block_size, 256);
    assert_int_equal(c.regs_per_thread, 32);
    assert_int_equal(c.smem_dynamic, 4096);
    assert_int_equal(c.carveout, -1);
    assert_true(occ_batch_parse("{\"gpu\":\"a100\",\"block\":64,\"regs\":8,\"carveout\":\"maxl1\"}",
                                &c, &t, err, sizeof err));
    assert_int_equal(t.sm_count, 108);
    assert_int_equal(c.carveout, 0);
    static const struct { const char *line, *msg; } bad[] = {
        {"[1]", "expected '{' at column 1"},
        {"{\"arch\": \"sm_90\", \"block\": 64}", "missing \"regs\""},
        {"{\"arch\": \"sm_91\", \"block\": 64, \"regs\": 1}", "unknown GPU 'sm_91'"},
        {"{\"arch\": \"sm_90\", \"block\": 64, \"regs\": 1, \"x\": 2}", "unknown key \"x\""},
        {"{\"arch\": \"sm_90\", \"block\": -4, \"regs\": 1}", "\"block\" must be"},
        {"{\"arch\": \"sm_90\", \"block\": 64, \"regs\": 1, \"carveout\": 150}", "bad carveout"},
        {"{\"arch\": \"sm_90\" \"block\": 64}", "expected ',' or '}' at column 18"},
        {"{\"arch\": \"sm_90", "unterminated string"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_false(occ_batch_parse(bad[i].line, &c, &t, err, sizeof err));
        if (!strstr(err, bad[i].msg))
            fail_msg("line %s: got '%s', want '%s'", bad[i].line, err, bad[i].msg);
    }
    OccResult r = run("sm_100", 768, 16, 0, 0, -1);
    char out[512];
    occ_json_fields(out, sizeof out, &r);
    assert_non_null(strstr(out, "\"blocks_per_sm\": 2, \"warps_per_sm\": 48, \"occupancy\": 0.75, "
                                "\"limiters\": [\"warps\"]"));
}

/* ---- the oracle sweep ---- */

static size_t perthread_dyn(int block, void *user)
{
    return (size_t)block * *(size_t *)user;
}

static int min5(int a, int b, int c, int d, int e)
{
    int m = a;
    if (b < m) m = b;
    if (c < m) m = c;
    if (d < m) m = d;
    if (e < m) m = e;
    return m;
}

static void test_model_agrees_with_cuda_occupancy_header(void **s)
{
    (void)s;
    FILE *f = popen("sh tests/oracle/run_oracle.sh", "r");
    assert_non_null(f);
    char line[512];
    long configs = 0, searches = 0, bad = 0, stale_flags = 0, errors = 0;
    int ccs = 0, unsupported = 0;
    char ccnames[256] = "";
    bool ended = false;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "skip:", 5)) {
            printf("%s", line);
            fflush(stdout);
            while (fgets(line, sizeof line, f)) {}
            pclose(f);
            skip();
        }
        if (line[0] == 'o') {
            int maj, min, block, regs, optin, co, cache, bars, virt;
            size_t st, dyn, maxdyn, asmem;
            int status, blocks, lr, ls, lw, lb, lbar, lv, aregs;
            unsigned flags;
            int n = sscanf(line, "o %d %d %d %d %zu %zu %zu %d %d %d %d %d : %d %d %u %d %d %d %d %d %d %d %zu",
                           &maj, &min, &block, &regs, &st, &dyn, &maxdyn, &optin, &co, &cache,
                           &bars, &virt, &status, &blocks, &flags, &lr, &ls, &lw, &lb, &lbar,
                           &lv, &aregs, &asmem);
            assert_int_equal(n, 23);
            const ArchProfile *a = arch_find_cc(maj, min);
            assert_non_null(a);
            OccConfig c;
            occ_config_init(&c);
            c.block_size = block;
            c.regs_per_thread = regs;
            c.smem_static = st;
            c.smem_dynamic = dyn;
            c.max_dynamic_smem = maxdyn;
            c.smem_optin = optin;
            c.carveout = co;
            c.cache_config = (CarveoutCacheConfig)cache;
            c.barriers = bars;
            c.virtual_resources = virt;
            OccResult r;
            SimStatus got = occ_compute(a, &c, &r, NULL);
            configs++;
            bool ok;
            if (status != 0) {
                errors++;
                ok = got != SIM_OK;
            } else {
                /* The header keeps the flags set before the barrier limit
                 * lowered the result; warpsim names only limits that bind. */
                unsigned want = flags;
                if (lbar < min5(lr, ls, lw, lb, lv)) {
                    want = OCC_LIMIT_BARRIERS;
                    if (flags != want)
                        stale_flags++;
                }
                ok = got == SIM_OK && r.blocks_per_sm == blocks && r.limiters == want &&
                     r.limit_regs == lr && r.limit_smem == ls && r.limit_warps == lw &&
                     r.limit_blocks == lb && r.limit_barriers == lbar && r.limit_virtual == lv &&
                     r.smem_per_block == asmem && (regs > 256 || r.regs_per_block == aregs);
            }
            if (!ok) {
                if (bad < 10)
                    printf("mismatch: %s  warpsim: status %d blocks %d flags %u limits r%d s%d w%d "
                           "b%d bar%d v%d alloc %d %zu\n", line, got, r.blocks_per_sm, r.limiters,
                           r.limit_regs, r.limit_smem, r.limit_warps, r.limit_blocks,
                           r.limit_barriers, r.limit_virtual, r.regs_per_block, r.smem_per_block);
                bad++;
            }
        } else if (line[0] == 's') {
            int maj, min, maxthreads, regs, optin, co, cache, bars, sms, status, grid, bsize;
            size_t st, dyn, perthread, maxdyn;
            int n = sscanf(line, "s %d %d %d %d %zu %zu %zu %zu %d %d %d %d %d : %d %d %d", &maj,
                           &min, &maxthreads, &regs, &st, &dyn, &perthread, &maxdyn, &optin, &co,
                           &cache, &bars, &sms, &status, &grid, &bsize);
            assert_int_equal(n, 16);
            const ArchProfile *a = arch_find_cc(maj, min);
            assert_non_null(a);
            OccConfig c;
            occ_config_init(&c);
            c.max_threads_per_block = maxthreads;
            c.regs_per_thread = regs;
            c.smem_static = st;
            c.smem_dynamic = dyn;
            c.max_dynamic_smem = maxdyn;
            c.smem_optin = optin;
            c.carveout = co;
            c.cache_config = (CarveoutCacheConfig)cache;
            c.barriers = bars;
            OccBlockSizeResult b;
            SimStatus got = occ_max_potential_block_size(a, sms, &c, perthread ? perthread_dyn : NULL,
                                                         &perthread, 0, &b, NULL);
            searches++;
            bool ok = status ? got != SIM_OK
                             : got == SIM_OK && b.block_size == bsize && b.min_grid_size == grid;
            if (!ok) {
                if (bad < 10)
                    printf("search mismatch: %s  warpsim: %d %d\n", line, b.min_grid_size, b.block_size);
                bad++;
            }
        } else if (!strncmp(line, "dev ", 4)) {
            int maj, min, thr, tpb, rsm, rblk;
            size_t ssm, sblk, opt, res;
            assert_int_equal(sscanf(line, "dev %d %d %d %d %d %d %zu %zu %zu %zu", &maj, &min, &thr,
                                    &tpb, &rsm, &rblk, &ssm, &sblk, &opt, &res), 10);
            const ArchProfile *a = arch_find_cc(maj, min);
            assert_non_null(a);
            /* the oracle's separate transcription of arch-facts Tables 1-2 */
            assert_int_equal(a->max_threads_per_sm, thr);
            assert_int_equal(a->max_threads_per_block, tpb);
            assert_int_equal(a->regs_per_sm, rsm);
            assert_int_equal(a->max_regs_per_block, rblk);
            assert_int_equal(a->smem_per_sm, ssm);
            assert_int_equal(a->smem_per_block, sblk);
            assert_int_equal(a->smem_per_block_optin, opt);
            assert_int_equal(a->smem_reserved_per_block, res);
            ccs++;
            size_t l = strlen(ccnames);
            snprintf(ccnames + l, sizeof ccnames - l, "%s%s", l ? " " : "", a->name);
        } else if (!strncmp(line, "unsupported ", 12)) {
            int maj, min;
            sscanf(line, "unsupported %d %d", &maj, &min);
            printf("skip: cuda_occupancy.h does not support CC %d.%d, not compared\n", maj, min);
            unsupported++;
        } else if (!strncmp(line, "end ", 4)) {
            long total = atol(line + 4);
            assert_int_equal(total, configs + searches);
            ended = true;
        }
    }
    int rc = pclose(f);
    assert_int_equal(rc, 0);
    assert_true(ended);
    assert_int_equal(ccs + unsupported, arch_count());
    printf("oracle: %ld configurations and %ld block-size searches over %d CCs (%s): "
           "%ld disagree; %ld expected errors; %ld results where the header also keeps "
           "limiter flags the barrier limit overrode\n",
           configs, searches, ccs, ccnames, bad, errors, stale_flags);
    assert_int_equal(bad, 0);
    assert_true(configs + searches >= 100000);
}

/* ---- the CLI, when $WARPSIM names a built warpsim ---- */

static const char *warpsim_or_skip(void)
{
    const char *w = getenv("WARPSIM");
    if (!w || access(w, X_OK) != 0) {
        printf("skip: $WARPSIM is not a built warpsim, CLI tests not run\n");
        skip();
    }
    return w;
}

/* Run a shell command, capture stdout into out, return the exit status. */
static int sh(const char *cmd, char *out, size_t cap)
{
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    int rc = pclose(f);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_cli_json_has_the_contract_fields(void **s)
{
    (void)s;
    const char *w = warpsim_or_skip();
    char cmd[512], out[8192];
    snprintf(cmd, sizeof cmd, "%s occupancy --arch sm_100 --block 768 --regs 16 --json", w);
    assert_int_equal(sh(cmd, out, sizeof out), 0);
    const char *keys[] = {"\"blocks_per_sm\": 2", "\"warps_per_sm\": 48", "\"occupancy\": 0.75",
                          "\"limiters\": [\"warps\"]", "\"smem_capacity\": 233472",
                          "\"l1_capacity\": 28672", "\"resident_blocks_per_sm\": 2"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strstr(out, keys[i]))
            fail_msg("missing %s in %s", keys[i], out);
    snprintf(cmd, sizeof cmd, "%s occupancy --gpu rtx5090 --block 128 --regs 16 --smem-dyn 40960 "
                              "--carveout 50 --json", w);
    assert_int_equal(sh(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "\"smem_capacity\": 65536"));
    assert_non_null(strstr(out, "\"limiters\": [\"shared_memory\"]"));
}

static void test_cli_bad_usage_exits_2_with_a_message(void **s)
{
    (void)s;
    const char *w = warpsim_or_skip();
    char cmd[512], out[16384];
    snprintf(cmd, sizeof cmd, "%s occupancy --arch sm_99 --block 64 --regs 8 2>&1", w);
    assert_int_equal(sh(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown GPU 'sm_99'"));
    snprintf(cmd, sizeof cmd, "%s occupancy --arch sm_90 --regs 8 2>&1", w);
    assert_int_equal(sh(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "--block"));
    snprintf(cmd, sizeof cmd, "%s occupancy --arch sm_90 --block 64 --regs 8 --carveout 120 2>&1", w);
    assert_int_equal(sh(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "carveout"));
    snprintf(cmd, sizeof cmd, "%s occupancy --help", w);
    assert_int_equal(sh(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "occupancy"));
    assert_non_null(strstr(out, "--carveout"));
}

static void test_cli_batch_answers_in_order_and_survives_bad_lines(void **s)
{
    (void)s;
    const char *w = warpsim_or_skip();
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd,
             "printf '%%s\\n' "
             "'{\"arch\": \"sm_100\", \"block\": 768, \"regs\": 16, \"smem_static\": 0, \"smem_dyn\": 0, \"carveout\": -1}' "
             "'{\"arch\": \"sm_100\", \"block\": 768, \"regs\": 16' "
             "'{\"arch\": \"sm_120\", \"block\": 128, \"regs\": 16, \"smem_static\": 0, \"smem_dyn\": 40960, \"carveout\": 50}' "
             "| %s occupancy --batch", w);
    assert_int_equal(sh(cmd, out, sizeof out), 0);
    char *l1 = out, *l2 = strchr(l1, '\n');
    assert_non_null(l2);
    *l2++ = 0;
    char *l3 = strchr(l2, '\n');
    assert_non_null(l3);
    *l3++ = 0;
    assert_non_null(strstr(l1, "\"blocks_per_sm\": 2"));
    assert_non_null(strstr(l2, "\"error\""));
    assert_non_null(strstr(l3, "\"smem_capacity\": 65536"));
}

static void test_cli_batch_answers_100000_lines_quickly(void **s)
{
    (void)s;
    const char *w = warpsim_or_skip();
    char in[] = "/tmp/warpsim-batch-XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < 100000; i++)
        fprintf(f, "{\"arch\": \"sm_%d\", \"block\": %d, \"regs\": %d, \"smem_static\": %d, "
                   "\"smem_dyn\": %d, \"carveout\": %d}\n",
                i % 3 ? 90 : 80, 1 + i % 1024, i % 256, (i * 7) % 4096, (i * 131) % 100000,
                i % 102 - 1);
    fclose(f);
    char cmd[512], out[256];
    snprintf(cmd, sizeof cmd, "%s occupancy --batch < %s | wc -l", w, in);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = sh(cmd, out, sizeof out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    unlink(in);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("batch: 100000 lines in %.3f s\n", secs);
    assert_int_equal(rc, 0);
    assert_int_equal(atol(out), 100000);
    assert_true(secs < 5.0);   /* ~0.1 s normally; slack for sanitizer builds */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_768_threads_cc100_is_75_percent_limited_by_warps),
        cmocka_unit_test(test_seed_32_threads_cc100_is_50_percent_limited_by_blocks),
        cmocka_unit_test(test_seed_100kb_smem_per_block_gives_2_blocks_limited_by_smem),
        cmocka_unit_test(test_seed_carveout_50_percent_is_64kb_on_cc120_and_100kb_on_cc80),
        cmocka_unit_test(test_seed002_48kb_blocks_fit_twice_in_96kb_volta),
        cmocka_unit_test(test_registers_round_up_to_256_per_warp),
        cmocka_unit_test(test_register_launch_check_rounds_warps_to_4),
        cmocka_unit_test(test_reserve_counts_from_sm80_only),
        cmocka_unit_test(test_48kb_default_ceiling_and_optin),
        cmocka_unit_test(test_small_carveout_is_raised_to_fit_one_block),
        cmocka_unit_test(test_carveout_rounding_tables),
        cmocka_unit_test(test_carveout_parse_names_and_percentages),
        cmocka_unit_test(test_barriers_bind_on_cc120_with_two_per_block),
        cmocka_unit_test(test_bad_input_is_an_error_with_a_message),
        cmocka_unit_test(test_block_size_search_matches_measured_h100),
        cmocka_unit_test(test_cluster_bound_matches_measured_h200_small_clusters),
        cmocka_unit_test(test_max_active_clusters_follows_the_gpc_model_and_names_the_limiter),
        cmocka_unit_test(test_explain_walks_through_the_seed_example),
        cmocka_unit_test(test_batch_line_parser_accepts_the_contract_and_names_errors),
        cmocka_unit_test(test_model_agrees_with_cuda_occupancy_header),
        cmocka_unit_test(test_cli_json_has_the_contract_fields),
        cmocka_unit_test(test_cli_bad_usage_exits_2_with_a_message),
        cmocka_unit_test(test_cli_batch_answers_in_order_and_survives_bad_lines),
        cmocka_unit_test(test_cli_batch_answers_100000_lines_quickly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
