/* suite.h: the timing suite's launch lists (tests/timing/families.txt,
 * microbench.txt) read into families of launches, and the statistics that
 * compare simulated cycles with the H100's: Spearman rank correlation (ties
 * get average ranks), ratios, mean absolute relative error.  Shared by
 * tests/test_timing_hw.c and the recorder tests/timing/hw_record.c; every
 * function is static, so a file that includes this is self-contained.
 *
 * List syntax, one item a line (`#` starts a comment, tokens as launch.h's
 * launch_tokenize splits them):
 *   family NAME VARIABLE headline=SLOW/FAST [aims=enforce|report]
 *       a family: a sweep of VARIABLE; its headline ratio is the cycles of
 *       launch SLOW over those of launch FAST.  aims=report prints the aims
 *       without failing on them (default: enforce).
 *   launch NAME FILE --kernel K --grid G --block B [--smem S] [--carveout P] --arg ...
 *       one launch of the last family, in `warpsim run` syntax. */
#ifndef WARPSIM_TIMING_SUITE_H
#define WARPSIM_TIMING_SUITE_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

#define TS_NAME 48
#define TS_MAX_FAMILIES 32
#define TS_MAX_LAUNCHES 256

typedef struct {
    char name[TS_NAME];      /* unique within its family */
    int family;              /* index into TsSuite.fam */
    char **tok;              /* FILE and the warpsim run options after it (launch_tokenize) */
    int ntok;
    int carveout;            /* --carveout P, or -1 when the line has none */
    int line;                /* line number in the list, for messages */
} TsLaunch;

typedef struct {
    char name[TS_NAME];
    char variable[TS_NAME];  /* what the sweep varies */
    char slow[TS_NAME], fast[TS_NAME]; /* headline = cycles(slow) / cycles(fast) */
    bool enforce;            /* aims fail the test (aims=enforce) or are only printed */
    int first, n;            /* its launches: TsSuite.l[first .. first + n - 1] */
} TsFamily;

typedef struct {
    TsFamily fam[TS_MAX_FAMILIES];
    int nfam;
    TsLaunch l[TS_MAX_LAUNCHES];
    int nl;
} TsSuite;

static inline void ts_free(TsSuite *s)
{
    for (int i = 0; i < s->nl; i++)
        launch_tokens_free(s->l[i].tok);
    memset(s, 0, sizeof *s);
}

/* Index of launch `name` in family f, or -1. */
static inline int ts_find(const TsSuite *s, int f, const char *name)
{
    for (int i = s->fam[f].first; i < s->fam[f].first + s->fam[f].n; i++)
        if (!strcmp(s->l[i].name, name))
            return i;
    return -1;
}

static inline bool ts_copy_name(char *dst, const char *src)
{
    if (!*src || strlen(src) >= TS_NAME)
        return false;
    strcpy(dst, src);
    return true;
}

/* Read the list at path into *s.  false with msg ("families.txt:12: ...")
 * on any problem: unknown keyword, a launch before any family, a duplicate
 * name, a headline naming no launch of its family, a bad --carveout. */
static inline bool ts_load(TsSuite *s, const char *path, char *msg, size_t cap)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, cap, "%s: cannot open", path);
        return false;
    }
    char line[4096];
    int ln = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\n")] = 0;
        char **t = NULL, tm[200];
        int n = launch_tokenize(line, &t, tm, sizeof tm);
        if (n < 0) {
            snprintf(msg, cap, "%s:%d: %s", path, ln, tm);
            ok = false;
            break;
        }
        if (n == 0) {
            launch_tokens_free(t);
            continue;
        }
        if (!strcmp(t[0], "family")) {
            TsFamily *fa = &s->fam[s->nfam];
            const char *h = n >= 4 ? t[3] : "";
            const char *slash = strchr(h, '/');
            if (s->nfam == TS_MAX_FAMILIES || n < 4 || n > 5 || strncmp(h, "headline=", 9) || !slash ||
                !ts_copy_name(fa->name, t[1]) || !ts_copy_name(fa->variable, t[2]) ||
                (size_t)(slash - h - 9) >= TS_NAME || !ts_copy_name(fa->fast, slash + 1)) {
                snprintf(msg, cap, "%s:%d: expected: family NAME VARIABLE headline=SLOW/FAST [aims=enforce|report]",
                         path, ln);
                ok = false;
            } else {
                memcpy(fa->slow, h + 9, (size_t)(slash - h - 9));
                fa->slow[slash - h - 9] = 0;
                fa->enforce = true;
                if (n == 5 && !strcmp(t[4], "aims=report"))
                    fa->enforce = false;
                else if (n == 5 && strcmp(t[4], "aims=enforce")) {
                    snprintf(msg, cap, "%s:%d: '%s': expected aims=enforce or aims=report", path, ln, t[4]);
                    ok = false;
                }
                for (int i = 0; ok && i < s->nfam; i++)
                    if (!strcmp(s->fam[i].name, fa->name)) {
                        snprintf(msg, cap, "%s:%d: a second family '%s'", path, ln, fa->name);
                        ok = false;
                    }
                fa->first = s->nl;
                s->nfam += ok;
            }
            launch_tokens_free(t);
        } else if (!strcmp(t[0], "launch")) {
            TsLaunch *l = &s->l[s->nl];
            memset(l, 0, sizeof *l);
            l->carveout = -1;
            l->line = ln;
            if (!s->nfam || s->nl == TS_MAX_LAUNCHES || n < 3 || !ts_copy_name(l->name, t[1])) {
                snprintf(msg, cap, "%s:%d: expected: launch NAME FILE OPTIONS... after a family line", path, ln);
                launch_tokens_free(t);
                ok = false;
                break;
            }
            l->family = s->nfam - 1;
            if (ts_find(s, l->family, l->name) >= 0) {
                snprintf(msg, cap, "%s:%d: a second launch '%s' in family %s", path, ln, l->name,
                         s->fam[l->family].name);
                launch_tokens_free(t);
                ok = false;
                break;
            }
            /* keep FILE and the options: drop "launch NAME" */
            free(t[0]);
            free(t[1]);
            memmove(t, t + 2, (size_t)(n - 1) * sizeof *t);
            l->tok = t;
            l->ntok = n - 2;
            for (int i = 1; i < l->ntok; i++)
                if (!strcmp(t[i], "--carveout")) {
                    char *end = NULL;
                    long v = i + 1 < l->ntok ? strtol(t[i + 1], &end, 10) : -2;
                    if (!end || *end || v < 0 || v > 100) {
                        snprintf(msg, cap, "%s:%d: --carveout expects a percentage 0..100", path, ln);
                        ok = false;
                    }
                    l->carveout = (int)v;
                }
            s->nl++;
            s->fam[l->family].n++;
        } else {
            snprintf(msg, cap, "%s:%d: '%s': expected family or launch", path, ln, t[0]);
            launch_tokens_free(t);
            ok = false;
        }
    }
    fclose(f);
    for (int i = 0; ok && i < s->nfam; i++) {
        const TsFamily *fa = &s->fam[i];
        if (fa->n < 2 || ts_find(s, i, fa->slow) < 0 || ts_find(s, i, fa->fast) < 0) {
            snprintf(msg, cap, "%s: family %s: %s", path, fa->name,
                     fa->n < 2 ? "fewer than 2 launches" : "its headline names a launch it does not have");
            ok = false;
        }
    }
    if (!ok)
        ts_free(s);
    return ok;
}

/* The launch options of l without FILE and without --carveout P (which the
 * caller applies itself): argv-style pointers into l->tok, *argc of them. */
static inline void ts_launch_options(const TsLaunch *l, char **argv, int *argc)
{
    int n = 0;
    for (int i = 1; i < l->ntok; i++) {
        if (!strcmp(l->tok[i], "--carveout")) {
            i++;
            continue;
        }
        argv[n++] = l->tok[i];
    }
    *argc = n;
}

/* ---- statistics ---------------------------------------------------- */

/* rank[i] = the 1-based rank of x[i] among x[0..n-1]; tied values share the
 * average of the ranks they span (2 values tied for 3rd and 4th get 3.5). */
static inline void ts_ranks(const double *x, int n, double *rank)
{
    for (int i = 0; i < n; i++) {
        int below = 0, equal = 0;
        for (int j = 0; j < n; j++) {
            below += x[j] < x[i];
            equal += x[j] == x[i];
        }
        rank[i] = below + (equal + 1) / 2.0;
    }
}

/* Tie groups of measured values: values within a factor (1 + tol) of their
 * neighbour in sorted order fall in one group (chained: 100, 101.5, 103 are
 * one group at tol 0.02).  group[i] = the group of x[i], numbered from 0 in
 * increasing order; returns the number of groups.  For measured cycles,
 * whose run-to-run spread makes nearly equal launches swap places. */
static inline int ts_tie_groups(const double *x, int n, double tol, int *group)
{
    if (n < 1 || n > TS_MAX_LAUNCHES)
        return 0;
    int order[TS_MAX_LAUNCHES];
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++) /* insertion sort by value: n is small */
        for (int j = i; j > 0 && x[order[j - 1]] > x[order[j]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int g = 0;
    for (int k = 0; k < n; k++) {
        if (k > 0 && !(x[order[k]] <= x[order[k - 1]] * (1 + tol)))
            g++;
        group[order[k]] = g;
    }
    return g + 1;
}

/* As ts_ranks, but the values of one ts_tie_groups group share the average
 * of the ranks they span.  tol 0 is ts_ranks. */
static inline void ts_ranks_tol(const double *x, int n, double tol, double *rank)
{
    int group[TS_MAX_LAUNCHES];
    if (!ts_tie_groups(x, n, tol, group))
        return;
    for (int i = 0; i < n; i++) {
        int below = 0, same = 0;
        for (int j = 0; j < n; j++) {
            below += group[j] < group[i];
            same += group[j] == group[i];
        }
        rank[i] = below + (same + 1) / 2.0;
    }
}

static inline double ts_pearson(const double *rx, const double *ry, int n)
{
    double mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        mx += rx[i] / n;
        my += ry[i] / n;
    }
    double sxy = 0, sxx = 0, syy = 0;
    for (int i = 0; i < n; i++) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    if (sxx <= 1e-12 || syy <= 1e-12)
        return NAN;
    return sxy / sqrt(sxx * syy);
}

/* Spearman's rank correlation of x and y (n values each): the Pearson
 * correlation of their ranks, ties averaged.  NAN when n < 2 or when either
 * side has all values tied (no order to compare). */
static inline double ts_spearman(const double *x, const double *y, int n)
{
    if (n < 2 || n > TS_MAX_LAUNCHES)
        return NAN;
    double rx[TS_MAX_LAUNCHES], ry[TS_MAX_LAUNCHES];
    ts_ranks(x, n, rx);
    ts_ranks(y, n, ry);
    return ts_pearson(rx, ry, n);
}

/* Spearman of simulated against measured cycles: as ts_spearman, but the
 * launches whose measured cycles tie (ts_tie_groups with tol) are not
 * ordered on either side: the simulator's ranks are averaged over each such
 * group too, so its order inside a group the hardware cannot order is not
 * judged, while a value far off still moves its group's rank. */
static inline double ts_spearman_hw(const double *sim, const double *hw, int n, double tol)
{
    if (n < 2 || n > TS_MAX_LAUNCHES)
        return NAN;
    double rx[TS_MAX_LAUNCHES], ry[TS_MAX_LAUNCHES], avg[TS_MAX_LAUNCHES];
    int group[TS_MAX_LAUNCHES];
    ts_tie_groups(hw, n, tol, group);
    ts_ranks(sim, n, rx);
    ts_ranks_tol(hw, n, tol, ry);
    for (int i = 0; i < n; i++) {
        double sum = 0;
        int cnt = 0;
        for (int j = 0; j < n; j++)
            if (group[j] == group[i]) {
                sum += rx[j];
                cnt++;
            }
        avg[i] = sum / cnt;
    }
    return ts_pearson(avg, ry, n);
}

/* Mean over i of |sim[i] - hw[i]| / hw[i]: the mean absolute error of
 * cycles relative to the hardware (0.25 = 25%).  NAN when n < 1 or some
 * hw[i] <= 0. */
static inline double ts_mean_abs_rel_error(const double *sim, const double *hw, int n)
{
    if (n < 1)
        return NAN;
    double s = 0;
    for (int i = 0; i < n; i++) {
        if (!(hw[i] > 0))
            return NAN;
        s += fabs(sim[i] - hw[i]) / hw[i];
    }
    return s / n;
}

/* a / b, NAN unless both are positive. */
static inline double ts_ratio(double a, double b)
{
    return a > 0 && b > 0 ? a / b : NAN;
}

/* How far apart two ratios are, as a factor >= 1 (2 and 4 are 2x apart, so
 * are 4 and 2); NAN unless both are positive. */
static inline double ts_factor_apart(double a, double b)
{
    if (!(a > 0 && b > 0))
        return NAN;
    return a > b ? a / b : b / a;
}

/* ---- reading numbers out of JSON text -------------------------------- */

/* The number after "key": at or after from in text (a JSON object written
 * by warpsim or by the recorder); false when the key is absent or is not
 * followed by a number. */
static inline bool ts_json_number(const char *text, const char *key, double *out)
{
    char pat[128];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(text, pat);
    if (!p)
        return false;
    p += strlen(pat);
    while (*p == ' ')
        p++;
    char *end;
    double v = strtod(p, &end);
    if (end == p)
        return false;
    *out = v;
    return true;
}

/* The string value of "key": in text, copied into out (cap bytes). */
static inline bool ts_json_string(const char *text, const char *key, char *out, size_t cap)
{
    char pat[128];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = strstr(text, pat);
    if (!p)
        return false;
    p += strlen(pat);
    const char *q = strchr(p, '"');
    if (!q || (size_t)(q - p) >= cap)
        return false;
    memcpy(out, p, (size_t)(q - p));
    out[q - p] = 0;
    return true;
}

#endif
