/* conformance_known.h: the conformance suite's known differences from the
 * H100 (tests/test_conformance.c): {PTX file, kernel, differing elements or
 * K_REFUSED / K_FAULT, why}.  Every count is exact: a change either way
 * fails the test until this table says so. */

/* The special function unit and ptxas's contraction used to be the
 * differences here (2,449 elements in six kernels); since sim/alu_sfu.c and
 * sim/contract.c every one of those kernels matches the H100 bit for bit. */
