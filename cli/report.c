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

void report_stats(FILE *f, const DeviceStats *s, bool simulated)
{
    if (!simulated) {
        fprintf(f, "  %" PRIu64 " blocks, %" PRIu64 " warps, %" PRIu64 " threads; %d registers per thread, %" PRIu64
                   " bytes static shared memory, %" PRIu64 " bytes local memory per thread\n",
                s->blocks, s->warps, s->threads, s->regs_per_thread, s->static_smem, s->local_bytes);
        fprintf(f, "  ran on the GPU in %.3f ms (launch and synchronisation)\n", s->seconds * 1e3);
        return;
    }
    fprintf(f, "  %" PRIu64 " blocks, %" PRIu64 " warps, %" PRIu64 " threads\n", s->blocks, s->warps, s->threads);
    fprintf(f, "  %" PRIu64 " warp instructions (%" PRIu64 " thread instructions), %" PRIu64 " divergent branches\n",
            s->warp_insts, s->thread_insts, s->divergent_branches);
    fprintf(f, "  global: %" PRIu64 " loads, %" PRIu64 " stores; shared: %" PRIu64 " loads, %" PRIu64
               " stores; %" PRIu64 " atomics; %" PRIu64 " barriers\n",
            s->global_loads, s->global_stores, s->shared_loads, s->shared_stores, s->atomics, s->barriers);
    if (s->seconds > 0)
        fprintf(f, "  simulated in %.3f s (%.1f M warp instructions/s)\n", s->seconds,
                (double)s->warp_insts / s->seconds / 1e6);
}

void report_stats_json(FILE *f, const DeviceStats *s)
{
    fprintf(f, "{\"warp_insts\": %" PRIu64 ", \"thread_insts\": %" PRIu64 ", \"blocks\": %" PRIu64
               ", \"warps\": %" PRIu64 ", \"threads\": %" PRIu64 ", \"global_loads\": %" PRIu64
               ", \"global_stores\": %" PRIu64 ", \"shared_loads\": %" PRIu64 ", \"shared_stores\": %" PRIu64
               ", \"atomics\": %" PRIu64 ", \"barriers\": %" PRIu64 ", \"divergent_branches\": %" PRIu64
               ", \"static_smem\": %" PRIu64 ", \"local_bytes\": %" PRIu64 ", \"seconds\": %.6f}",
            s->warp_insts, s->thread_insts, s->blocks, s->warps, s->threads, s->global_loads, s->global_stores,
            s->shared_loads, s->shared_stores, s->atomics, s->barriers, s->divergent_branches, s->static_smem,
            s->local_bytes, s->seconds);
}
