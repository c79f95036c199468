/* exercise.c: the arithmetic every exercise definition shares -- scores,
 * block counts, instruction budgets and rubric units (exercise.h). */
#include "exercise.h"

int exercise_max_score(const Exercise *e)
{
    int s = 0;
    for (int i = 0; i < e->ntests; i++)
        s += e->tests[i].points;
    for (int i = 0; i < e->nrubric; i++)
        s += e->rubric[i].points;
    return s;
}

unsigned exercise_blocks_for(long long n, unsigned block)
{
    if (n <= 0 || block == 0)
        return 1;
    return (unsigned)((n + block - 1) / block);
}

static uint64_t launch_warps(const ExerciseLaunch *l)
{
    uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    uint64_t blocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    return blocks * ((threads + 31) / 32);
}

uint64_t exercise_budget(const Exercise *e, const ExerciseLaunch *l)
{
    return launch_warps(l) * e->budget_per_warp + EXERCISE_BUDGET_BASE;
}

uint64_t exercise_rubric_units(const ExerciseRubric *r, const ExerciseTest *t, const ExerciseLaunch *l)
{
    switch (r->per) {
    case EXERCISE_PER_ELEMENT:
        return t->n > 0 ? (uint64_t)t->n : 0;
    case EXERCISE_PER_BLOCK:
        return (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    case EXERCISE_PER_LAUNCH:
        return 1;
    }
    return 1;
}

const char *exercise_rubric_kind_name(ExerciseRubricKind k)
{
    switch (k) {
    case EXERCISE_RUBRIC_NO_RACES:
        return "no-races";
    case EXERCISE_RUBRIC_MAX_ATOMICS:
        return "max-atomics";
    case EXERCISE_RUBRIC_MIN_OCCUPANCY:
        return "min-occupancy";
    }
    return "?";
}
