/* test_conformance.c: the conformance suite (issue 14, point 5).  Every
 * launch line of tests/conformance/suite.txt runs in the simulator and its
 * buffers and printf output are compared bit for bit with the H100's, as
 * recorded by `warpsim run LINE --backend gpu --json` into
 * traces/hw/conformance-h100.jsonl.  A kernel whose results still differ, or
 * that the simulator refuses, is listed in `known` below with the exact
 * count of differing elements and why: the test fails when any count
 * changes, up or down, so a fix has to update the table.  Run from the
 * repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "argspec.h"
#include "device.h"
#include "json.h"
#include "launch.h"
#include "source.h"

#define SUITE "tests/conformance/suite.txt"
#define RECORD "traces/hw/conformance-h100.jsonl"

/* What a kernel is expected to do today when it is not bit-exact. */
enum { K_REFUSED = -1, K_FAULT = -2 };
typedef struct {
    const char *file;   /* PTX file's basename */
    const char *kernel;
    int diff;           /* differing elements (printf: differing lines), or K_* */
    const char *why;
} Known;

static const Known known[] = {
#include "conformance_known.h"
    {NULL, NULL, 0, NULL}
};

typedef struct {
    JsonValue *rec;     /* the recorded run */
    char *out;          /* what the GPU printed before it (device printf), owned */
} Record;

static Record *records;
static int n_records;

static void read_records(void)
{
    size_t len;
    char msg[256];
    char *text = source_read_file(RECORD, &len, msg, sizeof msg);
    if (!text)
        fail_msg("%s (run the tests from the repository root)", msg);
    records = calloc(256, sizeof *records);
    assert_non_null(records);
    char *printed = calloc(1, len + 1);
    assert_non_null(printed);
    size_t np = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        size_t n = next ? (size_t)(next - line) : strlen(line);
        if (next)
            next++;
        if (n && line[0] == '{' && n_records < 256) {
            JsonValue *v = json_parse(line, n, msg, sizeof msg);
            if (!v)
                fail_msg("%s: record %d: %s", RECORD, n_records + 1, msg);
            records[n_records].rec = v;
            printed[np] = 0;
            records[n_records].out = strdup(printed);
            n_records++;
            np = 0;
        } else { /* the GPU's device printf goes to stdout ahead of the JSON */
            memcpy(printed + np, line, n);
            np += n;
            printed[np++] = '\n';
        }
    }
    free(printed);
    free(text);
}

static const Known *known_for(const char *file, const char *kernel)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    for (const Known *k = known; k->file; k++)
        if (!strcmp(k->file, base) && !strcmp(k->kernel, kernel))
            return k;
    return NULL;
}

/* Differing elements between the simulator's buffers and the record's. */
static long compare_buffers(const LaunchResult *r, const JsonValue *rec, char *first, size_t cap)
{
    const JsonValue *bufs = json_get(rec, "buffers");
    long diff = 0;
    first[0] = 0;
    if (!bufs || bufs->type != JSON_ARRAY)
        return -1;
    for (int b = 0; b < r->nbufs; b++) {
        const LaunchBuffer *lb = &r->bufs[b];
        const JsonValue *rb = NULL;
        for (size_t k = 0; k < bufs->n; k++)
            if ((int)json_get_number(&bufs->items[k], "arg", -1) == lb->arg)
                rb = &bufs->items[k];
        const char *hex = rb ? json_get_string(rb, "hex") : NULL;
        if (!hex || !lb->data)
            return -1;
        int sz = argspec_type_size(lb->type);
        const char *h = hex;
        for (uint64_t e = 0; e < lb->count; e++) {
            char mine[64];
            argspec_format_hex(lb->type, lb->data + e * (uint64_t)sz, mine, sizeof mine);
            while (*h == ' ')
                h++;
            size_t n = strcspn(h, " ");
            if (n != strlen(mine) || strncmp(h, mine, n)) {
                if (!diff)
                    snprintf(first, cap, "arg %d element %llu: simulator %s, H100 %.*s", lb->arg,
                             (unsigned long long)e, mine, (int)n, h);
                diff++;
            }
            h += n;
        }
    }
    return diff;
}

/* Lines that differ between two printf outputs. */
static long compare_text(const char *a, const char *b)
{
    long diff = 0;
    while (*a || *b) {
        size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
        if (na != nb || strncmp(a, b, na))
            diff++;
        a += na + (a[na] == '\n');
        b += nb + (b[nb] == '\n');
    }
    return diff;
}

static void test_conformance_suite_matches_h100_bit_for_bit(void **state)
{
    (void)state;
    read_records();
    size_t len;
    char msg[512];
    char *suite = source_read_file(SUITE, &len, msg, sizeof msg);
    if (!suite)
        fail_msg("%s", msg);
    int idx = 0, exact = 0, known_ok = 0, bad = 0;
    for (char *line = suite, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        char **tok = NULL;
        int nt = launch_tokenize(line, &tok, msg, sizeof msg);
        if (nt < 0)
            fail_msg("%s: %s", SUITE, msg);
        if (nt == 0) {
            launch_tokens_free(tok);
            continue;
        }
        if (idx >= n_records)
            fail_msg("%s has more launches than %s has records", SUITE, RECORD);
        const Record *rc = &records[idx++];
        LaunchSpec spec;
        launch_spec_init(&spec);
        if (!launch_parse_tokens(&spec, nt - 1, tok + 1, msg, sizeof msg))
            fail_msg("%s: %s", line, msg);
        if (!spec.budget)
            spec.budget = 20000000; /* a kernel that spins forever in the simulator fails, never hangs */
        const char *rk = json_get_string(rc->rec, "kernel");
        if (!rk || strcmp(rk, spec.kernel))
            fail_msg("record %d is of kernel %s, the suite's line of %s", idx, rk ? rk : "?", spec.kernel);
        SimError err;
        Device *dev = device_open_sim("sm_90", &err);
        assert_non_null(dev);
        char *ptx = source_read_file(tok[0], &len, msg, sizeof msg);
        if (!ptx)
            fail_msg("%s", msg);
        DeviceModule *mod = NULL;
        if (device_load_ptx(dev, tok[0], ptx, len, &mod, &err))
            fail_msg("%s: %s", tok[0], err.msg);
        LaunchResult res;
        memset(&res, 0, sizeof res);
        SimStatus st = launch_run(dev, mod, &spec, &res, msg, sizeof msg);
        long diff = 0;
        char first[800] = "";
        if (st == SIM_ERR_UNSUPPORTED) {
            diff = K_REFUSED;
            snprintf(first, sizeof first, "%s", msg);
        } else if (st == SIM_ERR_FAULT) {
            diff = K_FAULT;
            snprintf(first, sizeof first, "%s: %s", res.fault.kind, res.fault.msg);
        } else if (st) {
            fail_msg("%s: %s", spec.kernel, msg);
        } else { /* SIM_OK */
            diff = compare_buffers(&res, rc->rec, first, sizeof first);
            if (diff < 0)
                fail_msg("%s: the record's buffers do not match the launch's", spec.kernel);
            const char *gpu_out = json_get_string(rc->rec, "printf");
            const char *sim_out = device_printf_output(dev);
            char *want = NULL;
            if (asprintf(&want, "%s%s", rc->out, gpu_out ? gpu_out : "") < 0)
                fail_msg("out of memory");
            long td = compare_text(sim_out ? sim_out : "", want);
            if (td && !first[0])
                snprintf(first, sizeof first, "printf output differs:\n%s---\nH100:\n%s", sim_out, want);
            diff += td;
            free(want);
        }
        const Known *k = known_for(tok[0], spec.kernel);
        long expect = k ? k->diff : 0;
        if (diff != expect) {
            print_error("%s %s: %ld differing (%s), expected %ld%s%s\n", tok[0], spec.kernel, diff,
                        diff == K_REFUSED ? "refused" : diff == K_FAULT ? "fault" : "elements", expect,
                        k ? ": " : "", k ? k->why : "");
            if (first[0])
                print_error("  first: %s\n", first);
            bad++;
        } else if (diff == 0) {
            exact++;
        } else {
            known_ok++;
        }
        launch_result_free(&res);
        launch_spec_free(&spec);
        free(ptx);
        device_close(dev);
        launch_tokens_free(tok);
    }
    print_message("conformance: %d launches, %d bit-exact, %d known differences as listed, %d unexpected\n", idx,
                  exact, known_ok, bad);
    if (idx != n_records)
        fail_msg("%s has %d launches, %s %d records", SUITE, idx, RECORD, n_records);
    free(suite);
    for (int i = 0; i < n_records; i++) {
        json_free(records[i].rec);
        free(records[i].out);
    }
    free(records);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance_suite_matches_h100_bit_for_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
