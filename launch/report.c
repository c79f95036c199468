/* report.c: human and JSON renderings of errors, faults and statistics. */
#include "report.h"

#include <inttypes.h>
#include <string.h>

void report_error(FILE *f, const SimError *e, const char *source, size_t len)
{
    char buf[2048];
    fputs(sim_error_format(e, source, len, buf, sizeof buf), f);
}

void report_fault(FILE *f, const DeviceFault *x)
{
    fprintf(f, "kernel fault: %s\n  %s\n", x->kind, x->msg);
    if (x->warp >= 0) /* -1: the launch as a whole (stopped, memory-limit, unsupported) */
        fprintf(f, "  block (%u,%u,%u) thread (%u,%u,%u)  [warp %d, lane %d]\n", x->block.x, x->block.y,
                x->block.z, x->thread.x, x->thread.y, x->thread.z, x->warp, x->lane);
    if (x->line > 0)
        fprintf(f, "  at %s:%d\n", x->file, x->line);
    if (x->ptx_line > 0)
        fprintf(f, "  PTX line %d: %s\n", x->ptx_line, x->ptx_text);
}

void report_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void report_fault_json(FILE *f, const DeviceFault *x)
{
    fputs("{\"kind\": ", f);
    report_json_string(f, x->kind);
    fputs(", \"message\": ", f);
    report_json_string(f, x->msg);
    fprintf(f, ", \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u], \"warp\": %d, \"lane\": %d",
            x->block.x, x->block.y, x->block.z, x->thread.x, x->thread.y, x->thread.z, x->warp, x->lane);
    fputs(", \"file\": ", f);
    report_json_string(f, x->file);
    fprintf(f, ", \"line\": %d, \"ptx_line\": %d, \"ptx\": ", x->line, x->ptx_line);
    report_json_string(f, x->ptx_text);
    fprintf(f, ", \"address\": \"0x%" PRIx64 "\"}", x->addr);
}

/* "s" unless n is 1: "1 block", "2 blocks". */
static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0; }

/* The timing model's summary: time, occupancy, hit rates, and the stall
 * reasons that hold most warp cycles (those of 5% or more, at most 4). */
void report_timing(FILE *f, const DeviceTiming *t, uint64_t cycles)
{
    fprintf(f, "  %" PRIu64 " cycles modelled (%.2f us at %.0f MHz, incl. %" PRIu64 " of launch overhead)\n", cycles,
            (double)cycles / t->clock_mhz, t->clock_mhz, t->launch_overhead);
    fprintf(f, "  achieved occupancy %.1f%%; L1 %zu KB beside %zu KB shared\n", 100 * t->achieved_occupancy,
            t->l1_bytes / 1024, t->smem_carveout_bytes / 1024);
    fprintf(f, "  L1 hit rate %.1f%% of %" PRIu64 " sectors, L2 hit rate %.1f%% of %" PRIu64
               " sectors, DRAM %" PRIu64 " bytes read, %" PRIu64 " written\n",
            100 * ratio(t->l1_hits, t->l1_sectors), t->l1_sectors, 100 * ratio(t->l2_hits, t->l2_sectors),
            t->l2_sectors, t->dram_read_bytes, t->dram_write_bytes);
    if (t->smem_wavefronts)
        fprintf(f, "  shared memory: %" PRIu64 " wavefronts, %" PRIu64 " bank-conflict replays\n", t->smem_wavefronts,
                t->bank_conflict_replays);
    uint64_t total = 0;
    for (int i = 0; i < DEVICE_STALL_COUNT; i++)
        total += t->stall[i];
    if (!total)
        return;
    bool used[DEVICE_STALL_COUNT] = {false};
    fprintf(f, "  warp states:");
    for (int k = 0; k < 4; k++) {
        int best = -1;
        for (int i = 0; i < DEVICE_STALL_COUNT; i++)
            if (!used[i] && (best < 0 || t->stall[i] > t->stall[best]))
                best = i;
        if (best < 0 || (k && ratio(t->stall[best], total) < 0.05))
            break;
        used[best] = true;
        fprintf(f, "%s %s %.0f%%", k ? "," : "", device_stall_name(best), 100 * ratio(t->stall[best], total));
    }
    fprintf(f, "\n");
}

void report_timing_json(FILE *f, const DeviceTiming *t)
{
    fprintf(f, "{\"achieved_occupancy\": %.4f, \"clock_mhz\": %.0f, \"launch_overhead\": %" PRIu64
               ", \"l1_bytes\": %zu, \"smem_carveout_bytes\": %zu, \"l1_sectors\": %" PRIu64
               ", \"l1_hit_rate\": %.4f, \"l2_sectors\": %" PRIu64 ", \"l2_hit_rate\": %.4f"
               ", \"dram_bytes\": %" PRIu64 ", \"dram_read_bytes\": %" PRIu64 ", \"dram_write_bytes\": %" PRIu64
               ", \"smem_wavefronts\": %" PRIu64 ", \"bank_conflict_replays\": %" PRIu64 ", \"sm_active_cycles\": [",
            t->achieved_occupancy, t->clock_mhz, t->launch_overhead, t->l1_bytes, t->smem_carveout_bytes,
            t->l1_sectors, ratio(t->l1_hits, t->l1_sectors), t->l2_sectors, ratio(t->l2_hits, t->l2_sectors),
            t->dram_read_bytes + t->dram_write_bytes, t->dram_read_bytes, t->dram_write_bytes, t->smem_wavefronts,
            t->bank_conflict_replays);
    for (int i = 0; i < t->nsm; i++)
        fprintf(f, "%s%" PRIu64, i ? ", " : "", t->sm_active_cycles[i]);
    fprintf(f, "], \"stalls\": {");
    for (int i = 0; i < DEVICE_STALL_COUNT; i++)
        fprintf(f, "%s\"%s\": %" PRIu64, i ? ", " : "", device_stall_name(i), t->stall[i]);
    fprintf(f, "}}");
}

void report_stats(FILE *f, const DeviceStats *s, bool simulated)
{
    if (!simulated) {
        fprintf(f, "  %" PRIu64 " block%s, %" PRIu64 " warp%s, %" PRIu64 " thread%s; %d registers per thread, %" PRIu64
                   " bytes static shared memory, %" PRIu64 " bytes local memory per thread\n",
                s->blocks, plural(s->blocks), s->warps, plural(s->warps), s->threads, plural(s->threads),
                s->regs_per_thread, s->static_smem, s->local_bytes);
        fprintf(f, "  ran on the GPU in %.3f ms (launch and synchronisation)\n", s->seconds * 1e3);
        return;
    }
    fprintf(f, "  %" PRIu64 " block%s, %" PRIu64 " warp%s, %" PRIu64 " thread%s\n", s->blocks, plural(s->blocks),
            s->warps, plural(s->warps), s->threads, plural(s->threads));
    fprintf(f, "  %" PRIu64 " warp instructions (%" PRIu64 " thread instructions), %" PRIu64 " divergent branches\n",
            s->warp_insts, s->thread_insts, s->divergent_branches);
    fprintf(f, "  global: %" PRIu64 " loads, %" PRIu64 " stores; shared: %" PRIu64 " loads, %" PRIu64
               " stores; %" PRIu64 " atomics; %" PRIu64 " barriers\n",
            s->global_loads, s->global_stores, s->shared_loads, s->shared_stores, s->atomics, s->barriers);
    if (s->timing.on)
        report_timing(f, &s->timing, s->cycles);
    else
        fprintf(f, "  %" PRIu64 " cycles (each SM issues at most 4 warp instructions a cycle)\n", s->cycles);
    if (s->seconds > 0)
        fprintf(f, "  simulated in %.3f s (%.1f M warp instructions/s) on %d thread%s%s%s%s\n", s->seconds,
                (double)s->warp_insts / s->seconds / 1e6, s->sm_threads > 1 ? s->sm_threads : 1,
                s->sm_threads > 1 ? "s" : "", s->sm_threads_note[0] ? " (" : "", s->sm_threads_note,
                s->sm_threads_note[0] ? ")" : "");
}

void report_stats_json(FILE *f, const DeviceStats *s)
{
    fprintf(f, "{\"warp_insts\": %" PRIu64 ", \"thread_insts\": %" PRIu64 ", \"blocks\": %" PRIu64
               ", \"warps\": %" PRIu64 ", \"threads\": %" PRIu64 ", \"global_loads\": %" PRIu64
               ", \"global_stores\": %" PRIu64 ", \"shared_loads\": %" PRIu64 ", \"shared_stores\": %" PRIu64
               ", \"atomics\": %" PRIu64 ", \"barriers\": %" PRIu64 ", \"divergent_branches\": %" PRIu64
               ", \"static_smem\": %" PRIu64 ", \"local_bytes\": %" PRIu64 ", \"cycles\": %" PRIu64
               ", \"seconds\": %.6f",
            s->warp_insts, s->thread_insts, s->blocks, s->warps, s->threads, s->global_loads, s->global_stores,
            s->shared_loads, s->shared_stores, s->atomics, s->barriers, s->divergent_branches, s->static_smem,
            s->local_bytes, s->cycles, s->seconds);
    if (s->timing.on) {
        fprintf(f, ", \"timing\": ");
        report_timing_json(f, &s->timing);
    }
    fputc('}', f);
}

/* ---- race findings, atomic order ------------------------------------------ */

static void access_text(FILE *f, const char *role, const DeviceAccess *a, const char *file)
{
    fprintf(f, "    %s: %s by block (%u,%u,%u) thread (%u,%u,%u) (warp %d lane %d)", role, a->op, a->block.x,
            a->block.y, a->block.z, a->thread.x, a->thread.y, a->thread.z, a->warp, a->lane);
    if (a->line)
        fprintf(f, " at %s:%d", *file ? file : "?", a->line);
    if (a->ptx_line)
        fprintf(f, " (PTX line %d)", a->ptx_line);
    fputc('\n', f);
}

void report_races(FILE *f, const Device *d)
{
    int n = device_race_count(d);
    if (!n) {
        fprintf(f, "race check: no hazards found\n");
        return;
    }
    fprintf(f, "race check: %d finding%s\n", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        const DeviceRace *r = device_race(d, i);
        fprintf(f, "  %s on %s memory at 0x%" PRIx64 ": %s\n", r->kind, r->space, r->addr, r->msg);
        access_text(f, "first ", &r->first, r->file);
        access_text(f, "second", &r->second, r->file);
    }
}

static void access_json(FILE *f, const DeviceAccess *a)
{
    fprintf(f, "{\"op\": \"%s\", \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u], \"warp\": %d, "
               "\"lane\": %d, \"line\": %d, \"ptx_line\": %d}",
            a->op, a->block.x, a->block.y, a->block.z, a->thread.x, a->thread.y, a->thread.z, a->warp, a->lane,
            a->line, a->ptx_line);
}

void report_races_json(FILE *f, const Device *d)
{
    fputc('[', f);
    for (int i = 0; i < device_race_count(d); i++) {
        const DeviceRace *r = device_race(d, i);
        fprintf(f, "%s{\"kind\": \"%s\", \"space\": \"%s\", \"address\": \"0x%" PRIx64 "\", \"file\": ",
                i ? ", " : "", r->kind, r->space, r->addr);
        report_json_string(f, r->file);
        fprintf(f, ", \"line\": %d, \"message\": ", r->second.line ? r->second.line : r->first.line);
        report_json_string(f, r->msg);
        fputs(", \"first\": ", f);
        access_json(f, &r->first);
        fputs(", \"second\": ", f);
        access_json(f, &r->second);
        fputc('}', f);
    }
    fputc(']', f);
}

void report_atomic_log_json(FILE *f, const Device *d)
{
    fputc('[', f);
    for (int i = 0; i < device_atomic_log_count(d); i++) {
        const DeviceAtomicLog *l = device_atomic_log(d, i);
        fprintf(f, "%s{\"space\": \"%s\", \"address\": \"0x%" PRIx64 "\", \"total\": %" PRIu64
                   ", \"updates\": [",
                i ? ", " : "", l->space, l->addr, l->total);
        for (int k = 0; k < l->n; k++)
            fprintf(f, "%s{\"block\": [%u, %u, %u], \"thread\": [%u, %u, %u], \"old\": \"0x%" PRIx64
                       "\", \"new\": \"0x%" PRIx64 "\"}",
                    k ? ", " : "", l->u[k].block.x, l->u[k].block.y, l->u[k].block.z, l->u[k].thread.x,
                    l->u[k].thread.y, l->u[k].thread.z, l->u[k].old, l->u[k].val);
        fputs("]}", f);
    }
    fputc(']', f);
}
