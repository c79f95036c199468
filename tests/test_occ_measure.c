/* test_occ_measure.c: occupancy predicted and measured as a library
 * (occ_measure/occ_measure.h), used directly without a warpsim process:
 * the model's reports for one launch, the batch mode, one measured launch
 * with the simulator standing in for the GPU, the carveout sweep into a
 * stream and the analysis of the file it wrote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "json.h"
#include "occ_measure.h"

/* Output written to a memory stream, as one malloc'd string. */
typedef struct {
    char *text;
    size_t len;
    FILE *f;
} Capture;

static void capture_open(Capture *c)
{
    c->text = NULL;
    c->f = open_memstream(&c->text, &c->len);
    assert_non_null(c->f);
}

static void capture_close(Capture *c)
{
    fclose(c->f);
}

static void model(OccReport *rep, const char *gpu, int block, int regs, int cluster)
{
    memset(rep, 0, sizeof *rep);
    SimError e;
    sim_error_clear(&e);
    assert_int_equal(arch_resolve(gpu, &rep->target, &e), SIM_OK);
    occ_config_init(&rep->config);
    rep->config.block_size = block;
    rep->config.regs_per_thread = regs;
    assert_int_equal(occ_report_compute(rep, cluster, false, &e), SIM_OK);
}

static void test_occ_report_text_and_json_say_the_same(void **s)
{
    (void)s;
    OccReport rep;
    model(&rep, "sm_100", 768, 16, 0); /* lesson 4: 75%, limited by warps */
    assert_int_equal(rep.result.blocks_per_sm, 2);
    assert_false(rep.has_cluster);
    Capture t, j;
    capture_open(&t);
    occ_report_text(t.f, &rep);
    capture_close(&t);
    assert_non_null(strstr(t.text, "blocks per SM       2   (limited by warps)"));
    assert_non_null(strstr(t.text, "occupancy           75.0%"));
    assert_null(strstr(t.text, "clusters of"));
    capture_open(&j);
    occ_report_json(j.f, &rep);
    capture_close(&j);
    char msg[200];
    JsonValue *v = json_parse(j.text, j.len, msg, sizeof msg);
    if (!v)
        fail_msg("not JSON: %s\n%s", msg, j.text);
    assert_int_equal((int)json_get_number(v, "blocks_per_sm", -1), 2);
    assert_int_equal((int)json_get_number(v, "block", -1), 768);
    assert_true(json_get_number(v, "occupancy", -1) == 0.75);
    assert_null(json_get(v, "cluster"));
    assert_null(json_get(v, "kernel")); /* no ptxas */
    json_free(v);
    free(t.text);
    free(j.text);
}

static void test_occ_report_cluster_and_explanation(void **s)
{
    (void)s;
    OccReport rep;
    model(&rep, "h100-sxm", 256, 40, 4);
    assert_true(rep.has_cluster);
    assert_int_equal(rep.cluster.cluster_size, 4);
    Capture t;
    capture_open(&t);
    occ_report_text(t.f, &rep);
    occ_report_explain(t.f, &rep);
    capture_close(&t);
    assert_non_null(strstr(t.text, "h100-sxm: 132 SMs"));
    assert_non_null(strstr(t.text, "clusters of 4"));
    assert_true(strlen(strstr(t.text, "clusters of 4")) > 200); /* the explanation follows */
    free(t.text);
}

static void test_occ_report_compute_refuses_an_impossible_launch(void **s)
{
    (void)s;
    OccReport rep;
    memset(&rep, 0, sizeof rep);
    SimError e;
    sim_error_clear(&e);
    assert_int_equal(arch_resolve("sm_90", &rep.target, &e), SIM_OK);
    occ_config_init(&rep.config);
    rep.config.block_size = 256;
    rep.config.regs_per_thread = 32;
    assert_int_equal(occ_report_compute(&rep, 64, false, &e), SIM_ERR_USAGE); /* portable clusters: 1..8 */
    assert_non_null(strstr(e.msg, "cluster size 64"));
    assert_false(rep.has_cluster);
}

static void test_occ_report_config_takes_resources_from_ptxas(void **s)
{
    (void)s;
    OccReport rep;
    memset(&rep, 0, sizeof rep);
    occ_report_config(&rep, 256, 32, 2048, 4096, 50, -1);
    assert_int_equal(rep.config.block_size, 256);
    assert_int_equal(rep.config.regs_per_thread, 32);
    assert_int_equal((int)rep.config.smem_static, 2048);
    assert_int_equal((int)rep.config.smem_dynamic, 4096);
    assert_int_equal(rep.config.carveout, 50);
    assert_int_equal(rep.config.barriers, 1); /* the runtime's assumption */
    rep.ptx_path = "kernel.ptx";
    rep.ptxas.regs = 40;
    rep.ptxas.smem = 1024;
    rep.ptxas.barriers = 3;
    occ_report_config(&rep, 128, 32, 2048, 0, -1, -1);
    assert_int_equal(rep.config.regs_per_thread, 40);
    assert_int_equal((int)rep.config.smem_static, 1024);
    assert_int_equal(rep.config.barriers, 3); /* more named barriers than one: ptxas's count */
    occ_report_config(&rep, 128, 32, 2048, 0, -1, 5);
    assert_int_equal(rep.config.barriers, 5); /* as given */
}

static void test_occ_report_batch_answers_each_line(void **s)
{
    (void)s;
    const char in_text[] = "{\"arch\": \"sm_90\", \"block\": 256, \"regs\": 32}\n\n   \nnot json\n"
                           "{\"arch\": \"sm_90\", \"block\": 1024, \"regs\": 64}\n";
    FILE *in = fmemopen((void *)in_text, sizeof in_text - 1, "r");
    assert_non_null(in);
    Capture out;
    capture_open(&out);
    occ_report_batch(in, out.f);
    fclose(in);
    capture_close(&out);
    int lines = 0;
    for (const char *p = out.text; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 3); /* blank lines get no answer */
    assert_non_null(strstr(out.text, "{\"error\": \"line 4: "));
    const char *first_nl = strchr(out.text, '\n');
    char msg[200];
    JsonValue *v = json_parse(out.text, (size_t)(first_nl - out.text), msg, sizeof msg);
    assert_non_null(v);
    assert_int_equal((int)json_get_number(v, "blocks_per_sm", -1), 8);
    json_free(v);
    free(out.text);
}

static OccMeasureOpts sim_opts(int block)
{
    return (OccMeasureOpts){.sim = true, .block = block, .regs = 32, .carveout = -1};
}

/* --timing: the simulator runs the launch in modelled time; the report gets
 * the timing column and a "simulated" member with the model's own figure */
static void test_occ_measure_timing_adds_the_simulated_column(void **s)
{
    (void)s;
    OccMeasureOpts o = sim_opts(256);
    o.smem_dyn = 40000; /* 5 blocks of 8 warps fit: 62.5% predicted */
    o.timing = true;
    char name[128], note[160];
    SimError e;
    sim_error_clear(&e);
    Device *d = occ_measure_open(&o, name, sizeof name, note, sizeof note, &e);
    assert_non_null(d);
    OccMeasurement m;
    assert_int_equal(occ_measure_one(d, name, &o, &m, &e), SIM_OK);
    assert_true(m.timed);
    const MeasureResult *t = occ_measure_timed(&m);
    assert_ptr_equal(t, &m.r); /* in the simulator the measured run is the timed one */
    assert_true(t->wait_ns >= 2000);
    assert_int_equal(t->model.resident_blocks_per_sm, 5);
    /* the model's figure exists and no block holds more than the model's 5 */
    assert_true(t->sim_achieved_occupancy > 0.05 && t->sim_achieved_occupancy <= 0.625 + 1e-9);
    assert_true(t->res.achieved_occupancy > 0.05 && t->res.achieved_occupancy <= 0.625 + 1e-9);
    assert_true(t->res.max_resident <= 5);
    Capture tx, j;
    capture_open(&tx);
    occ_measure_report(tx.f, false, &m);
    capture_close(&tx);
    assert_non_null(strstr(tx.text, "predicted (model)   simulated (timing)"));
    assert_non_null(strstr(tx.text, "(timing model)"));
    assert_non_null(strstr(tx.text, "residency over time"));
    assert_null(strstr(tx.text, "measured (GPU)"));
    assert_null(strstr(tx.text, " \n")); /* no GPU column: no trailing blanks */
    capture_open(&j);
    occ_measure_report(j.f, true, &m);
    capture_close(&j);
    char msg[200];
    JsonValue *v = json_parse(j.text, j.len, msg, sizeof msg);
    if (!v)
        fail_msg("not JSON: %s\n%s", msg, j.text);
    const JsonValue *sim = json_get(v, "simulated");
    assert_non_null(sim);
    assert_float_equal(json_get_number(sim, "timing_achieved_occupancy", -1), t->sim_achieved_occupancy, 1e-4);
    assert_float_equal(json_get_number(sim, "achieved_occupancy", -1), t->res.achieved_occupancy, 1e-4);
    assert_int_equal((int)json_get_number(sim, "waves", -1), t->res.waves);
    json_free(v);
    free(tx.text);
    free(j.text);
    occ_measure_free(&m);
    /* without --timing: no timed run, no "simulated" member */
    o.timing = false;
    assert_int_equal(occ_measure_one(d, name, &o, &m, &e), SIM_OK);
    assert_null(occ_measure_timed(&m));
    capture_open(&j);
    occ_measure_report(j.f, true, &m);
    capture_close(&j);
    assert_null(strstr(j.text, "\"simulated\""));
    free(j.text);
    occ_measure_free(&m);
    device_close(d);
}

/* --ncu: Nsight Compute runs this command again from an argument vector,
 * never a shell -- an argument with quotes and a command in it arrives as
 * one word and runs nothing -- and its CSV log gives the achieved figure.
 * A stand-in ncu on PATH records its arguments and writes the log. */
static void test_occ_measure_ncu_gets_an_argument_vector(void **s)
{
    (void)s;
    char dir[] = "/tmp/warpsim-test-ncu-XXXXXX", path[256], script[300], args[300], pwned[300];
    assert_non_null(mkdtemp(dir));
    snprintf(script, sizeof script, "%s/ncu", dir);
    snprintf(args, sizeof args, "%s/args", dir);
    snprintf(pwned, sizeof pwned, "%s/PWNED", dir);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\nfor a in \"$@\"; do printf '%%s\\n' \"$a\"; done > %s\n"
               "while [ $# -gt 0 ]; do\n"
               "  if [ \"$1\" = --log-file ]; then shift; echo '\"1\",\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"%%\",\"42.5\"' > \"$1\"; fi\n"
               "  shift\ndone\n", args);
    fclose(f);
    chmod(script, 0755);
    const char *old = getenv("PATH");
    char *saved = strdup(old ? old : "");
    snprintf(path, sizeof path, "%s:%s", dir, saved);
    setenv("PATH", path, 1);
    char evil[800];
    snprintf(evil, sizeof evil, "x'$(touch %s)';touch %s", pwned, pwned);
    char *argv[] = {"occupancy", "--measure", "--ncu", evil, NULL};
    OccMeasureOpts o = sim_opts(128);
    o.ncu = true;
    o.argc = 4;
    o.argv = argv;
    char name[128], note[160];
    SimError e;
    sim_error_clear(&e);
    Device *d = occ_measure_open(&o, name, sizeof name, note, sizeof note, &e);
    assert_non_null(d);
    OccMeasurement m;
    SimStatus st = occ_measure_one(d, name, &o, &m, &e);
    setenv("PATH", saved, 1);
    free(saved);
    assert_int_equal(st, SIM_OK);
    assert_true(m.ncu > 42.4 && m.ncu < 42.6);
    occ_measure_free(&m);
    device_close(d);
    assert_int_equal(access(pwned, F_OK), -1);
    f = fopen(args, "r");
    assert_non_null(f);
    char got[4096];
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = 0;
    fclose(f);
    assert_non_null(strstr(got, "--log-file\nncu.log\n"));
    assert_non_null(strstr(got, "\noccupancy\n--measure\n"));
    char line[820];
    snprintf(line, sizeof line, "\n%s\n", evil);
    assert_non_null(strstr(got, line)); /* one word, as given */
    assert_null(strstr(got, "\n--ncu\n"));
    unlink(args);
    unlink(script);
    rmdir(dir);
}

static void test_occ_measure_one_in_the_simulator(void **s)
{
    (void)s;
    OccMeasureOpts o = sim_opts(128);
    char name[128], note[160];
    SimError e;
    sim_error_clear(&e);
    Device *d = occ_measure_open(&o, name, sizeof name, note, sizeof note, &e);
    assert_non_null(d);
    assert_string_equal(name, "warpsim simulator");
    assert_string_equal(note, "");
    OccMeasurement m;
    assert_int_equal(occ_measure_one(d, name, &o, &m, &e), SIM_OK);
    assert_true(m.sim);
    assert_true(m.r.api_from_model);
    assert_int_equal(m.r.block_size, 128);
    assert_int_equal(m.r.api_blocks_per_sm, m.r.model.blocks_per_sm);
    assert_true(m.predicted_waves >= 1);
    assert_int_equal(m.max_warps, 64);
    assert_true(m.ncu < 0);
    Capture t, j;
    capture_open(&t);
    occ_measure_report(t.f, false, &m);
    capture_close(&t);
    assert_non_null(strstr(t.text, "predicted (model)   measured"));
    assert_non_null(strstr(t.text, "the simulator stands in"));
    capture_open(&j);
    occ_measure_report(j.f, true, &m);
    capture_close(&j);
    char msg[200];
    JsonValue *v = json_parse(j.text, j.len, msg, sizeof msg);
    if (!v)
        fail_msg("not JSON: %s\n%s", msg, j.text);
    const JsonValue *pred = json_get(v, "predicted"), *meas = json_get(v, "measured");
    assert_non_null(pred);
    assert_non_null(meas);
    assert_int_equal((int)json_get_number(pred, "blocks_per_sm", -1), m.r.model.blocks_per_sm);
    assert_int_equal((int)json_get_number(meas, "waves", -1), m.r.res.waves);
    json_free(v);
    free(t.text);
    free(j.text);
    occ_measure_free(&m);
    /* a block the model cannot place is a usage error, not a crash */
    o.block = 1024;
    o.smem_dyn = 1 << 20;
    assert_int_equal(occ_measure_one(d, name, &o, &m, &e), SIM_ERR_USAGE);
    assert_true(e.msg[0] != 0);
    occ_measure_free(&m);
    device_close(d);
}

static void test_occ_measure_sweep_then_analyze(void **s)
{
    (void)s;
    OccMeasureOpts o = sim_opts(0);
    o.tiny = true;
    char name[128], note[160], path[] = "/tmp/warpsim-test-sweep-XXXXXX";
    SimError e;
    sim_error_clear(&e);
    Device *d = occ_measure_open(&o, name, sizeof name, note, sizeof note, &e);
    assert_non_null(d);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *json = fdopen(fd, "w");
    assert_non_null(json);
    Capture log;
    capture_open(&log);
    OccSweepSummary sum;
    assert_int_equal(occ_measure_sweep(d, name, &o, json, log.f, &sum, &e), SIM_OK);
    fclose(json);
    capture_close(&log);
    assert_int_equal(sum.configs, 8);
    assert_true(sum.measured > 0);
    assert_int_equal(sum.failed, log.len > 0); /* every failure said so in the log */
    assert_true(sum.scored);
    assert_int_equal(sum.score.rows, sum.measured);
    assert_int_equal(sum.score.model_vs_api, sum.measured); /* the model stands in for the API */
    Capture rep;
    capture_open(&rep);
    occ_measure_report_sweep(rep.f, &sum, name, device_arch(d), path);
    capture_close(&rep);
    assert_non_null(strstr(rep.text, "configurations measured on warpsim simulator (sm_90)"));
    free(rep.text);
    free(log.text);
    device_close(d);
    /* the file it wrote is what the analysis reads */
    Capture an;
    capture_open(&an);
    assert_int_equal(occ_measure_analyze(path, NULL, an.f, &e), SIM_OK);
    capture_close(&an);
    char want[64];
    snprintf(want, sizeof want, ": %d configurations on sm_90;", sum.measured);
    assert_non_null(strstr(an.text, want));
    assert_non_null(strstr(an.text, "model blocks_per_sm = occupancy API:"));
    free(an.text);
    unlink(path);
}

static void test_occ_measure_analyze_bad_input(void **s)
{
    (void)s;
    SimError e;
    sim_error_clear(&e);
    Capture out;
    capture_open(&out);
    assert_int_equal(occ_measure_analyze("/nonexistent/sweep.json", NULL, out.f, &e), SIM_ERR_IO);
    assert_non_null(strstr(e.msg, "cannot read /nonexistent/sweep.json"));
    char path[] = "/tmp/warpsim-test-empty-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "{\"configs\": []}\n", 16), 16);
    close(fd);
    assert_int_equal(occ_measure_analyze(path, NULL, out.f, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "no configurations found"));
    assert_int_equal(occ_measure_analyze(path, "sm_7", out.f, &e), SIM_ERR_USAGE);
    assert_non_null(strstr(e.msg, "unknown arch"));
    capture_close(&out);
    assert_int_equal(out.len, 0); /* nothing written before the error */
    free(out.text);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occ_report_text_and_json_say_the_same),
        cmocka_unit_test(test_occ_report_cluster_and_explanation),
        cmocka_unit_test(test_occ_report_compute_refuses_an_impossible_launch),
        cmocka_unit_test(test_occ_report_config_takes_resources_from_ptxas),
        cmocka_unit_test(test_occ_report_batch_answers_each_line),
        cmocka_unit_test(test_occ_measure_one_in_the_simulator),
        cmocka_unit_test(test_occ_measure_ncu_gets_an_argument_vector),
        cmocka_unit_test(test_occ_measure_timing_adds_the_simulated_column),
        cmocka_unit_test(test_occ_measure_sweep_then_analyze),
        cmocka_unit_test(test_occ_measure_analyze_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
