/* xcheck_report.c: a cross-check as people and programs read it -- one
 * compared launch as a row per buffer (simulator, reference, verdict) plus
 * the occupancy row, or the same as JSON; lesson and check headers; the
 * closing count of launches and mismatches.  Writes to the FILE the
 * XcheckReport names; the comparing is xcheck.c's and xcheck_run.c's. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "xcheck.h"

void xcheck_report_init(XcheckReport *x, FILE *f, bool json)
{
    memset(x, 0, sizeof *x);
    x->f = f;
    x->json = json;
    x->first_lesson = true;
}

static void json_str(FILE *f, const char *s)
{
    report_json_string(f, s);
}

static void value_text(PtxType t, const uint8_t *d, uint64_t count, char *buf, size_t cap)
{
    if (!d) {
        snprintf(buf, cap, "-");
    } else if (count == 1) {
        argspec_format_text(t, d, buf, cap);
    } else {
        snprintf(buf, cap, "xxh64 %016" PRIx64, xcheck_hash(d, count * (uint64_t)argspec_type_size(t)));
    }
}

static void elem_hex(PtxType t, const uint8_t *d, int64_t k, char *buf, size_t cap)
{
    char h[64];
    argspec_format_hex(t, d + k * argspec_type_size(t), h, sizeof h);
    snprintf(buf, cap, "[%" PRId64 "] 0x%s", k, h);
}

static const XcheckRefBuf *ref_buf(const XcheckRef *r, int arg)
{
    for (int k = 0; k < r->nbufs; k++)
        if (r->bufs[k].arg == arg)
            return &r->bufs[k];
    return NULL;
}

static const LaunchBuffer *sim_buf(const LaunchResult *s, int arg)
{
    for (int k = 0; k < s->nbufs; k++)
        if (s->bufs[k].arg == arg)
            return &s->bufs[k];
    return NULL;
}

/* The three columns and the verdict of one buffer. */
void xcheck_buf_columns(const XcheckBufCmp *c, const LaunchResult *sim, const XcheckRef *ref, char *sc, char *rc,
                        char *verdict, size_t cap)
{
    const LaunchBuffer *s = sim_buf(sim, c->arg);
    const XcheckRefBuf *r = ref_buf(ref, c->arg);
    if (c->verdict == XCHECK_MISSING) {
        snprintf(sc, cap, "%s", s && s->data ? "present" : "missing");
        snprintf(rc, cap, "%s", r ? "present (other shape)" : "missing");
        snprintf(verdict, cap, "MISSING");
    } else if (c->crit) {
        value_text(s->type, s->data, s->count, sc, cap);
        size_t n = 0;
        rc[0] = 0;
        for (int k = 0; k < r->nruns && n + 1 < cap; k++) {
            char v[64];
            value_text(r->type, r->runs[k], r->count, v, sizeof v);
            n += (size_t)snprintf(rc + n, cap - n, "%s%s", k ? ", " : "", v);
        }
        snprintf(verdict, cap, "%s %s (sim %s, %d/%d runs)", c->crit->text,
                 c->verdict == XCHECK_HOLDS ? "holds" : "FAILS", c->sim_holds ? "yes" : "no", c->runs_holding,
                 r->nruns);
    } else if (c->verdict == XCHECK_DIFFERS && c->index >= 0) {
        elem_hex(s->type, s->data, c->index, sc, cap);
        elem_hex(r->type, r->data, c->index, rc, cap);
        snprintf(verdict, cap, "DIFFERS");
    } else {
        value_text(s->type, s->data, s->count, sc, cap);
        if (r->data)
            value_text(r->type, r->data, r->count, rc, cap);
        else
            snprintf(rc, cap, "xxh64 %016" PRIx64, r->hash);
        if (c->verdict == XCHECK_DIFFERS && s->count == 1) /* same value, other hash */
            snprintf(rc + strlen(rc), cap - strlen(rc), " (xxh64 %016" PRIx64 ")", r->hash);
        snprintf(verdict, cap, "%s", c->verdict == XCHECK_IDENTICAL ? "identical" : "DIFFERS");
    }
}

bool xcheck_report_launch(XcheckReport *x, const char *arch, const XcheckLaunch *l, SimStatus sst,
                          const LaunchResult *sim, const char *sim_msg, const XcheckRef *ref, bool first)
{
    XcheckLaunchCmp lc;
    bool ok = xcheck_compare_launch(arch, l, sst, sim, ref, &lc);
    const XcheckBufCmp *cmp = lc.bufs;
    int n = lc.nbufs, model = lc.model_blocks;
    bool ran = lc.ran, sim_fault = lc.sim_fault, occ_known = lc.occ_known, occ_ok = lc.occ_ok;
    FILE *f = x->f;
    x->launches++;
    x->mismatches += !ok;
    const LaunchSpec *s = &l->spec;
    char shape[96];
    snprintf(shape, sizeof shape, "<<<(%u,%u,%u), (%u,%u,%u), %lu>>>", s->grid.x, s->grid.y, s->grid.z, s->block.x,
             s->block.y, s->block.z, s->smem);
    char sc[512], rc[512], vd[512];
    if (x->json) {
        fprintf(f, "%s{\"line\": ", first ? "" : ", ");
        json_str(f, l->line);
        fprintf(f, ", \"kernel\": ");
        json_str(f, s->kernel);
        fprintf(f, ", \"ok\": %s, \"sim_fault\": ", ok ? "true" : "false");
        if (!ran)
            json_str(f, sim_msg);
        else if (sim_fault)
            json_str(f, sim->fault.kind);
        else
            fprintf(f, "null");
        fprintf(f, ", \"ref_fault\": ");
        if (ref->fault[0])
            json_str(f, ref->fault);
        else
            fprintf(f, "null");
        fprintf(f, ", \"occupancy\": {\"model_blocks_per_sm\": %d, \"api_blocks_per_sm\": %d, \"regs\": %d, "
               "\"static_smem\": %lld, \"agree\": %s}, \"buffers\": [",
               model, ref->api_blocks, ref->regs, ref->static_smem, occ_ok ? "true" : "false");
        static const char *const vnames[] = {"identical", "differs", "holds", "fails", "missing"};
        for (int i = 0; i < n; i++) {
            xcheck_buf_columns(&cmp[i], sim, ref, sc, rc, vd, sizeof sc);
            fprintf(f, "%s{\"arg\": %d, \"type\": \"%s\", \"count\": %" PRIu64 ", \"verdict\": \"%s\", \"index\": %" PRId64
                   ", \"simulator\": ",
                   i ? ", " : "", cmp[i].arg, argspec_type_name(cmp[i].type), cmp[i].count, vnames[cmp[i].verdict],
                   cmp[i].index);
            json_str(f, sc);
            fprintf(f, ", \"reference\": ");
            json_str(f, rc);
            if (cmp[i].crit) {
                fprintf(f, ", \"criterion\": ");
                json_str(f, cmp[i].crit->text);
            }
            fprintf(f, "}");
        }
        fprintf(f, "]");
        bool differs = false;
        for (int i = 0; i < n; i++)
            differs |= cmp[i].verdict == XCHECK_DIFFERS || cmp[i].verdict == XCHECK_FAILS;
        if (differs && sim->sfu[0]) {
            fprintf(f, ", \"special_function_unit\": ");
            json_str(f, sim->sfu);
        }
        fprintf(f, "}");
        return ok;
    }
    fprintf(f, "  %s %s  %s%s\n", s->kernel, shape, l->order_dependent ? "order-dependent" : "exact",
           ok ? "" : "  <-- MISMATCH");
    if (!ran) {
        fprintf(f, "    the simulator could not run it: %s\n", sim_msg);
        return false;
    }
    if (sim_fault)
        fprintf(f, "    the simulator faulted: %s: %s\n", sim->fault.kind, sim->fault.msg);
    if (ref->fault[0])
        fprintf(f, "    the reference faulted: %s\n", ref->fault);
    for (int i = 0; i < n; i++) {
        char what[64];
        snprintf(what, sizeof what, "arg %d %s[%" PRIu64 "]", cmp[i].arg, argspec_type_name(cmp[i].type),
                 cmp[i].count);
        xcheck_buf_columns(&cmp[i], sim, ref, sc, rc, vd, sizeof sc);
        fprintf(f, "    %-20s %-24s %-24s %s\n", what, sc, rc, vd);
    }
    bool differs = false;
    for (int i = 0; i < n; i++)
        differs |= cmp[i].verdict == XCHECK_DIFFERS || cmp[i].verdict == XCHECK_FAILS;
    if (differs && sim->sfu[0]) /* the likeliest cause to name first */
        fprintf(f, "    the kernel uses the special function unit (%s): the simulator follows the H100's;\n"
                   "    another GPU's may differ\n", sim->sfu);
    if (occ_known) {
        snprintf(sc, sizeof sc, "%d blocks/SM (model)", model);
        snprintf(rc, sizeof rc, "%d blocks/SM (API)", ref->api_blocks);
        snprintf(vd, sizeof vd, "%s  (%d regs, %lld B static smem)", occ_ok ? "agree" : "DIFFERS", ref->regs,
                 ref->static_smem);
    } else {
        snprintf(sc, sizeof sc, "%s", model >= 0 ? "model" : "-");
        snprintf(rc, sizeof rc, "-");
        snprintf(vd, sizeof vd, "not compared (registers or API answer unknown)");
    }
    fprintf(f, "    %-20s %-24s %-24s %s\n", "occupancy", sc, rc, vd);
    return ok;
}

void xcheck_report_lesson_begin(XcheckReport *x, const char *slug, const char *sim_arch, const char *ref_desc,
                                const char *note)
{
    FILE *f = x->f;
    if (x->json) {
        fprintf(f, "%s{\"lesson\": ", x->first_lesson ? "" : ", ");
        json_str(f, slug);
        fprintf(f, ", \"note\": ");
        json_str(f, note);
        fprintf(f, ", \"launches\": [");
    } else {
        fprintf(f, "%s%s: simulator %s vs %s%s%s\n", x->first_lesson ? "" : "\n", slug, sim_arch, ref_desc,
               note[0] ? "\n  note: " : "", note);
        fprintf(f, "    %-20s %-24s %-24s %s\n", "", "simulator", "reference", "verdict");
    }
    x->first_lesson = false;
}

void xcheck_report_lesson_end(XcheckReport *x)
{
    FILE *f = x->f;
    if (x->json)
        fprintf(f, "%s]}", x->in_times ? "" : "], \"times\": [");
    x->in_times = false;
}

void xcheck_report_live_begin(XcheckReport *x, const XcheckDeviceInfo *info)
{
    if (!x->json)
        return;
    fprintf(x->f, "{\"mode\": \"live\", \"checks\": [{\"reference\": {\"device\": ");
    json_str(x->f, info->device);
    fprintf(x->f, ", \"backend\": \"%s\", \"arch\": \"%s\"}, \"lessons\": [", info->backend, info->arch);
}

void xcheck_report_live_end(XcheckReport *x)
{
    bool ok = !x->mismatches && !x->time_fails;
    if (x->json)
        fprintf(x->f, "]}], \"launches\": %d, \"mismatches\": %d, \"time_claims\": %d, \"time_failures\": %d, "
                      "\"ok\": %s}\n", x->launches, x->mismatches, x->times, x->time_fails, ok ? "true" : "false");
    else
        fprintf(x->f, "\n%d launch%s checked, %d mismatch%s\n", x->launches, x->launches == 1 ? "" : "es",
                x->mismatches, x->mismatches == 1 ? "" : "es");
    if (!x->json && x->times)
        fprintf(x->f, "%d time claim%s judged, %d failing\n", x->times, x->times == 1 ? "" : "s", x->time_fails);
}

void xcheck_report_recorded_begin(XcheckReport *x)
{
    if (x->json)
        fprintf(x->f, "{\"mode\": \"recorded\", \"checks\": [");
}

void xcheck_report_recording_begin(XcheckReport *x, const char *path, const XcheckDeviceInfo *info, bool first)
{
    if (x->json) {
        fprintf(x->f, "%s{\"reference\": {\"file\": ", first ? "" : ", ");
        json_str(x->f, path);
        fprintf(x->f, ", \"device\": ");
        json_str(x->f, info->device);
        fprintf(x->f, ", \"backend\": ");
        json_str(x->f, info->backend);
        fprintf(x->f, ", \"arch\": ");
        json_str(x->f, info->arch);
        fprintf(x->f, ", \"date\": ");
        json_str(x->f, info->date);
        fprintf(x->f, "}, \"lessons\": [");
    }
    x->first_lesson = true;
}

void xcheck_report_recording_end(XcheckReport *x)
{
    if (x->json)
        fprintf(x->f, "]}");
}

void xcheck_report_recorded_end(XcheckReport *x, int nfiles)
{
    bool ok = !x->mismatches && !x->time_fails;
    if (x->json)
        fprintf(x->f, "], \"launches\": %d, \"mismatches\": %d, \"time_claims\": %d, \"time_failures\": %d, "
                      "\"ok\": %s}\n", x->launches, x->mismatches, x->times, x->time_fails, ok ? "true" : "false");
    else
        fprintf(x->f, "\n%d launch%s checked against %d recording%s, %d mismatch%s\n", x->launches,
                x->launches == 1 ? "" : "es", nfiles, nfiles == 1 ? "" : "s", x->mismatches,
                x->mismatches == 1 ? "" : "es");
    if (!x->json && x->times)
        fprintf(x->f, "%d time claim%s judged, %d failing\n", x->times, x->times == 1 ? "" : "s", x->time_fails);
}
