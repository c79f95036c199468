/* grade_compile.c: compiling a submission for `warpsim grade` as hostile
 * input -- its text written into a private sandbox (launch/sandbox.h) as
 * kernel.cu, `nvcc -M` first so that an #include of anything outside the
 * submission's folder and the toolkit's headers is refused before the
 * compile reads it, then nvcc -ptx and ptxas, each under limits; the
 * messages have paths outside the submission replaced (grade_int.h). */
#include "grade_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sandbox.h"
#include "source.h"

/* Largest output kept of one program, and of the dependency list. */
#define OUTPUT_CAP (64u * 1024)
#define DEPS_CAP (1u << 20)

/* The folders an #include may read from, as real paths. */
typedef struct {
    char sandbox[PATH_MAX];      /* the sandbox (kernel.cu, src/) */
    char folder[PATH_MAX];       /* the submission's folder, "" none */
    char toolkit[PATH_MAX];      /* the CUDA toolkit's root (nvcc's ../..) */
    char include[PATH_MAX];      /* the course's headers, "" none */
} Allowed;

static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return n && !strncmp(path, dir, n) && (path[n] == '/' || (n == 1 && dir[0] == '/'));
}

/* May the compile read dependency dep (a path as nvcc -M wrote it,
 * relative to the sandbox)? */
static bool dep_allowed(const Allowed *a, const char *dep)
{
    char full[PATH_MAX * 2], real[PATH_MAX];
    if (dep[0] == '/')
        snprintf(full, sizeof full, "%s", dep);
    else
        snprintf(full, sizeof full, "%s/%s", a->sandbox, dep);
    struct stat st;
    if (!realpath(full, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        return false; /* a device, a FIFO, a folder, a dangling link */
    if (under(real, a->sandbox) || (*a->folder && under(real, a->folder)) || (*a->include && under(real, a->include)))
        return true;
    static const char *const system_dirs[] = {"/usr/include", "/usr/lib/gcc", "/usr/local/include"};
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if (under(real, system_dirs[i]))
            return true;
    char inc[PATH_MAX + 16];
    snprintf(inc, sizeof inc, "%s/include", a->toolkit);
    if (under(real, inc))
        return true;
    snprintf(inc, sizeof inc, "%s/targets", a->toolkit);
    return under(real, inc) && strstr(real + strlen(inc), "/include/");
}

/* Check every file of nvcc -M's output: false with the first refused one
 * in bad (as the submission named it). */
static bool deps_allowed(const Allowed *a, const char *deps, char *bad, size_t cap)
{
    const char *p = deps;
    bool first = true;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || (*p == '\\' && (p[1] == '\n' || p[1] == '\r')))
            p++;
        if (!*p)
            break;
        char tok[PATH_MAX];
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\\' && p[1] == ' ')
                p++; /* an escaped space inside a name */
            if (n + 1 < sizeof tok)
                tok[n++] = *p;
            p++;
        }
        tok[n] = 0;
        if (first || !strcmp(tok, ":") || (n && tok[n - 1] == ':')) {
            first = strcmp(tok, ":") && !(n && tok[n - 1] == ':'); /* the target, up to its colon */
            continue;
        }
        if (!dep_allowed(a, tok)) {
            snprintf(bad, cap, "%s", !strncmp(tok, "src/", 4) ? tok + 4 : tok);
            return false;
        }
    }
    return true;
}

/* Before any program reads them: an #include of an absolute path in the
 * submission's own text (`#include </dev/zero>` would grow the
 * preprocessor without bound before nvcc -M could list it).  false with
 * the path in bad. */
static bool direct_includes_allowed(const Allowed *a, const char *src, size_t n, char *bad, size_t cap)
{
    for (const char *p = src, *end = src + n; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *q = p;
        while (q < e && (*q == ' ' || *q == '\t'))
            q++;
        if (q < e && *q == '#') {
            q++;
            while (q < e && (*q == ' ' || *q == '\t'))
                q++;
            if (e - q > 7 && !strncmp(q, "include", 7)) {
                q += 7;
                while (q < e && (*q == ' ' || *q == '\t'))
                    q++;
                /* an absolute path, or "../x.h" that exists beside the submission */
                if (q + 1 < e && (*q == '"' || *q == '<')) {
                    const char *close = memchr(q + 1, *q == '"' ? '"' : '>', (size_t)(e - q - 1));
                    size_t k = close ? (size_t)(close - q - 1) : 0;
                    char path[PATH_MAX], full[2 * PATH_MAX];
                    struct stat st;
                    if (k && k < sizeof path) {
                        memcpy(path, q + 1, k);
                        path[k] = 0;
                        snprintf(full, sizeof full, "%s/%s", a->folder, path);
                        bool check = path[0] == '/' || (*q == '"' && *a->folder && stat(full, &st) == 0);
                        if (check && !dep_allowed(a, path[0] == '/' ? path : full)) {
                            snprintf(bad, cap, "%s", path);
                            return false;
                        }
                    }
                }
            }
        }
        p = nl ? nl + 1 : end;
    }
    return true;
}

/* ---- paths in messages ------------------------------------------------------- */

typedef struct {
    const char *from, *to;
} Subst;

/* Is c a character that ends a path in a compiler message? */
static bool path_end(char c)
{
    return !c || c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' || c == '(' || c == ')' || c == ':' ||
           c == ',' || c == ';' || c == '`';
}

/* Rewrite text's paths as the file says where grade_compile_scrub is
 * declared; with only_sandbox, the sandbox's own names alone (for PTX,
 * whose comments must stay as they are). */
static char *scrub(const char *text, const char *sandbox, const char *folder, const char *toolkit, const char *shown,
                   bool only_sandbox)
{
    char sb_cu[PATH_MAX + 16], sb_src[PATH_MAX + 16], sb_dir[PATH_MAX + 16], fold[PATH_MAX + 16];
    snprintf(sb_cu, sizeof sb_cu, "%s/kernel.cu", sandbox ? sandbox : "");
    snprintf(sb_src, sizeof sb_src, "%s/src/", sandbox ? sandbox : "");
    snprintf(sb_dir, sizeof sb_dir, "%s/", sandbox ? sandbox : "");
    snprintf(fold, sizeof fold, "%s/", folder ? folder : "");
    /* longest first: the sandbox's own names, the submission's folder,
     * then the toolkit and the system's headers by a short name */
    Subst subs[] = {
        {sandbox && *sandbox ? sb_cu : NULL, shown}, {sandbox && *sandbox ? sb_src : NULL, ""},
        {sandbox && *sandbox ? sb_dir : NULL, ""},   {folder && *folder ? fold : NULL, ""},
        {toolkit && *toolkit ? toolkit : NULL, "<cuda>"}, {"/usr/local/cuda", "<cuda>"},
        {"/usr/include", "<system>"},               {"/usr/lib/gcc", "<system>"},
    };
    size_t len = strlen(text), cap = 2 * len + 64, o = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    const char *p = text;
    while (*p) {
        bool at_start = p == text || path_end(p[-1]) || p[-1] == '\r' || p[-1] == '=';
        size_t need = 0;
        const char *to = NULL, *after = p;
        if (only_sandbox) {
            for (size_t i = 0; i < 3 && !to; i++) {
                size_t n = subs[i].from ? strlen(subs[i].from) : 0;
                if (n && !strncmp(p, subs[i].from, n))
                    to = subs[i].to, after = p + n;
            }
        } else if (at_start && !strncmp(p, "kernel.cu", 9) && path_end(p[9])) {
            to = shown, after = p + 9;
        } else if (at_start && !strncmp(p, "src/", 4)) {
            to = "", after = p + 4;
        } else if (at_start && !strncmp(p, "inc/", 4)) { /* the course's headers, by -I inc */
            to = "lessons/include/", after = p + 4;
        } else if (at_start && *p == '/') {
            for (size_t i = 0; i < sizeof subs / sizeof *subs && !to; i++) {
                size_t n = subs[i].from ? strlen(subs[i].from) : 0;
                if (n && !strncmp(p, subs[i].from, n))
                    to = subs[i].to, after = p + n;
            }
            if (!to) { /* any other absolute path: the grader's machine, not the student's */
                to = "<outside>";
                after = p;
                while (!path_end(*after))
                    after++;
            }
        }
        if (to) {
            need = strlen(to);
            if (o + need + 1 >= cap) {
                char *n2 = realloc(out, cap = 2 * cap + need);
                if (!n2) {
                    free(out);
                    return NULL;
                }
                out = n2;
            }
            memcpy(out + o, to, need);
            o += need;
            p = after;
            continue;
        }
        if (o + 2 >= cap) {
            char *n2 = realloc(out, cap *= 2);
            if (!n2) {
                free(out);
                return NULL;
            }
            out = n2;
        }
        out[o++] = *p++;
    }
    out[o] = 0;
    return out;
}

char *grade_compile_scrub(const char *text, const char *sandbox, const char *folder, const char *toolkit,
                          const char *shown)
{
    return scrub(text, sandbox, folder, toolkit, shown, false);
}

/* ---- ptxas's line, as a .cu line ----------------------------------------------- */

/* The .cu line of PTX line ptx_line: the last .loc of the file that is
 * kernel.cu before it.  0 when none. */
static int cu_line_of(const char *ptx, int ptx_line)
{
    int file_no = -1, line = 1, found = 0;
    /* the .file directives come after the code that names them */
    for (const char *p = strstr(ptx, ".file"); p && file_no < 0; p = strstr(p + 5, ".file")) {
        int n;
        char name[PATH_MAX];
        if (sscanf(p, ".file %d \"%4095[^\"]\"", &n, name) == 2) {
            size_t k = strlen(name);
            if (k >= 9 && !strcmp(name + k - 9, "kernel.cu"))
                file_no = n;
        }
    }
    for (const char *p = ptx; p && *p && line <= ptx_line; line++) {
        while (*p == ' ' || *p == '\t')
            p++;
        int n, l;
        if (sscanf(p, ".loc %d %d", &n, &l) == 2 && n == file_no && l > 0)
            found = l;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return found;
}

/* ptxas names a PTX line ("ptxas kernel.ptx, line 50; error   : Unknown
 * ..."): put a line naming the .cu line it came from (inline asm, say)
 * before its messages, in nvcc's form, so the first error is the student's. */
static char *ptxas_on_cu_line(char *log, const char *ptx, const char *shown)
{
    const char *at = strstr(log, ", line ");
    const char *err = at ? strstr(at, "; error") : NULL;
    if (!at || !err)
        return log;
    int pl = atoi(at + 7), cl = cu_line_of(ptx, pl);
    const char *colon = strchr(err, ':');
    if (!cl || !colon)
        return log;
    const char *m = colon + 1;
    while (*m == ' ')
        m++;
    const char *e = strchr(m, '\n');
    int mlen = e ? (int)(e - m) : (int)strlen(m);
    size_t n = strlen(log) + strlen(shown) + (size_t)mlen + 128;
    char *out = malloc(n);
    if (!out)
        return log;
    snprintf(out, n, "%s(%d): error: %.*s (ptxas, on PTX line %d: inline asm?)\n%s", shown, cl, mlen, m, pl, log);
    free(log);
    return out;
}

/* ---- the compile ------------------------------------------------------------------ */

/* Keep only the lines of a failed `nvcc -M` that state an error: it may
 * echo lines of a file it was about to be refused for. */
static char *error_lines(const char *text)
{
    size_t n = strlen(text), o = 0;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t k = nl ? (size_t)(nl - p + 1) : strlen(p);
        bool keep = (p[0] != ' ' && p[0] != '\t') && (memmem(p, k, ": error: ", 9) || memmem(p, k, ": fatal error: ", 15) ||
                                                      memmem(p, k, "): error", 8) || !strncmp(p, "nvcc fatal", 10));
        if (keep) {
            memcpy(out + o, p, k);
            o += k;
        }
        p += k;
    }
    out[o] = 0;
    return out;
}

/* The messages of a program that failed, paths scrubbed, *log owns them. */
static void keep_log(char **log, const SandboxResult *r, const Allowed *a, const char *shown, bool errors_only)
{
    char *raw = r->output && *r->output ? (errors_only ? error_lines(r->output) : strdup(r->output)) : NULL;
    if (raw && !*raw) {
        free(raw);
        raw = NULL;
    }
    free(*log);
    *log = raw ? grade_compile_scrub(raw, a->sandbox, a->folder, a->toolkit, shown) : NULL;
    free(raw);
    if (*log && r->output_truncated) {
        size_t n = strlen(*log);
        char *m = realloc(*log, n + 32);
        if (m)
            strcpy(m + n, "(output cut)\n"), *log = m;
    }
}

GradeCompileStatus grade_compile(const GradeCompileInput *in, const char *arch, char **ptx, size_t *len,
                                 char **log, char *msg, size_t cap)
{
    *ptx = NULL;
    *log = NULL;
    const char *found = source_find_nvcc();
    if (!found) {
        snprintf(msg, cap, "nvcc was not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): grading compiles "
                           "the submission, so it needs the CUDA toolkit");
        return GRADE_COMPILE_UNAVAILABLE;
    }
    char nvcc[PATH_MAX], ptxas[PATH_MAX];
    snprintf(nvcc, sizeof nvcc, "%s", found);
    found = source_find_tool("ptxas");
    snprintf(ptxas, sizeof ptxas, "%s", found ? found : "");
    Allowed a;
    memset(&a, 0, sizeof a);
    char real[PATH_MAX];
    if (realpath(nvcc, real)) {
        for (int up = 0; up < 2; up++) {
            char *slash = strrchr(real, '/');
            if (slash && slash != real)
                *slash = 0;
        }
        snprintf(a.toolkit, sizeof a.toolkit, "%s", real);
    }
    if (in->folder && *in->folder && realpath(in->folder, real))
        snprintf(a.folder, sizeof a.folder, "%s", real);
    if (in->include_dir && *in->include_dir && realpath(in->include_dir, real))
        snprintf(a.include, sizeof a.include, "%s", real);
    Sandbox *sb = sandbox_new("grade", msg, cap);
    if (!sb)
        return GRADE_COMPILE_UNAVAILABLE;
    GradeCompileStatus rc = GRADE_COMPILE_UNAVAILABLE;
    SandboxResult r = {0};
    if (!realpath(sandbox_dir(sb), a.sandbox) || !sandbox_write(sb, "kernel.cu", in->source, in->source_len, msg, cap))
        goto done;
    char bad[PATH_MAX];
    if (!direct_includes_allowed(&a, in->source, in->source_len, bad, sizeof bad)) {
        rc = GRADE_COMPILE_REFUSED;
        snprintf(msg, cap, "%s", bad);
        goto done;
    }
    bool have_src = *a.folder && sandbox_link(sb, "src", a.folder, msg, cap);
    bool have_inc = *a.include && sandbox_link(sb, "inc", a.include, msg, cap);
    char archarg[64];
    snprintf(archarg, sizeof archarg, "-arch=%s", arch);
    /* -I src, then -I inc: the submission's folder, then the course's headers */
    const char *incs[5];
    int ni = 0;
    if (have_src)
        incs[ni++] = "-I", incs[ni++] = "src";
    if (have_inc)
        incs[ni++] = "-I", incs[ni++] = "inc";
    incs[ni] = NULL;
    const char *shown = in->shown && *in->shown ? in->shown : "kernel.cu";
    /* 1. what would the compile read?  (-M preprocesses only: it prints
     * every file an #include names, and compiles nothing) */
    const char *dep_argv[12] = {nvcc, "-M", "-MF", "kernel.d", archarg};
    int nd = 5;
    for (int i = 0; i < ni; i++)
        dep_argv[nd++] = incs[i];
    dep_argv[nd++] = "kernel.cu";
    dep_argv[nd] = NULL;
    if (!sandbox_run(sb, dep_argv, &in->limits, OUTPUT_CAP, &r, msg, cap))
        goto done;
    if (r.end == SANDBOX_INTERRUPTED) {
        snprintf(msg, cap, "interrupted");
        goto done;
    }
    rc = r.end == SANDBOX_TIMED_OUT ? GRADE_COMPILE_TIMED_OUT : GRADE_COMPILE_FAILED;
    size_t dlen = 0;
    char *deps = r.end == SANDBOX_EXITED && r.code == 0 ? sandbox_read(sb, "kernel.d", DEPS_CAP, &dlen, msg, cap) : NULL;
    if (!deps) {
        char why[160];
        keep_log(log, &r, &a, shown, true);
        if (r.end != SANDBOX_EXITED || r.code == 0) /* a limit: an endless or enormous #include */
            snprintf(msg, cap, "reading the files the submission includes, nvcc was %s",
                     r.code == 0 ? "told to read too many" : sandbox_describe(&r, &in->limits, why, sizeof why));
        else
            snprintf(msg, cap, "nvcc could not read the files the submission includes");
        goto done;
    }
    bool deps_ok = deps_allowed(&a, deps, bad, sizeof bad);
    free(deps);
    if (!deps_ok) {
        rc = GRADE_COMPILE_REFUSED;
        char *name = scrub(bad, a.sandbox, NULL, NULL, shown, true); /* as the submission named it */
        snprintf(msg, cap, "%s", name ? name : bad);
        free(name);
        goto done;
    }
    sandbox_result_free(&r);
    /* 2. the compile, with the flags `warpsim run` uses, so a replay runs the
     * very same PTX */
    const char *cc_argv[14] = {nvcc, "-ptx", "-lineinfo", "-O3", archarg};
    int nc = 5;
    for (int i = 0; i < ni; i++)
        cc_argv[nc++] = incs[i];
    cc_argv[nc++] = "-o", cc_argv[nc++] = "kernel.ptx", cc_argv[nc++] = "kernel.cu";
    cc_argv[nc] = NULL;
    if (!sandbox_run(sb, cc_argv, &in->limits, OUTPUT_CAP, &r, msg, cap))
        goto done;
    if (r.end == SANDBOX_EXITED && r.code == 0) {
        *ptx = sandbox_read(sb, "kernel.ptx", SOURCE_MAX_PTX, len, msg, cap);
        if (!*ptx) {
            rc = GRADE_COMPILE_FAILED;
            *log = strdup("nvcc wrote no PTX (or more than the grader reads)\n");
            goto done;
        }
        if (*ptxas) {
            /* nvcc -ptx stops before the back end, which still refuses some
             * kernels (too much shared memory, bad inline asm) that a GPU
             * could then not load: run it too, as a GPU's driver would */
            const char *as_argv[] = {ptxas, archarg, "-o", "/dev/null", "kernel.ptx", NULL};
            sandbox_result_free(&r);
            if (!sandbox_run(sb, as_argv, &in->limits, OUTPUT_CAP, &r, msg, cap))
                goto fail_ptx;
        }
    }
    if (r.end == SANDBOX_INTERRUPTED) {
        snprintf(msg, cap, "interrupted");
        rc = GRADE_COMPILE_UNAVAILABLE;
        goto fail_ptx;
    }
    if (r.end == SANDBOX_EXITED && r.code == 0) {
        /* .file names the private copy: the submission is "kernel.cu" to
         * the rest of the grader, a header beside it its own name */
        char *fixed = scrub(*ptx, sandbox_dir(sb), NULL, NULL, "kernel.cu", true);
        if (!fixed) {
            snprintf(msg, cap, "out of memory");
            goto fail_ptx;
        }
        free(*ptx);
        *ptx = fixed;
        *len = strlen(fixed);
        rc = GRADE_COMPILED;
        goto done;
    }
    if (r.end == SANDBOX_EXITED && r.code == 127 && !r.output_len) {
        snprintf(msg, cap, "could not run %s", nvcc);
        goto fail_ptx;
    }
    rc = r.end == SANDBOX_TIMED_OUT ? GRADE_COMPILE_TIMED_OUT : GRADE_COMPILE_FAILED;
    keep_log(log, &r, &a, shown, false);
    if (*log) { /* nvcc -ptx runs ptxas itself on some toolkits: its PTX is still there */
        size_t pl = 0;
        char tmp[128];
        char *own = *ptx ? NULL : sandbox_read(sb, "kernel.ptx", SOURCE_MAX_PTX, &pl, tmp, sizeof tmp);
        if (*ptx || own)
            *log = ptxas_on_cu_line(*log, *ptx ? *ptx : own, shown);
        free(own);
    }
    if (r.end != SANDBOX_EXITED) {
        char why[160];
        snprintf(msg, cap, "%s was %s", *ptx ? "ptxas" : "nvcc", sandbox_describe(&r, &in->limits, why, sizeof why));
    }
    if (!*log)
        *log = strdup(*ptx ? "(ptxas failed and wrote no message)\n" : "(nvcc failed and wrote no message)\n");
fail_ptx:
    free(*ptx);
    *ptx = NULL;
done:
    sandbox_result_free(&r);
    sandbox_free(sb);
    return rc;
}

/* Copy line [p, p + n) into buf. */
static void copy_line(const char *p, size_t n, char *buf, size_t cap)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
}

bool grade_compile_first_error(const char *log, char *file, size_t fcap, int *line, int *col, char *emsg,
                               size_t ecap)
{
    *line = *col = 0;
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char l[1024];
        copy_line(p, n, l, sizeof l);
        p = nl ? nl + 1 : NULL;
        /* FILE(LINE): error: MSG  (also "catastrophic error") */
        char *e = strstr(l, "): error: ");
        int skip = 10;
        if (!e) {
            e = strstr(l, "): catastrophic error: ");
            skip = 23;
        }
        char *open = e ? e : NULL;
        while (open && open > l && *open != '(')
            open--;
        if (e && open > l && *open == '(') {
            *open = 0;
            snprintf(file, fcap, "%s", l);
            *line = atoi(open + 1);
            snprintf(emsg, ecap, "%s", e + skip);
            /* nvcc echoes the source line indented, then a caret under the column */
            const char *q = p;
            char echo[1024] = "", caret[1024] = "";
            for (int k = 0; k < 2 && q && *q; k++) {
                const char *qn = strchr(q, '\n');
                copy_line(q, qn ? (size_t)(qn - q) : strlen(q), k ? caret : echo, sizeof echo);
                q = qn ? qn + 1 : NULL;
            }
            const char *c = strchr(caret, '^');
            if (c && strspn(caret, " ") == (size_t)(c - caret) && (size_t)(c - caret) >= 2)
                *col = (int)(c - caret) - 2 + 1; /* nvcc indents its echo by two columns */
            return true;
        }
        /* the preprocessor's form: FILE:LINE:COL: fatal error: MSG */
        char *fe = strstr(l, ": fatal error: ");
        if (fe) {
            char *c2 = fe, *c1;
            *c2 = 0;
            c1 = strrchr(l, ':');
            if (c1) {
                *c1 = 0;
                char *c0 = strrchr(l, ':');
                if (c0) {
                    *c0 = 0;
                    snprintf(file, fcap, "%s", l);
                    *line = atoi(c0 + 1);
                    *col = atoi(c1 + 1);
                    snprintf(emsg, ecap, "%s", fe + 15);
                    return true;
                }
            }
            snprintf(file, fcap, "%s", "");
            snprintf(emsg, ecap, "%s", fe + 2);
            return true;
        }
        if (!strncmp(l, "nvcc fatal", 10) || !strncmp(l, "error:", 6) || !strncmp(l, "ptxas error", 11) ||
            !strncmp(l, "ptxas fatal", 11)) {
            file[0] = 0;
            snprintf(emsg, ecap, "%s", l);
            return true;
        }
    }
    return false;
}
