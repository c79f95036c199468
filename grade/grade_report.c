/* grade_report.c: writing a grading -- text for a terminal (each finding
 * with its source line, a marker and the commands that replay it), JSON,
 * and Gradescope's results.json (grade.h).  It reads a finished GradeReport
 * only, and calls no other file of the grader. */
#include "grade.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


typedef struct {
    const char *pass, *fail, *dim, *off;
} Colors;

static Colors colors_for(FILE *f)
{
    bool on = isatty(fileno(f)) && !getenv("NO_COLOR");
    return on ? (Colors){"\033[32m", "\033[31m", "\033[2m", "\033[0m"} : (Colors){"", "", "", ""};
}

/* ---- text that came from a submission ------------------------------------------ */

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 when the
 * bytes there are not one (a stray continuation, an overlong form, a
 * surrogate, past U+10FFFF, cut short). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (!k || k > n || s[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
        (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return k;
}

/* n bytes of s for a terminal: control characters (an ANSI escape's ESC,
 * a carriage return) and bytes that are not UTF-8 written as \xNN, a tab
 * as a space, a newline kept only when newlines is set. */
static void text_n(FILE *o, const char *s, size_t n, bool newlines)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len(p + i, n - i);
        if (p[i] == '\n' && newlines)
            fputc('\n', o);
        else if (p[i] == '\t')
            fputc(' ', o);
        else if (!k || p[i] < 0x20 || p[i] == 0x7f)
            fprintf(o, "\\x%02x", p[i]);
        else if (k == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) /* C1 controls (U+0080..U+009F) */
            fprintf(o, "\\x%02x\\x%02x", p[i], p[i + 1]);
        else
            fwrite(p + i, 1, k, o);
        i += k ? k : 1;
    }
}

static void text(FILE *o, const char *s) { text_n(o, s, strlen(s), false); }

/* A JSON string of s: always valid UTF-8 (a byte that is not becomes
 * U+FFFD), control characters escaped. */
static void json_str(FILE *o, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    fputc('"', o);
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len(p + i, n - i);
        if (!k)
            fputs("\\ufffd", o);
        else if (p[i] == '"' || p[i] == '\\')
            fprintf(o, "\\%c", p[i]);
        else if (p[i] == '\n')
            fputs("\\n", o);
        else if (p[i] == '\t')
            fputs("\\t", o);
        else if (p[i] < 0x20 || p[i] == 0x7f)
            fprintf(o, "\\u%04x", p[i]);
        else
            fwrite(p + i, 1, k, o);
        i += k ? k : 1;
    }
    fputc('"', o);
}

/* Line `line` (1-based) of text, as [*start, *start + *len). */
static bool find_line(const char *text, size_t n, int line, const char **start, size_t *len)
{
    if (!text || line < 1)
        return false;
    const char *p = text, *end = text + n;
    for (int l = 1; l < line; l++) {
        p = memchr(p, '\n', (size_t)(end - p));
        if (!p)
            return false;
        p++;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *start = p;
    *len = (size_t)((nl ? nl : end) - p);
    return true;
}

/* The source line of f with a marker under it: a caret at the column when
 * it is known, else the line's text underlined. */
static void show_source(FILE *o, const GradeReport *r, const GradeFinding *f, const char *indent)
{
    /* only the submission's own text, as read before its compile: never a
     * file a #line or an #include named (/etc/passwd, /dev/stdin) */
    if (!f->line || !r->source || strcmp(f->file, r->student))
        return;
    const char *s;
    size_t len;
    if (find_line(r->source, r->source_len, f->line, &s, &len)) {
        if (len > 200)
            len = 200;
        fprintf(o, "%s%5d | ", indent, f->line);
        text_n(o, s, len, false);
        fprintf(o, "\n%s      | ", indent);
        size_t from = 0, to = len;
        while (from < len && (s[from] == ' ' || s[from] == '\t'))
            from++;
        while (to > from && (s[to - 1] == ' ' || s[to - 1] == '\t' || s[to - 1] == '\r'))
            to--;
        if (f->col > 0 && (size_t)f->col <= len + 1) {
            from = (size_t)f->col - 1;
            to = from + 1;
        }
        for (size_t i = 0; i < from; i++)
            fputc(' ', o);
        for (size_t i = from; i < to; i++)
            fputc(i == from ? '^' : '~', o);
        fputc('\n', o);
    }
}

static void dim3(FILE *o, DeviceDim3 d)
{
    fprintf(o, "(%u,%u,%u)", d.x, d.y, d.z);
}

static void write_finding_text(FILE *o, const GradeReport *r, const GradeFinding *f, int i)
{
    const GradeExercise *ex = r->ex;
    fprintf(o, "  %d. %s", i + 1, f->kind);
    if (*f->detail)
        fprintf(o, " (%s)", f->detail);
    if (!strcmp(f->kind, "wrong-answer") || !strcmp(f->kind, "signature"))
        fprintf(o, ": %s%s", ex->kernel, f->line ? ", declared" : ""); /* no line of its own */
    if (*f->file)
        fputs(" at ", o), text(o, f->file);
    if (f->line)
        fprintf(o, ":%d", f->line);
    if (f->col)
        fprintf(o, ":%d", f->col);
    if (!strcmp(f->backend, "gpu"))
        fprintf(o, ", on the GPU");
    if (f->count > 1) {
        int tests = __builtin_popcountll(f->tests_mask);
        fprintf(o, " -- %d times, in %d test%s", f->count, tests, tests == 1 ? "" : "s");
    }
    fputs("\n     ", o);
    text(o, f->msg);
    fputc('\n', o);
    show_source(o, r, f, "     ");
    if (f->has_thread) {
        fprintf(o, "     block ");
        dim3(o, f->block);
        fprintf(o, " thread ");
        dim3(o, f->thread);
        if (*f->op)
            fprintf(o, " (%s)", f->op);
        if (f->has_other) {
            fprintf(o, "; before it: block ");
            dim3(o, f->other_block);
            fprintf(o, " thread ");
            dim3(o, f->other_thread);
            if (*f->other_op)
                fprintf(o, " (%s)", f->other_op);
            if (f->other_line)
                fprintf(o, " at line %d", f->other_line);
        }
        fputc('\n', o);
    }
    if (f->test >= 0) {
        fprintf(o, "     first seen in test \"%s\"", ex->tests[f->test].name);
        if (f->run == 0)
            fprintf(o, ", run 0 (default schedule and atomic order)");
        else if (f->run > 0)
            fprintf(o, ", run %d (schedule %s, atomic order %s, seed %" PRIu64 ")", f->run,
                    device_schedule_name(f->schedule), device_atomic_order_name(f->atomic_order), f->seed);
        fputc('\n', o);
    }
    if (*f->replay)
        fputs("     replay: ", o), text(o, f->replay), fputc('\n', o);
    if (*f->step)
        fputs("     step:   ", o), text(o, f->step), fputc('\n', o);
    if (!strcmp(f->kind, "compile-error") && r->compiler_output) {
        fprintf(o, "     the compiler said:\n");
        for (const char *p = r->compiler_output; *p;) {
            const char *nl = strchr(p, '\n');
            int n = nl ? (int)(nl - p) : (int)strlen(p);
            fputs("       ", o), text_n(o, p, (size_t)n, false), fputc('\n', o);
            p = nl ? nl + 1 : p + n;
        }
    }
    if (!strcmp(f->kind, "signature") && ex->readme)
        fprintf(o, "     the exercise: %s\n", ex->readme);
}

static void write_items(FILE *o, const GradeReport *r, bool rubric, Colors c)
{
    fprintf(o, "%s\n", rubric ? "Rubric" : "Tests");
    for (int i = 0; i < r->nitems; i++) {
        const GradeItem *it = &r->items[i];
        if (it->rubric != rubric)
            continue;
        const char *name = rubric ? it->name + strlen("rubric: ") : it->name;
        fprintf(o, "  %s%s%s %3d/%-3d %s\n", it->passed ? c.pass : c.fail, it->passed ? "PASS" : "FAIL", c.off,
                it->score, it->max_score, name);
        if ((it->passed && !rubric) || !r->compiled)
            continue; /* "correct in all 8 runs" says nothing new; "not run" is said below */
        for (const char *p = it->output; *p;) {
            const char *nl = strchr(p, '\n');
            int n = nl ? (int)(nl - p) : (int)strlen(p);
            fprintf(o, "               %s", c.dim);
            text_n(o, p, (size_t)n, false);
            fprintf(o, "%s\n", c.off);
            p = nl ? nl + 1 : p + n;
        }
    }
}

static void write_findings_text(FILE *o, const GradeReport *r)
{
    if (!r->nfindings)
        return;
    fprintf(o, "\nFindings\n");
    for (int i = 0; i < r->nfindings; i++) {
        if (i)
            fputc('\n', o);
        write_finding_text(o, r, &r->findings[i], i);
    }
}

static void write_text(FILE *o, const GradeReport *r, Colors c)
{
    const GradeExercise *ex = r->ex;
    fprintf(o, "warpsim grade: lesson %d (%s), exercise %s\n", ex->lesson_number, ex->lesson, ex->kernel);
    fputs("submission ", o);
    text(o, r->student);
    fprintf(o, ", graded on %s", ex->arch);
    if (r->compiled) {
        fprintf(o, ", %d run%s per test", r->runs, r->runs == 1 ? "" : "s");
        if (r->runs > 1)
            fprintf(o, " (run 0: default schedule; run 1: adversarial%s)",
                    r->runs > 2 ? "; others: random, seeded" : "");
    }
    fprintf(o, "\n");
    if (r->gpu_requested)
        fputs("GPU: ", o), text(o, r->gpu_note[0] ? r->gpu_note : "did not run"), fputc('\n', o);
    fputc('\n', o);
    write_items(o, r, false, c);
    write_items(o, r, true, c);
    write_findings_text(o, r);
    int failed = 0;
    for (int i = 0; i < r->nitems; i++)
        failed += !r->items[i].rubric && !r->items[i].passed;
    fprintf(o, "\nScore: %d/%d -- %s%s%s", r->score, r->max_score, r->passed ? c.pass : c.fail,
            r->passed ? "PASSED" : "FAILED", c.off);
    if (!r->compiled)
        fprintf(o, ": the file does not compile");
    else if (failed)
        fprintf(o, ": %d of %d tests failed", failed, ex->ntests);
    else
        fprintf(o, ": every test passed");
    fprintf(o, " (%.1f s)\n", r->seconds);
}

void grade_write_text(FILE *f, const GradeReport *r)
{
    write_text(f, r, colors_for(f));
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_dim3(FILE *o, bool known, DeviceDim3 d)
{
    if (known)
        fprintf(o, "[%u, %u, %u]", d.x, d.y, d.z);
    else
        fputs("null", o);
}

static void json_int_or_null(FILE *o, bool known, long long v)
{
    if (known)
        fprintf(o, "%lld", v);
    else
        fputs("null", o);
}

static void json_str_or_null(FILE *o, const char *s)
{
    if (s && *s)
        json_str(o, s);
    else
        fputs("null", o);
}

static void json_finding(FILE *o, const GradeReport *r, const GradeFinding *f)
{
    fputs("{\"kind\": ", o);
    json_str(o, f->kind);
    fputs(", \"detail\": ", o);
    json_str_or_null(o, f->detail);
    fputs(", \"file\": ", o);
    json_str_or_null(o, f->file);
    fputs(", \"line\": ", o);
    json_int_or_null(o, f->line > 0, f->line);
    fputs(", \"column\": ", o);
    json_int_or_null(o, f->col > 0, f->col);
    fputs(", \"message\": ", o);
    json_str(o, f->msg);
    fputs(", \"backend\": ", o);
    json_str_or_null(o, f->backend);
    fputs(", \"block\": ", o);
    json_dim3(o, f->has_thread, f->block);
    fputs(", \"thread\": ", o);
    json_dim3(o, f->has_thread, f->thread);
    if (f->has_other) {
        fputs(", \"other\": {\"block\": ", o);
        json_dim3(o, true, f->other_block);
        fputs(", \"thread\": ", o);
        json_dim3(o, true, f->other_thread);
        fputs(", \"line\": ", o);
        json_int_or_null(o, f->other_line > 0, f->other_line);
        fputs(", \"op\": ", o);
        json_str_or_null(o, f->other_op);
        fputs("}", o);
    }
    fputs(", \"test\": ", o);
    if (f->test >= 0)
        json_str(o, r->ex->tests[f->test].name);
    else
        fputs("null", o);
    fputs(", \"run\": ", o);
    json_int_or_null(o, f->run >= 0, f->run);
    fputs(", \"schedule\": ", o);
    json_str_or_null(o, f->run >= 0 ? device_schedule_name(f->schedule) : NULL);
    fputs(", \"atomic_order\": ", o);
    json_str_or_null(o, f->run >= 0 ? device_atomic_order_name(f->atomic_order) : NULL);
    fputs(", \"seed\": ", o);
    json_int_or_null(o, f->run >= 0, (long long)f->seed);
    fprintf(o, ", \"count\": %d, \"tests\": %d", f->count, __builtin_popcountll(f->tests_mask));
    fputs(", \"replay\": ", o);
    json_str_or_null(o, f->replay);
    fputs(", \"step\": ", o);
    json_str_or_null(o, f->step);
    if (!strcmp(f->kind, "compile-error")) {
        fputs(", \"compiler_output\": ", o);
        json_str_or_null(o, r->compiler_output);
    }
    fputc('}', o);
}

void grade_write_json(FILE *o, const GradeReport *r)
{
    fputs("{\"lesson\": ", o);
    json_str(o, r->ex->lesson);
    fprintf(o, ", \"passed\": %s, \"score\": %d, \"max_score\": %d, \"tests\": [", r->passed ? "true" : "false",
            r->score, r->max_score);
    for (int i = 0; i < r->nitems; i++) {
        const GradeItem *it = &r->items[i];
        fprintf(o, "%s{\"name\": ", i ? ", " : "");
        json_str(o, it->name);
        fprintf(o, ", \"passed\": %s, \"score\": %d, \"max_score\": %d, \"output\": ", it->passed ? "true" : "false",
                it->score, it->max_score);
        json_str(o, it->output);
        fputc('}', o);
    }
    fputs("], \"findings\": [", o);
    for (int i = 0; i < r->nfindings; i++) {
        if (i)
            fputs(", ", o);
        json_finding(o, r, &r->findings[i]);
    }
    fputc(']', o);
    if (r->gpu_requested) {
        fprintf(o, ", \"gpu\": {\"ran\": %s, \"note\": ", r->gpu_ran ? "true" : "false");
        json_str(o, r->gpu_note);
        fputc('}', o);
    }
    fputs("}\n", o);
}

/* ---- Gradescope --------------------------------------------------------------- */

void grade_write_gradescope(FILE *o, const GradeReport *r)
{
    /* the top-level output is the text report's findings and score, no colour */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        if (r->gpu_requested)
            fprintf(m, "GPU: %s\n", r->gpu_note[0] ? r->gpu_note : "did not run");
        fprintf(m, "Score: %d/%d -- %s\n", r->score, r->max_score, r->passed ? "PASSED" : "FAILED");
        if (!r->nfindings)
            fprintf(m, "No findings: no race, fault, out-of-bounds access or wrong answer in any run.\n");
        write_findings_text(m, r);
        fclose(m);
    }
    fprintf(o, "{\"score\": %d, \"output\": ", r->score);
    json_str(o, text ? text : "");
    fputs(", \"tests\": [", o);
    for (int i = 0; i < r->nitems; i++) {
        const GradeItem *it = &r->items[i];
        fprintf(o, "%s{\"name\": ", i ? ", " : "");
        json_str(o, it->name);
        fprintf(o, ", \"score\": %d, \"max_score\": %d, \"status\": \"%s\", \"output\": ", it->score, it->max_score,
                it->passed ? "passed" : "failed");
        json_str(o, it->output);
        fputs(", \"visibility\": \"visible\"}", o);
    }
    fputs("]}\n", o);
    free(text);
}
