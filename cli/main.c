/* main.c: the warpsim command, git-style: `warpsim SUBCOMMAND ARGS...`.
 * Only dispatch lives here; each subcommand is a cli/cmd_*.c file. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#ifndef WARPSIM_VERSION
#define WARPSIM_VERSION "unknown"
#endif

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} Subcommand;

static const Subcommand subcommands[] = {
    {"lesson", cmd_lesson, "run a lesson's kernels in the simulator and explain them"},
    {"run", cmd_run, "run any kernel (.ptx or .cu) in the simulator"},
    {"explore", cmd_explore, "run a kernel under many schedules and atomic orders; count the results"},
    {"step", cmd_step, "run a kernel paused before each warp instruction: step, break, print, where"},
    {"occupancy", cmd_occupancy, "predict blocks per SM, limiters and the L1/shared carveout"},
    {"xcheck", cmd_xcheck, "compare the simulator with a GPU (or its recording) on every lesson"},
    {"grade", cmd_grade, "grade a student's kernel against a lesson's exercise (tests, races, rubric)"},
    {"trace", cmd_trace, "print a trace (run --trace) as text or export it for Perfetto"},
    {"viz", cmd_viz, "watch a trace: blocks on SMs, warps, banks, atomics (window or --png)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: warpsim SUBCOMMAND [ARGS...]\n\n"
               "warpsim runs real CUDA kernels (their PTX) in a simulator of NVIDIA GPUs.\n\n"
               "subcommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof *subcommands; i++)
        fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(f, "\n`warpsim SUBCOMMAND --help` explains each one.  Start with `warpsim lesson 1`.\n"
               "`warpsim --version` prints the version.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("warpsim %s\n", WARPSIM_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof *subcommands; i++)
        if (!strcmp(argv[1], subcommands[i].name))
            return subcommands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "warpsim: unknown subcommand '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
