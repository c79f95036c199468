/* occupancy_explain.c: occ_explain(), the plain-English walk through every
 * occupancy limit that `warpsim occupancy --explain` prints and lesson 4
 * follows: warps, registers, shared memory (with the carveout), blocks,
 * barriers, then the result and the limiter.  Text only; the numbers come
 * from occ_compute (occupancy.c). */
#include "occupancy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    char *buf;
    size_t cap, len;
} Out;

__attribute__((format(printf, 2, 3)))
static void say(Out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = o->len < o->cap ? o->buf + o->len : NULL;
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

static const char *plural(long long n) { return n == 1 ? "" : "s"; }

/* "48 KB (49152 bytes)", "1000 bytes" */
static const char *bytes_str(size_t b, char *buf, size_t cap)
{
    if (b && b % 1024 == 0)
        snprintf(buf, cap, "%zu KB (%zu bytes)", b / 1024, b);
    else
        snprintf(buf, cap, "%zu bytes", b);
    return buf;
}

static void explain_warps(Out *o, const ArchProfile *a, const OccConfig *c, const OccResult *r)
{
    int w = r->warps_per_block;
    say(o, "Threads and warps. ");
    if (c->block_size > a->max_threads_per_block) {
        say(o, "%d threads per block is more than the %d a block may have on %s: "
               "the launch fails, 0 blocks.\n\n", c->block_size, a->max_threads_per_block, a->name);
        return;
    }
    say(o, "%d threads per block", c->block_size);
    if (c->block_size % a->warp_size)
        say(o, " round up to %d warp%s (%d thread slots; the last warp has only %d "
               "live threads, but it takes a whole warp slot)",
            w, plural(w), w * a->warp_size, c->block_size % a->warp_size);
    else
        say(o, " are %d warp%s of %d", w, plural(w), a->warp_size);
    int n = r->limit_warps;
    say(o, ": the %d-thread limit (%d warps per SM) leaves room for %d block%s",
        a->max_threads_per_sm, a->max_warps_per_sm, n, plural(n));
    say(o, " (%d x %d = %d threads", n, w * a->warp_size, n * w * a->warp_size);
    if (n >= 1 && (n + 1) * w <= a->max_warps_per_sm * 4)
        say(o, "; a block number %d would make %d, more than %d",
            n + 1, (n + 1) * w * a->warp_size, a->max_threads_per_sm);
    say(o, ").\n\n");
}

static void explain_regs(Out *o, const ArchProfile *a, const OccConfig *c, const OccResult *r)
{
    say(o, "Registers. ");
    if (r->regs_over_thread_max) {
        say(o, "%d registers per thread is more than a thread can have (%d): the launch "
               "fails, 0 blocks.\n\n", c->regs_per_thread, a->max_regs_per_thread);
        return;
    }
    if (c->regs_per_thread == 0) {
        say(o, "With 0 registers per thread given, registers set no limit. (Real kernels "
               "always use some: pass --regs N or --ptx.)\n\n");
        return;
    }
    int raw = c->regs_per_thread * a->warp_size;
    say(o, "%d registers per thread x %d threads = %d registers per warp", c->regs_per_thread,
        a->warp_size, raw);
    if (raw != r->regs_per_warp)
        say(o, ", allocated in units of %d: %d per warp (as if %d per thread)", a->reg_alloc_unit,
            r->regs_per_warp, r->regs_per_warp / a->warp_size);
    say(o, ". ");
    if (r->limit_regs == 0) {
        say(o, "A block needs %d registers", r->regs_per_block);
        if (r->regs_per_block_checked != r->regs_per_block)
            say(o, " (the launch check counts its %d warps as %d, a multiple of %d: %d)",
                r->warps_per_block, r->regs_per_block_checked / r->regs_per_warp,
                a->reg_subpartitions, r->regs_per_block_checked);
        say(o, ", more than the %d one block may use: the launch fails with \"too many "
               "resources requested\", 0 blocks. Lower the block size, or the registers "
               "(--maxrregcount or __launch_bounds__).\n\n", a->max_regs_per_block);
        return;
    }
    int per_part = a->regs_per_sm / a->reg_subpartitions;
    say(o, "The register file (%d registers, in %d partitions of %d) holds %d x floor(%d / %d) "
           "= %d warps, room for floor(%d / %d) = %d block%s.\n\n",
        a->regs_per_sm, a->reg_subpartitions, per_part, a->reg_subpartitions, per_part,
        r->regs_per_warp, r->warps_per_sm_by_regs, r->warps_per_sm_by_regs, r->warps_per_block,
        r->limit_regs, plural(r->limit_regs));
}

static void explain_smem(Out *o, const ArchProfile *a, const OccConfig *c, const OccResult *r)
{
    char b1[64], b2[64], b3[64], co[16];
    say(o, "Shared memory. ");
    size_t used = c->smem_static + c->smem_dynamic;
    if (used == 0)
        say(o, "The kernel uses no shared memory");
    else
        say(o, "The kernel uses %s per block (%zu static + %zu dynamic)",
            bytes_str(used, b1, sizeof b1), c->smem_static, c->smem_dynamic);
    if (r->smem_reserved)
        say(o, "; from sm_80 the driver reserves %zu bytes more per block", r->smem_reserved);
    say(o, ". Allocated in units of %d bytes, a block takes %zu bytes.", a->smem_alloc_unit,
        r->smem_per_block);
    if (r->smem_dyn_over_max) {
        say(o, " But the launch asks for %zu bytes of dynamic shared memory and the kernel's "
               "cudaFuncAttributeMaxDynamicSharedMemorySize is %zu: the launch fails, 0 blocks.\n\n",
            c->smem_dynamic, r->max_dynamic_smem);
        return;
    }
    if (used > (size_t)a->smem_per_block && r->smem_ceiling_optin)
        say(o, " That is more than the 48 KB a block gets by default, so the kernel must use "
               "dynamic shared memory (extern __shared__) and opt in with cudaFuncSetAttribute(kernel, "
               "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes); the ceiling is then %s%s.",
            bytes_str(r->smem_block_ceiling, b2, sizeof b2),
            r->smem_reserved ? " including the reserve" : "");
    else if (used > (size_t)a->smem_per_block)
        say(o, " That is more than the 48 KB a block may have without the opt-in "
               "(cudaFuncAttributeMaxDynamicSharedMemorySize).");
    else
        say(o, " Up to 48 KB per block needs no opt-in (up to %s with "
               "cudaFuncAttributeMaxDynamicSharedMemorySize).",
            bytes_str((size_t)a->smem_per_block_optin, b2, sizeof b2));
    if (r->smem_per_block > r->smem_block_ceiling) {
        say(o, " The block needs more than that: the launch fails, 0 blocks.\n\n");
        return;
    }
    carveout_format(r->carveout_effective, co, sizeof co);
    if (r->carveout_effective == CARVEOUT_DEFAULT)
        say(o, " With the default carveout the calculation assumes the largest shared-memory "
               "size, %s per SM.", bytes_str(r->smem_preferred, b3, sizeof b3));
    else
        say(o, " A carveout of %s asks for %d%% of %d bytes = %zu bytes, rounded up to the next "
               "size %s supports: %s.", co, r->carveout_effective, a->smem_per_sm,
            (size_t)r->carveout_effective * (size_t)a->smem_per_sm / 100, a->name,
            bytes_str(r->smem_preferred, b3, sizeof b3));
    if (r->smem_capacity != r->smem_preferred)
        say(o, " That cannot hold even one block, so the next size that can is used instead: %s.",
            bytes_str(r->smem_capacity, b3, sizeof b3));
    if (r->limit_smem == OCC_UNLIMITED) {
        say(o, " Nothing to divide: shared memory sets no limit.\n\n");
        return;
    }
    int n = r->limit_smem;
    say(o, " %zu / %zu leaves room for %d block%s", r->smem_capacity, r->smem_per_block, n, plural(n));
    if ((long long)(n + 1) * (long long)r->smem_per_block <= 4LL * (long long)r->smem_capacity)
        say(o, " (a block number %d would need %zu bytes in all)", n + 1,
            (size_t)(n + 1) * r->smem_per_block);
    say(o, ".\n\n");
}

size_t occ_explain(const ArchTarget *t, const OccConfig *c, const OccResult *r, char *buf,
                   size_t cap)
{
    Out o = {buf, cap, 0};
    const ArchProfile *a = t->arch;
    char lim[128], b1[64], b2[64];
    if (cap)
        buf[0] = 0;

    say(&o, "Occupancy on %s (%s, compute capability %d.%d", a->name, a->family, a->cc_major,
        a->cc_minor);
    if (t->part)
        say(&o, "; %s: %d SMs", t->part->product, t->sm_count);
    say(&o, ").\nOccupancy = active warps per SM / the most warps an SM can hold (%d). A block "
            "runs on one SM until it finishes; an SM takes as many blocks at once as every "
            "limit below allows, and the smallest limit wins.\n\n", a->max_warps_per_sm);

    explain_warps(&o, a, c, r);
    explain_regs(&o, a, c, r);
    explain_smem(&o, a, c, r);

    say(&o, "Blocks. An SM of %s keeps at most %d blocks resident, however small they are.",
        a->name, a->max_blocks_per_sm);
    if (r->limit_blocks < r->limit_warps && r->limit_blocks <= r->blocks_per_sm)
        say(&o, " Here that binds first: %d blocks x %d threads = %d threads, so blocks this "
                "small leave thread slots empty.", a->max_blocks_per_sm, c->block_size,
            a->max_blocks_per_sm * c->block_size);
    say(&o, "\n\n");

    if (r->limit_barriers != OCC_UNLIMITED)
        say(&o, "Barriers. From sm_90 a block's barriers come from a pool of %d x %d = %d per SM; "
                "with %d barrier%s per block that allows %d block%s.\n\n",
            a->barrier_slots_per_block, a->max_blocks_per_sm,
            a->barrier_slots_per_block * a->max_blocks_per_sm, c->barriers, plural(c->barriers),
            r->limit_barriers, plural(r->limit_barriers));
    if (r->limit_virtual != OCC_UNLIMITED)
        say(&o, "Virtual resources. %d per SM, %d per block: room for %d blocks.\n\n",
            a->virtual_resources_per_sm, c->virtual_resources, r->limit_virtual);

    occ_limiters_format(r->limiters, lim, sizeof lim);
    for (char *u = lim; *u; u++)
        if (*u == '_')
            *u = ' ';
    say(&o, "Result. The smallest limit is %d block%s per SM, set by %s. ", r->blocks_per_sm,
        plural(r->blocks_per_sm), lim);
    say(&o, "%d block%s x %d warp%s = %d of %d warps: theoretical occupancy %.1f%%.",
        r->blocks_per_sm, plural(r->blocks_per_sm), r->warps_per_block, plural(r->warps_per_block),
        r->warps_per_sm, a->max_warps_per_sm, 100.0 * r->occupancy);
    if (t->part && r->blocks_per_sm)
        say(&o, " A grid fills every SM of the %s once it has %d x %d = %d blocks (one wave).",
            t->part->name, r->blocks_per_sm, t->sm_count, r->blocks_per_sm * t->sm_count);
    say(&o, "\n\n");

    say(&o, "Carveout. Shared memory and L1 share one %s data cache per SM: shared memory "
            "gets %s, L1 the other %s.\n\n",
        bytes_str((size_t)a->unified_cache, b1, sizeof b1),
        bytes_str(r->smem_capacity, b2, sizeof b2), bytes_str(r->l1_capacity, lim, sizeof lim));

    say(&o, "Hardware. The driver treats the carveout as a hint, not a rule, and can keep more "
            "blocks resident than the occupancy API predicts. resident_blocks_per_sm (%d) is "
            "warpsim's answer for what the hardware keeps resident: the API's answer, except "
            "that a kernel using no shared memory is not held back by the 1 KB per-block "
            "reserve (measured on an H100; other departures are listed in traces/hw/README.md).\n",
        r->resident_blocks_per_sm);
    return o.len;
}
