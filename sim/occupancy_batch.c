/* occupancy_batch.c: the text formats of `warpsim occupancy --batch`: a
 * small parser for its flat JSON launch lines ({"arch": "sm_90", "block":
 * 256, ...}; strings and integers only, no nesting) and the JSON fields of
 * an answer.  Hand-rolled so 100,000 lines take a fraction of a second and
 * warpsim needs no JSON library.  See occupancy.h. */
#include "occupancy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *start, *p;   /* the line, and the parser's position in it */
    char err[200];
} Json;

static void skip_ws(Json *j)
{
    while (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n')
        j->p++;
}

static bool json_fail(Json *j, const char *msg)
{
    if (!j->err[0])
        snprintf(j->err, sizeof j->err, "%s at column %d", msg, (int)(j->p - j->start) + 1);
    return false;
}

static bool parse_str(Json *j, char *out, size_t cap)
{
    if (*j->p != '"')
        return json_fail(j, "expected a string");
    j->p++;
    size_t n = 0;
    while (*j->p && *j->p != '"') {
        char ch = *j->p++;
        if (ch == '\\' && *j->p)
            ch = *j->p++;
        if (n + 1 >= cap)
            return json_fail(j, "string too long");
        out[n++] = ch;
    }
    if (*j->p != '"')
        return json_fail(j, "unterminated string");
    j->p++;
    out[n] = 0;
    return true;
}

static bool parse_int(Json *j, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(j->p, &end, 10);
    if (end == j->p || errno)
        return json_fail(j, "expected an integer");
    if (*end == '.' || *end == 'e' || *end == 'E')
        return json_fail(j, "expected an integer, not a fraction");
    j->p = end;
    return true;
}

static bool parse_line(Json *j, OccConfig *c, ArchTarget *t)
{
    bool have_arch = false, have_block = false, have_regs = false;
    char key[32], sval[64];
    skip_ws(j);
    if (*j->p != '{')
        return json_fail(j, "expected '{'");
    j->p++;
    skip_ws(j);
    if (*j->p == '}')
        j->p++;
    else
        for (;;) {
            skip_ws(j);
            if (!parse_str(j, key, sizeof key))
                return false;
            skip_ws(j);
            if (*j->p != ':')
                return json_fail(j, "expected ':'");
            j->p++;
            skip_ws(j);
            long long v = 0;
            bool is_str = *j->p == '"';
            if (is_str ? !parse_str(j, sval, sizeof sval) : !parse_int(j, &v))
                return false;
            if (!strcmp(key, "arch") || !strcmp(key, "gpu")) {
                SimError e;
                if (!is_str)
                    return json_fail(j, "\"arch\" must be a string such as \"sm_90\"");
                if (arch_resolve(sval, t, &e) != SIM_OK) {
                    snprintf(j->err, sizeof j->err, "unknown GPU '%s'", sval);
                    return false;
                }
                have_arch = true;
            } else if (!strcmp(key, "carveout")) {
                SimError e;
                int pref = 0;
                if (is_str ? carveout_parse(sval, &pref, &e) != SIM_OK
                           : (v < -1 || v > 100)) {
                    snprintf(j->err, sizeof j->err, "bad carveout: use -1 (default) or 0..100");
                    return false;
                }
                c->carveout = is_str ? pref : (int)v;
            } else {
                static const char *const ints[] = {"block", "regs", "smem_static", "smem_dyn",
                                                   "barriers"};
                size_t k = 0;
                while (k < 5 && strcmp(key, ints[k]))
                    k++;
                if (k == 5) {
                    snprintf(j->err, sizeof j->err, "unknown key \"%.31s\"", key);
                    return false;
                }
                if (is_str || v < 0 || v > (1LL << 30)) {
                    snprintf(j->err, sizeof j->err, "\"%s\" must be an integer 0..2^30", key);
                    return false;
                }
                switch (k) {
                case 0: c->block_size = (int)v; have_block = true; break;
                case 1: c->regs_per_thread = (int)v; have_regs = true; break;
                case 2: c->smem_static = (size_t)v; break;
                case 3: c->smem_dynamic = (size_t)v; break;
                default: c->barriers = (int)v; break;
                }
            }
            skip_ws(j);
            if (*j->p == ',') {
                j->p++;
                continue;
            }
            if (*j->p == '}') {
                j->p++;
                break;
            }
            return json_fail(j, "expected ',' or '}'");
        }
    skip_ws(j);
    if (*j->p)
        return json_fail(j, "text after the object");
    if (!have_arch || !have_block || !have_regs) {
        snprintf(j->err, sizeof j->err, "missing \"%s\"",
                 !have_arch ? "arch" : !have_block ? "block" : "regs");
        return false;
    }
    return true;
}

bool occ_batch_parse(const char *line, OccConfig *cfg, ArchTarget *t, char *err, size_t cap)
{
    Json j = {line, line, ""};
    occ_config_init(cfg);
    bool ok = parse_line(&j, cfg, t);
    if (!ok && cap)
        snprintf(err, cap, "%s", j.err);
    return ok;
}

static void json_limiters(char *buf, size_t cap, unsigned bits)
{
    size_t n = 0;
    n += (size_t)snprintf(buf + n, cap - n, "[");
    bool first = true;
    for (unsigned b = 1; b <= OCC_LIMIT_VIRTUAL && n < cap; b <<= 1)
        if (bits & b) {
            n += (size_t)snprintf(buf + n, cap - n, "%s\"%s\"", first ? "" : ", ",
                                  occ_limiter_name((OccLimiter)b));
            first = false;
        }
    if (n < cap)
        snprintf(buf + n, cap - n, "]");
}

int occ_json_fields(char *buf, size_t cap, const OccResult *r)
{
    char lim[160];
    json_limiters(lim, sizeof lim, r->limiters);
    return snprintf(buf, cap,
                    "\"blocks_per_sm\": %d, \"warps_per_sm\": %d, \"occupancy\": %.6g, "
                    "\"limiters\": %s, \"smem_capacity\": %zu, \"l1_capacity\": %zu, "
                    "\"resident_blocks_per_sm\": %d",
                    r->blocks_per_sm, r->warps_per_sm, r->occupancy, lim, r->smem_capacity,
                    r->l1_capacity, r->resident_blocks_per_sm);
}

