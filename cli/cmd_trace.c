/* cmd_trace.c: `warpsim trace dump FILE` prints a trace as text, one event a
 * line; `warpsim trace export FILE --perfetto OUT.json` writes Chrome
 * trace-event JSON for Perfetto.  Options, files and exit codes only: the
 * text and the JSON are sim/trace_text.c's (trace.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "trace.h"

static const char trace_help[] =
    "usage: warpsim trace dump FILE\n"
    "       warpsim trace export FILE --perfetto OUT.json\n"
    "\n"
    "Reads a trace written by `warpsim run ... --trace FILE` (format: traces/FORMAT.md).\n"
    "\n"
    "  dump      the header, the string table and every event as text, one a line;\n"
    "            a trace of a --timing run (level warps and up) also holds each warp's\n"
    "            states (issuing, or the stall reason), and ends with their totals\n"
    "  export    Chrome trace-event JSON for ui.perfetto.dev or chrome://tracing: one\n"
    "            process per SM with its blocks' spans, one thread per warp with its\n"
    "            turns (level warps and up), instants for barriers, faults and issues;\n"
    "            1 microsecond on the time axis is one cycle of the trace's clock\n"
    "\n"
    "Exit status: 0 done, 2 bad usage or a bad trace (the message names the byte).\n";

static int usage_error(const char *fmt, const char *a)
{
    return cmd_usage("trace", fmt, a);
}

static TraceReader *open_or_report(const char *path)
{
    SimError err;
    sim_error_clear(&err);
    TraceReader *r = trace_open_file(path, &err);
    if (!r)
        fprintf(stderr, "warpsim trace: %s: %s\n", path, err.msg);
    return r;
}

static int trace_dump(const char *path)
{
    TraceReader *r = open_or_report(path);
    if (!r)
        return 2;
    trace_dump_text(stdout, r);
    trace_close(r);
    return 0;
}

static int trace_export(const char *path, const char *out)
{
    TraceReader *r = open_or_report(path);
    if (!r)
        return 2;
    FILE *f = fopen(out, "w");
    if (!f) {
        fprintf(stderr, "warpsim trace: cannot create %s\n", out);
        trace_close(r);
        return 2;
    }
    SimError err;
    sim_error_clear(&err);
    int rc = 0;
    if (trace_export_perfetto(f, r, &err) == SIM_ERR_NOMEM) {
        fprintf(stderr, "warpsim trace: %s\n", err.msg);
        rc = 2;
    } else if (fflush(f) || ferror(f)) {
        fprintf(stderr, "warpsim trace: writing %s failed\n", out);
        rc = 2;
    }
    fclose(f);
    trace_close(r);
    return rc;
}

int cmd_trace(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "missing dump or export");
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h")) {
        fputs(trace_help, stdout);
        return 0;
    }
    const char *file = NULL, *perfetto = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(trace_help, stdout);
            return 0;
        } else if (!strcmp(a, "--perfetto") && i + 1 < argc) {
            perfetto = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return usage_error(i + 1 < argc ? "unknown option '%s'" : "option '%s' needs a value", a);
        } else if (!file) {
            file = a;
        } else {
            return usage_error("unexpected argument '%s' (one FILE only)", a);
        }
    }
    if (strcmp(sub, "dump") && strcmp(sub, "export"))
        return usage_error("unknown trace command '%s': expected dump or export", sub);
    if (!file)
        return usage_error("%s", "missing FILE (a trace from warpsim run --trace)");
    if (!strcmp(sub, "dump")) {
        if (perfetto)
            return usage_error("%s", "--perfetto belongs to export");
        return trace_dump(file);
    }
    if (!perfetto)
        return usage_error("%s", "export needs --perfetto OUT.json");
    return trace_export(file, perfetto);
}
