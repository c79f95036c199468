/* arch.c: the table of architecture profiles and named parts (see arch.h),
 * and the lookups that turn "sm_90" or "h100-sxm" into one.  Every number
 * comes from ../shared/reference/arch-facts.md; the comments flag the ones
 * that document marks unconfirmed. */
#include "arch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KB 1024

/* Fields that are the same on every profile here. */
#define FIXED                                                        \
    .warp_size = 32, .max_threads_per_block = 1024,                  \
    .max_block_dim = {1024, 1024, 64},                               \
    .max_grid_dim = {2147483647, 65535, 65535},                      \
    .regs_per_sm = 65536, .max_regs_per_block = 65536,               \
    .max_regs_per_thread = 255, .reg_alloc_unit = 256,               \
    .reg_subpartitions = 4, .smem_per_block = 48 * KB

/* Supported shared-memory capacities (KB) of each family (Table 2). */
#define CARVE_VOLTA   .carveout_kb = {0, 8, 16, 32, 64, 96}, .n_carveouts = 6
#define CARVE_TURING  .carveout_kb = {32, 64}, .n_carveouts = 2
#define CARVE_GA100   .carveout_kb = {0, 8, 16, 32, 64, 100, 132, 164}, .n_carveouts = 8
#define CARVE_GA10X   .carveout_kb = {0, 8, 16, 32, 64, 100}, .n_carveouts = 6
#define CARVE_HOPPER  .carveout_kb = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, .n_carveouts = 10

static const ArchProfile profiles[] = {
    {.name = "sm_70", .cc_major = 7, .cc_minor = 0, .family = "Volta", FIXED,
     /* max regs/block 65536 is unconfirmed for 7.0 (arch-facts Table 1) */
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .smem_per_sm = 96 * KB, .smem_per_block_optin = 96 * KB,
     .smem_reserved_per_block = 0, .smem_alloc_unit = 256,
     .unified_cache = 128 * KB, CARVE_VOLTA,
     .barrier_slots_per_block = 2, .virtual_resources_per_sm = 0,
     .cluster_max_portable = 0, .cluster_max_nonportable = 0,
     .reference_part = "v100"},
    {.name = "sm_75", .cc_major = 7, .cc_minor = 5, .family = "Turing", FIXED,
     .max_threads_per_sm = 1024, .max_warps_per_sm = 32, .max_blocks_per_sm = 16,
     .smem_per_sm = 64 * KB, .smem_per_block_optin = 64 * KB,
     .smem_reserved_per_block = 0, .smem_alloc_unit = 256,
     .unified_cache = 96 * KB, CARVE_TURING,
     .barrier_slots_per_block = 2, .virtual_resources_per_sm = 0,
     .cluster_max_portable = 0, .cluster_max_nonportable = 0,
     .reference_part = "t4"},
    {.name = "sm_80", .cc_major = 8, .cc_minor = 0, .family = "Ampere (GA100)", FIXED,
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .smem_per_sm = 164 * KB, .smem_per_block_optin = 163 * KB,
     .smem_reserved_per_block = 1 * KB, .smem_alloc_unit = 128,
     .unified_cache = 192 * KB, CARVE_GA100,
     .barrier_slots_per_block = 2, .virtual_resources_per_sm = 0,
     .cluster_max_portable = 0, .cluster_max_nonportable = 0,
     .reference_part = "a100"},
    {.name = "sm_86", .cc_major = 8, .cc_minor = 6, .family = "Ampere (GA10x)", FIXED,
     .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 16,
     .smem_per_sm = 100 * KB, .smem_per_block_optin = 99 * KB,
     .smem_reserved_per_block = 1 * KB, .smem_alloc_unit = 128,
     .unified_cache = 128 * KB, CARVE_GA10X,
     .barrier_slots_per_block = 1, .virtual_resources_per_sm = 0,
     .cluster_max_portable = 0, .cluster_max_nonportable = 0,
     .reference_part = "rtx3090"},
    {.name = "sm_87", .cc_major = 8, .cc_minor = 7, .family = "Ampere (Orin)", FIXED,
     .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 16,
     .smem_per_sm = 164 * KB, .smem_per_block_optin = 163 * KB,
     .smem_reserved_per_block = 1 * KB, .smem_alloc_unit = 128,
     .unified_cache = 192 * KB, CARVE_GA100,
     .barrier_slots_per_block = 1, .virtual_resources_per_sm = 0,
     .cluster_max_portable = 0, .cluster_max_nonportable = 0,
     .reference_part = "agx-orin"},
    {.name = "sm_89", .cc_major = 8, .cc_minor = 9, .family = "Ada", FIXED,
     .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 24,
     .smem_per_sm = 100 * KB, .smem_per_block_optin = 99 * KB,
     .smem_reserved_per_block = 1 * KB, .smem_alloc_unit = 128,
     .unified_cache = 128 * KB, CARVE_GA10X,
     .barrier_slots_per_block = 1, .virtual_resources_per_sm = 0,
     .cluster_max_portable = 0, .cluster_max_nonportable = 0,
     .reference_part = "rtx4090"},
    {.name = "sm_90", .cc_major = 9, .cc_minor = 0, .family = "Hopper", FIXED,
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .smem_per_sm = 228 * KB, .smem_per_block_optin = 227 * KB,
     .smem_reserved_per_block = 1 * KB, .smem_alloc_unit = 128,
     .unified_cache = 256 * KB, CARVE_HOPPER,
     .barrier_slots_per_block = 2, .virtual_resources_per_sm = 0,
     .cluster_max_portable = 8, .cluster_max_nonportable = 16,
     .reference_part = "h100-sxm"},
    {.name = "sm_100", .cc_major = 10, .cc_minor = 0, .family = "Blackwell (datacenter)", FIXED,
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .smem_per_sm = 228 * KB, .smem_per_block_optin = 227 * KB,
     .smem_reserved_per_block = 1 * KB, .smem_alloc_unit = 128,
     .unified_cache = 256 * KB, CARVE_HOPPER,
     .barrier_slots_per_block = 2, .virtual_resources_per_sm = 128,
     .cluster_max_portable = 8, .cluster_max_nonportable = 16,
     .reference_part = "b200"},
    {.name = "sm_103", .cc_major = 10, .cc_minor = 3, .family = "Blackwell Ultra", FIXED,
     /* 1 KB reserve inferred; non-portable cluster size unconfirmed (kept at 8) */
     .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
     .smem_per_sm = 228 * KB, .smem_per_block_optin = 227 * KB,
     .smem_reserved_per_block = 1 * KB, .smem_alloc_unit = 128,
     .unified_cache = 256 * KB, CARVE_HOPPER,
     .barrier_slots_per_block = 2, .virtual_resources_per_sm = 128,
     .cluster_max_portable = 8, .cluster_max_nonportable = 8,
     .reference_part = "b300"},
    {.name = "sm_120", .cc_major = 12, .cc_minor = 0, .family = "Blackwell (GeForce)", FIXED,
     /* unified cache: 128 KB per the new programming guide; the legacy guide
      * says 100 KB (arch-facts Table 2 "conflict").  Non-portable cluster
      * size unconfirmed (kept at 8). */
     .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 24,
     .smem_per_sm = 100 * KB, .smem_per_block_optin = 99 * KB,
     .smem_reserved_per_block = 1 * KB, .smem_alloc_unit = 128,
     .unified_cache = 128 * KB, CARVE_GA10X,
     .barrier_slots_per_block = 1, .virtual_resources_per_sm = 128,
     .cluster_max_portable = 8, .cluster_max_nonportable = 8,
     .reference_part = "rtx5090"},
};

/* Table 3.  confirmed = false where arch-facts marks the count unconfirmed. */
static const ArchPart parts[] = {
    {"v100", "NVIDIA Tesla V100", "sm_70", 80, false},
    {"t4", "NVIDIA T4", "sm_75", 40, false},
    {"a100", "NVIDIA A100", "sm_80", 108, true},
    {"a10", "NVIDIA A10", "sm_86", 72, false},
    {"rtx3090", "NVIDIA GeForce RTX 3090", "sm_86", 82, false},
    {"agx-orin", "NVIDIA Jetson AGX Orin (64 GB)", "sm_87", 16, false},
    {"rtx4090", "NVIDIA GeForce RTX 4090", "sm_89", 128, false},
    {"l4", "NVIDIA L4", "sm_89", 58, false},
    {"h100-sxm", "NVIDIA H100 SXM5", "sm_90", 132, true},
    {"h100-pcie", "NVIDIA H100 PCIe", "sm_90", 114, true},
    {"h200", "NVIDIA H200", "sm_90", 132, true},
    {"b200", "NVIDIA B200", "sm_100", 148, false},
    {"b300", "NVIDIA B300", "sm_103", 160, false},
    {"rtx5090", "NVIDIA GeForce RTX 5090", "sm_120", 170, false},
};

#define NPROFILES ((int)(sizeof profiles / sizeof *profiles))
#define NPARTS ((int)(sizeof parts / sizeof *parts))

int arch_count(void) { return NPROFILES; }

const ArchProfile *arch_at(int i)
{
    return i >= 0 && i < NPROFILES ? &profiles[i] : NULL;
}

int arch_part_count(void) { return NPARTS; }

const ArchPart *arch_part_at(int i)
{
    return i >= 0 && i < NPARTS ? &parts[i] : NULL;
}

const ArchProfile *arch_find_cc(int major, int minor)
{
    for (int i = 0; i < NPROFILES; i++)
        if (profiles[i].cc_major == major && profiles[i].cc_minor == minor)
            return &profiles[i];
    return NULL;
}

/* Parse a run of 1..3 decimal digits; -1 when s does not start with one. */
static int parse_small(const char **s)
{
    int v = 0, n = 0;
    while (isdigit((unsigned char)**s) && n < 4) {
        v = v * 10 + (**s - '0');
        (*s)++;
        n++;
    }
    return n == 0 || n > 3 ? -1 : v;
}

const ArchProfile *arch_find(const char *name)
{
    if (!name)
        return NULL;
    const char *s = name;
    if (!strncasecmp(s, "sm_", 3) || !strncasecmp(s, "sm", 2)) {
        s += s[2] == '_' ? 3 : 2;
    } else if (!strncasecmp(s, "compute_", 8)) {
        s += 8;
    }
    const char *start = s;
    int v = parse_small(&s);
    if (v < 0)
        return NULL;
    if (*s == '.') {           /* "9.0" */
        s++;
        int minor = parse_small(&s);
        if (minor < 0 || minor > 9 || *s)
            return NULL;
        return arch_find_cc(v, minor);
    }
    /* "90", "100", "120", optionally with the arch-specific suffix "a"/"f" */
    if (*s == 'a' || *s == 'f')
        s++;
    if (*s || s - start < 2)
        return NULL;
    return arch_find_cc(v / 10, v % 10);
}

/* Compare part names ignoring case and treating '_' as '-'. */
static bool part_name_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = tolower((unsigned char)*a), y = tolower((unsigned char)*b);
        if (x == '_')
            x = '-';
        if (y == '_')
            y = '-';
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

const ArchPart *arch_part_find(const char *name)
{
    if (!name)
        return NULL;
    for (int i = 0; i < NPARTS; i++)
        if (part_name_eq(name, parts[i].name))
            return &parts[i];
    return NULL;
}

char *arch_list_names(char *buf, int cap, bool want_parts)
{
    int n = 0;
    if (cap <= 0)
        return buf;
    buf[0] = 0;
    int count = want_parts ? NPARTS : NPROFILES;
    for (int i = 0; i < count && n < cap; i++) {
        const char *nm = want_parts ? parts[i].name : profiles[i].name;
        int w = snprintf(buf + n, (size_t)(cap - n), "%s%s", i ? ", " : "", nm);
        if (w < 0)
            break;
        n += w;
    }
    return buf;
}

SimStatus arch_resolve(const char *name, ArchTarget *out, SimError *err)
{
    memset(out, 0, sizeof *out);
    const ArchProfile *a = arch_find(name);
    if (a) {
        out->arch = a;
        out->part = arch_part_find(a->reference_part);
        out->sm_count = out->part ? out->part->sm_count : 1;
        out->by_part = false;
        return SIM_OK;
    }
    const ArchPart *p = arch_part_find(name);
    if (p) {
        out->arch = arch_find(p->arch);
        out->part = p;
        out->sm_count = p->sm_count;
        out->by_part = true;
        if (out->arch)
            return SIM_OK;
    }
    char archs[256], names[256];
    arch_list_names(archs, sizeof archs, false);
    arch_list_names(names, sizeof names, true);
    return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                         "unknown GPU '%s': known architectures are %s; known GPUs are %s",
                         name ? name : "(null)", archs, names);
}

int arch_gpc_layout(int sm_count, int sms[ARCH_MAX_GPCS])
{
    int n = sm_count > 0 ? sm_count : 1;
    int g = (n + 17) / 18;
    if (g > ARCH_MAX_GPCS)
        g = ARCH_MAX_GPCS;
    if (g < 1)
        g = 1;
    for (int i = 0; i < g; i++)
        sms[i] = 0;
    /* whole TPCs round robin, then a last odd SM to the next GPC */
    for (int t = 0; t < n / 2; t++)
        sms[t % g] += 2;
    if (n % 2)
        sms[(n / 2) % g]++;
    return g;
}
