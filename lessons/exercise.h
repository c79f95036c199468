/* exercise.h: the exercises the lessons set, and what their definitions
 * share.  Each lesson with a graded exercise defines one GradeExercise
 * (the grader's contract, grade/grade_exercise.h) in
 * lessons/NN-topic/exercise/grade.c: its tests, inputs, reference check and
 * rubric.  The lesson registry (lesson.h) points at it, and `warpsim grade`
 * hands it to the grader (grade/grade.h): lessons sit above the grader and
 * supply to it, never the other way round. */
#ifndef WARPSIM_EXERCISE_H
#define WARPSIM_EXERCISE_H

#include "grade_exercise.h"

/* Blocks of `block` threads that cover n elements: ceil(n / block); 1 when
 * n <= 0 or block is 0 (a launch needs a block). */
unsigned exercise_blocks_for(long long n, unsigned block);

/* The exercises (lessons/NN-topic/exercise/grade.c). */
extern const GradeExercise lesson01_exercise;
extern const GradeExercise lesson02_exercise;
extern const GradeExercise lesson03_exercise;
extern const GradeExercise lesson04_exercise;
extern const GradeExercise lesson05_exercise;
extern const GradeExercise lesson06_exercise;
extern const GradeExercise lesson07_exercise;
extern const GradeExercise lesson08_exercise;
extern const GradeExercise lesson09_exercise;
extern const GradeExercise lesson10_exercise;
extern const GradeExercise lesson11_exercise;
extern const GradeExercise lesson12_exercise;
extern const GradeExercise lesson13_exercise;
extern const GradeExercise lesson14_exercise;

#endif
