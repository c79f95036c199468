/* conformance_known.h: the conformance suite's known differences from the
 * H100 (tests/test_conformance.c): {PTX file, kernel, differing elements or
 * K_REFUSED / K_FAULT, why}.  Every count is exact: a change either way
 * fails the test until this table says so. */

/* special function unit (ex2/lg2/sin/cos/rsqrt/rcp .approx, div.approx):
 * the simulator computes correctly rounded values; another helper ports the
 * hardware's algorithm (issue 14, point 3) */
{"numeric.ptx", "float_math", 91, "special function unit: expf/logf/powf/tanhf/erff use ex2/lg2 .approx"},
{"numeric.ptx", "fast_math", 914, "special function unit: __expf/__logf/__sinf/__cosf/__fdividef/rsqrtf"},
{"numeric_fast.ptx", "float_math", 1143, "special function unit: --use_fast_math turns the math library into .approx"},
{"half.ptx", "half_special", 336, "special function unit: ex2.approx / tanh.approx of f16 and bf16 are computed "
                                  "through the f32 forms"},
{"numeric_fast.ptx", "fast_math", 914, "special function unit: __expf/__logf/__sinf/__cosf/__fdividef/rsqrtf"},
/* ptxas contraction (issue 14, point 4) */
{"algo.ptx", "float4_saxpy", 51, "ptxas fuses mul.f32 and sub.f32 without rounding modifiers into one FFMA"},
/* not supported yet: refused at launch with the instruction and its line */
{"misc.ptx", "cluster_exchange", K_REFUSED, "thread block clusters: barrier.cluster, mapa, distributed shared memory"},
