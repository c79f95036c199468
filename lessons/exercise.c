/* exercise.c: what the lessons' exercise definitions share (exercise.h):
 * the arithmetic of a launch that covers n elements.  The exercises
 * themselves are in lessons/NN-topic/exercise/grade.c. */
#include "exercise.h"

unsigned exercise_blocks_for(long long n, unsigned block)
{
    if (n <= 0 || block == 0)
        return 1;
    return (unsigned)((n + block - 1) / block);
}
