/* xcheck_record.c: hardware recordings of `warpsim xcheck` (traces/hw/<gpu>/
 * xcheck.json) -- written on a GPU machine by `warpsim xcheck --record`,
 * read back by `warpsim xcheck --recorded` and tests/test_xcheck.c, so that
 * CI compares the simulator with hardware without a GPU. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "source.h"
#include "xcheck.h"

#define XCHECK_FORMAT "warpsim-xcheck-1"

static void write_buf(FILE *f, const XcheckRefBuf *b, bool last)
{
    fprintf(f, "            {\"arg\": %d, \"type\": \"%s\", \"count\": %" PRIu64, b->arg, argspec_type_name(b->type),
            b->count);
    if (b->nruns > 0) {
        fprintf(f, ", \"order_dependent\": true, \"runs\": [");
        for (int k = 0; k < b->nruns; k++) {
            char *h = xcheck_hex(b->type, b->runs[k], b->count);
            fprintf(f, "%s\"%s\"", k ? ", " : "", h ? h : "");
            free(h);
        }
        fprintf(f, "]");
    } else {
        fprintf(f, ", \"xxh64\": \"%016" PRIx64 "\"", b->hash);
        if (b->data && b->count <= XCHECK_SMALL) {
            char *h = xcheck_hex(b->type, b->data, b->count);
            fprintf(f, ", \"hex\": \"%s\"", h ? h : "");
            free(h);
        }
    }
    fprintf(f, "}%s\n", last ? "" : ",");
}

bool xcheck_recording_write(const char *path, const XcheckRecording *r, char *msg, size_t cap)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(msg, cap, "cannot write %s", path);
        return false;
    }
    const XcheckDeviceInfo *i = &r->info;
    fprintf(f, "{\n  \"format\": \"%s\",\n  \"device\": ", XCHECK_FORMAT);
    report_json_string(f, i->device);
    fprintf(f, ",\n  \"backend\": \"%s\",\n  \"arch\": \"%s\",\n  \"compute_capability\": \"%.*s.%s\",\n", i->backend,
            i->arch, (int)strlen(i->arch) - 4, i->arch + 3, i->arch + strlen(i->arch) - 1);
    fprintf(f, "  \"driver\": ");
    report_json_string(f, i->driver);
    fprintf(f, ",\n  \"cuda_version\": \"%d.%d\",\n  \"date\": \"%s\",\n  \"runs\": %d,\n  \"hash\": \"xxh64\",\n",
            i->cuda_version / 1000, i->cuda_version % 1000 / 10, i->date, i->runs);
    fprintf(f, "  \"lessons\": [\n");
    for (int l = 0; l < r->n; l++) {
        const XcheckRecLesson *L = &r->lessons[l];
        fprintf(f, "    {\n      \"lesson\": \"%s\",\n      \"ptx_xxh64\": \"%016" PRIx64 "\",\n      \"launches\": [\n",
                L->slug, L->ptx_hash);
        for (int k = 0; k < L->n; k++) {
            const XcheckRef *x = &L->refs[k];
            fprintf(f, "        {\n          \"line\": ");
            report_json_string(f, x->line);
            fprintf(f, ",\n          \"fault\": ");
            if (x->fault[0])
                report_json_string(f, x->fault);
            else
                fprintf(f, "null");
            fprintf(f, ",\n          \"regs\": %d,\n          \"static_smem\": %lld,\n          \"local_bytes\": %lld,\n"
                       "          \"api_blocks_per_sm\": %d,\n",
                    x->regs, x->static_smem, x->local_bytes, x->api_blocks);
            if (x->time > 0) { /* optional: recordings before time claims have none */
                fprintf(f, "          \"time\": %.9g,\n          \"time_unit\": ", x->time);
                report_json_string(f, x->time_unit);
                fprintf(f, ",\n");
            }
            fprintf(f, "          \"buffers\": [\n");
            for (int b = 0; b < x->nbufs; b++)
                write_buf(f, &x->bufs[b], b + 1 == x->nbufs);
            fprintf(f, "          ]\n        }%s\n", k + 1 == L->n ? "" : ",");
        }
        fprintf(f, "      ]\n    }%s\n", l + 1 == r->n ? "" : ",");
    }
    fprintf(f, "  ]\n}\n");
    bool ok = !ferror(f);
    ok = !fclose(f) && ok;
    if (!ok)
        snprintf(msg, cap, "cannot write %s", path);
    return ok;
}

void xcheck_recording_free(XcheckRecording *r)
{
    for (int l = 0; l < r->n; l++) {
        for (int k = 0; k < r->lessons[l].n; k++)
            xcheck_ref_free(&r->lessons[l].refs[k]);
        free(r->lessons[l].refs);
        free(r->lessons[l].slug);
    }
    free(r->lessons);
    memset(r, 0, sizeof *r);
}

static bool get_hash(const JsonValue *o, const char *key, uint64_t *out)
{
    const char *s = json_get_string(o, key);
    char *end;
    if (!s || strlen(s) != 16)
        return false;
    *out = strtoull(s, &end, 16);
    return !*end;
}

static void copy_str(char *dst, size_t cap, const JsonValue *o, const char *key)
{
    const char *s = json_get_string(o, key);
    snprintf(dst, cap, "%s", s ? s : "");
}

/* One buffer object into b; false with why. */
static bool read_buf(const JsonValue *o, XcheckRefBuf *b, const char **why)
{
    const char *type = json_get_string(o, "type");
    double count = json_get_number(o, "count", -1);
    b->arg = (int)json_get_number(o, "arg", -1);
    b->type = type ? argspec_type(type) : PTX_T_NONE;
    if (b->arg < 0 || b->arg >= LAUNCH_MAX_ARGS || argspec_type_size(b->type) <= 0 || count < 0 || count > 1e9) {
        *why = "a buffer needs arg, type and count";
        return false;
    }
    b->count = (uint64_t)count;
    const JsonValue *runs = json_get(o, "runs");
    if (runs) {
        if (runs->type != JSON_ARRAY || runs->n == 0 || runs->n > XCHECK_MAX_RUNS) {
            *why = "runs must be a list of 1 to 32 hex strings";
            return false;
        }
        for (size_t k = 0; k < runs->n; k++) {
            uint8_t *d = runs->items[k].type == JSON_STRING ? xcheck_unhex(b->type, runs->items[k].string, b->count)
                                                            : NULL;
            if (!d) {
                *why = "a run's hex does not hold count elements of its type";
                return false;
            }
            b->runs[b->nruns++] = d;
        }
        b->hash = xcheck_hash(b->runs[0], b->count * (uint64_t)argspec_type_size(b->type));
        return true;
    }
    if (!get_hash(o, "xxh64", &b->hash)) {
        *why = "a buffer needs xxh64 (16 hex digits) or runs";
        return false;
    }
    const char *hex = json_get_string(o, "hex");
    if (hex && !(b->data = xcheck_unhex(b->type, hex, b->count))) {
        *why = "hex does not hold count elements of its type";
        return false;
    }
    return true;
}

static bool read_launch(const JsonValue *o, XcheckRef *x, const char **why)
{
    const char *line = json_get_string(o, "line");
    const JsonValue *bufs = json_get(o, "buffers");
    if (!line || !bufs || bufs->type != JSON_ARRAY || bufs->n > LAUNCH_MAX_ARGS) {
        *why = "a launch needs line and buffers";
        return false;
    }
    x->line = strdup(line);
    copy_str(x->fault, sizeof x->fault, o, "fault");
    x->regs = (int)json_get_number(o, "regs", -1);
    x->static_smem = (long long)json_get_number(o, "static_smem", -1);
    x->local_bytes = (long long)json_get_number(o, "local_bytes", -1);
    x->api_blocks = (int)json_get_number(o, "api_blocks_per_sm", -1);
    x->time = json_get_number(o, "time", -1); /* absent in recordings made before time claims */
    copy_str(x->time_unit, sizeof x->time_unit, o, "time_unit");
    if (x->time > 0 && strcmp(x->time_unit, "ms") && strcmp(x->time_unit, "cycles")) {
        *why = "time_unit must be \"ms\" or \"cycles\"";
        return false;
    }
    for (size_t b = 0; b < bufs->n; b++)
        if (!read_buf(&bufs->items[b], &x->bufs[x->nbufs++], why))
            return false;
    return x->line != NULL;
}

bool xcheck_recording_read(const char *path, XcheckRecording *r, char *msg, size_t cap)
{
    memset(r, 0, sizeof *r);
    size_t len;
    char *text = source_read_file(path, &len, msg, cap);
    if (!text)
        return false;
    char m[256];
    JsonValue *root = json_parse(text, len, m, sizeof m);
    free(text);
    if (!root) {
        snprintf(msg, cap, "%s: %s", path, m);
        return false;
    }
    const char *why = NULL, *fmt = json_get_string(root, "format");
    const JsonValue *lessons = json_get(root, "lessons");
    int li = -1, ki = -1;
    if (!fmt || strcmp(fmt, XCHECK_FORMAT)) {
        why = "not a warpsim-xcheck-1 recording (\"format\")";
        goto fail;
    }
    XcheckDeviceInfo *i = &r->info;
    copy_str(i->device, sizeof i->device, root, "device");
    copy_str(i->backend, sizeof i->backend, root, "backend");
    copy_str(i->arch, sizeof i->arch, root, "arch");
    copy_str(i->driver, sizeof i->driver, root, "driver");
    copy_str(i->date, sizeof i->date, root, "date");
    const char *cv = json_get_string(root, "cuda_version");
    int maj = 0, min = 0;
    if (cv && sscanf(cv, "%d.%d", &maj, &min) == 2)
        i->cuda_version = maj * 1000 + min * 10;
    i->runs = (int)json_get_number(root, "runs", 0);
    if (!i->arch[0] || !lessons || lessons->type != JSON_ARRAY) {
        why = "needs arch and lessons";
        goto fail;
    }
    r->lessons = calloc(lessons->n ? lessons->n : 1, sizeof *r->lessons);
    if (!r->lessons) {
        why = "out of memory";
        goto fail;
    }
    for (li = 0; li < (int)lessons->n; li++) {
        const JsonValue *L = &lessons->items[li];
        XcheckRecLesson *rl = &r->lessons[r->n++];
        const char *slug = json_get_string(L, "lesson");
        const JsonValue *launches = json_get(L, "launches");
        if (!slug || !launches || launches->type != JSON_ARRAY || !get_hash(L, "ptx_xxh64", &rl->ptx_hash)) {
            why = "a lesson needs lesson, ptx_xxh64 and launches";
            goto fail;
        }
        rl->slug = strdup(slug);
        rl->refs = calloc(launches->n ? launches->n : 1, sizeof *rl->refs);
        if (!rl->slug || !rl->refs) {
            why = "out of memory";
            goto fail;
        }
        for (ki = 0; ki < (int)launches->n; ki++)
            if (rl->n++, !read_launch(&launches->items[ki], &rl->refs[ki], &why))
                goto fail;
        ki = -1;
    }
    json_free(root);
    return true;
fail:
    if (li < 0)
        snprintf(msg, cap, "%s: %s", path, why);
    else if (ki < 0)
        snprintf(msg, cap, "%s: lessons[%d]: %s", path, li, why);
    else
        snprintf(msg, cap, "%s: lessons[%d].launches[%d]: %s", path, li, ki, why);
    json_free(root);
    xcheck_recording_free(r);
    return false;
}
