/* grade_exercise.c: the arithmetic of an exercise (grade_exercise.h) --
 * whether one can be graded at all, its points, the instruction budget of a
 * launch and the units of an atomics rubric.  A leaf: it calls no other
 * file of the grader. */
#include "grade_exercise.h"

#include <stdio.h>

static bool fail(char *msg, size_t cap, const char *why, const char *name)
{
    snprintf(msg, cap, "the exercise %s%s%s", name ? name : "", name ? ": " : "", why);
    return false;
}

bool grade_exercise_valid(const GradeExercise *e, char *msg, size_t cap)
{
    if (!e)
        return fail(msg, cap, "is missing (NULL)", NULL);
    if (!e->kernel || !*e->kernel)
        return fail(msg, cap, "names no kernel", NULL);
    const char *k = e->kernel;
    if (!e->lesson || !*e->lesson)
        return fail(msg, cap, "names no lesson that set it", k);
    if (!e->signature || !e->arch || !*e->arch)
        return fail(msg, cap, !e->arch || !*e->arch ? "has no arch" : "has no signature", k);
    if (e->ntests < 1 || e->ntests > GRADE_MAX_TESTS || !e->tests)
        return fail(msg, cap, e->ntests < 1 ? "has no tests" : !e->tests ? "has no test array" : "has more than "
                                                                                                  "64 tests", k);
    if (e->nparams < 0 || e->nparams > GRADE_MAX_PARAMS || (e->nparams && !e->params))
        return fail(msg, cap, e->nparams > GRADE_MAX_PARAMS ? "has more than 8 parameters" : "has no parameter "
                                                                                              "array", k);
    if (e->nrubric < 0 || (e->nrubric && !e->rubric))
        return fail(msg, cap, "has no rubric array", k);
    if (!e->launch || !e->check)
        return fail(msg, cap, !e->launch ? "has no launch()" : "has no check()", k);
    for (int i = 0; i < e->ntests; i++)
        if (!e->tests[i].name || e->tests[i].points < 0)
            return fail(msg, cap, "has a test with no name or negative points", k);
    for (int i = 0; i < e->nrubric; i++)
        if (!e->rubric[i].name || e->rubric[i].points < 0 || (unsigned)e->rubric[i].kind > GRADE_RUBRIC_MAX_CYCLES ||
            (unsigned)e->rubric[i].per > GRADE_PER_LAUNCH)
            return fail(msg, cap, "has a rubric item with no name, negative points, or an unknown kind or unit", k);
    return true;
}

int grade_exercise_max_score(const GradeExercise *e)
{
    int s = 0;
    for (int i = 0; i < e->ntests; i++)
        s += e->tests[i].points;
    for (int i = 0; i < e->nrubric; i++)
        s += e->rubric[i].points;
    return s;
}

static uint64_t launch_warps(const GradeLaunch *l)
{
    uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    uint64_t blocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    return blocks * ((threads + 31) / 32);
}

uint64_t grade_exercise_budget(const GradeExercise *e, const GradeLaunch *l)
{
    return launch_warps(l) * e->budget_per_warp + GRADE_BUDGET_BASE;
}

uint64_t grade_rubric_units(const GradeRubric *r, const GradeExerciseTest *t, const GradeLaunch *l)
{
    switch (r->per) {
    case GRADE_PER_ELEMENT:
        return t->n > 0 ? (uint64_t)t->n : 0;
    case GRADE_PER_BLOCK:
        return (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    case GRADE_PER_LAUNCH:
        return 1;
    }
    return 1;
}

const char *grade_rubric_kind_name(GradeRubricKind k)
{
    switch (k) {
    case GRADE_RUBRIC_NO_RACES:
        return "no-races";
    case GRADE_RUBRIC_MAX_ATOMICS:
        return "max-atomics";
    case GRADE_RUBRIC_MIN_OCCUPANCY:
        return "min-occupancy";
    case GRADE_RUBRIC_MAX_CYCLES:
        return "max-cycles";
    }
    return "?";
}

bool grade_exercise_timed(const GradeExercise *e)
{
    for (int k = 0; k < e->nrubric; k++)
        if (e->rubric[k].kind == GRADE_RUBRIC_MAX_CYCLES)
            return true;
    return false;
}
