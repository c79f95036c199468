/* step_input.c: the stepper's command source (step_input.h): libedit's
 * readline on a terminal, plain lines from a script or a pipe.  Built
 * without libedit, a terminal gets a plain prompt (no editing, history or
 * completion) and says once which package brings them. */
#include "step_input.h"

#include "file_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef WARPSIM_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

struct StepInput {
    FILE *f;           /* script or piped stdin; NULL: libedit on the terminal */
    bool own;          /* f was opened here */
    FILE *echo;
    char *line;        /* the last line (malloc'd) */
    size_t cap;
    int lineno;
};

/* ---- tab completion (libedit's readline emulation) ---------------------------- */
#ifdef WARPSIM_HAVE_LIBEDIT

static const char *(*completer)(const char *first, int i);
static char first_word[32];
static bool first_given;

static char *complete_word(const char *text, int state)
{
    static int i;
    if (!state)
        i = 0;
    size_t n = strlen(text);
    for (const char *w; (w = completer(first_given ? first_word : NULL, i)); ) {
        i++;
        if (!strncmp(w, text, n))
            return strdup(w);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    const char *line = rl_line_buffer ? rl_line_buffer : "";
    size_t skip = strspn(line, " \t"), len = strcspn(line + skip, " \t");
    first_given = (size_t)start > skip;
    snprintf(first_word, sizeof first_word, "%.*s", (int)len, line + skip);
    return rl_completion_matches(text, complete_word);
}

#endif

void step_input_set_completer(StepInput *in, const char *(*word)(const char *first, int i))
{
    if (in->f)
        return;
#ifdef WARPSIM_HAVE_LIBEDIT
    completer = word;
    rl_attempted_completion_function = word ? complete : NULL;
#else
    (void)word;
#endif
}

StepInput *step_input_open(const char *script, FILE *echo, char *msg, size_t cap)
{
    StepInput *in = calloc(1, sizeof *in);
    if (!in) {
        snprintf(msg, cap, "out of memory");
        return NULL;
    }
    in->echo = echo;
    if (script) {
        SimError e;
        in->f = file_open_regular(script, STEP_SCRIPT_MAX, "script", &e);
        if (!in->f) {
            snprintf(msg, cap, "cannot open script '%s': %s", script, e.msg);
            free(in);
            return NULL;
        }
        in->own = true;
    } else if (!isatty(STDIN_FILENO)) {
        in->f = stdin;
    }
#ifndef WARPSIM_HAVE_LIBEDIT
    if (!in->f)
        fprintf(stderr, "warpsim step: built without libedit: no line editing, history or tab completion "
                        "(install libedit-dev and rebuild)\n");
#endif
    return in;
}

void step_input_close(StepInput *in)
{
    if (!in)
        return;
    if (in->own)
        fclose(in->f);
    free(in->line);
    free(in);
}

bool step_input_interactive(const StepInput *in) { return !in->f; }
int step_input_line(const StepInput *in) { return in->lineno; }

/* Strip the newline and surrounding blanks in place; returns the start. */
static char *trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

const char *step_input_read(StepInput *in, const char *prompt)
{
    if (!in->f) {
#ifdef WARPSIM_HAVE_LIBEDIT
        free(in->line);
        in->line = readline(prompt);
        if (!in->line)
            return NULL;
        in->lineno++;
        char *t = trim(in->line);
        if (*t)
            add_history(t);
        return t;
#else
        fputs(prompt, stdout);
        fflush(stdout);
        if (getline(&in->line, &in->cap, stdin) < 0)
            return NULL;
        in->lineno++;
        return trim(in->line);
#endif
    }
    for (;;) {
        ssize_t n = getline(&in->line, &in->cap, in->f);
        if (n < 0)
            return NULL;
        in->lineno++;
        if (memchr(in->line, 0, (size_t)n)) { /* a binary file: never a command */
            if (in->echo)
                fprintf(in->echo, "%s<line %d holds a NUL byte>\n", prompt, in->lineno);
            return "<binary>";
        }
        char *t = trim(in->line);
        if (!*t) /* blank lines in a script mean nothing */
            continue;
        if (in->echo) {
            fprintf(in->echo, "%s%s\n", prompt, t);
            fflush(in->echo);
        }
        return t;
    }
}

int step_input_drain(StepInput *in)
{
    if (!in->f)
        return 0;
    int n = 0;
    while (getline(&in->line, &in->cap, in->f) >= 0) {
        char *t = trim(in->line);
        if (*t && *t != '#')
            n++;
    }
    return n;
}
