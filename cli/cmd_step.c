/* cmd_step.c: `warpsim step` -- `warpsim run`'s launch, paused before its
 * first warp instruction, then driven from a prompt (or a --script) with
 * cuda-gdb's words: step, next, continue, break, focus, info, print, where,
 * viz.  The stepper itself is the library step/ (step.h); this file parses
 * the command line, loads the kernel, gives the stepper its commands from
 * the terminal, a script or stdin (step_input.h), catches Ctrl-C while the
 * launch runs, and says how the launch ended. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "cmd.h"
#include "lesson.h"
#include "device.h"
#include "launch.h"
#include "report.h"
#include "source.h"
#include "step.h"
#include "step_input.h"
#include "trace.h"

static const char step_help[] =
    "usage: warpsim step FILE --kernel NAME --grid X[,Y[,Z]] [--block X[,Y[,Z]]] [--arg SPEC]...\n"
    "                    [--smem BYTES] [--arch sm_90 | --gpu NAME] [--script FILE]\n"
    "                    [--schedule S] [--atomic-order A] [--divergence D] [--seed N] [--budget N]\n"
    "\n"
    "Runs one kernel in the simulator, as `warpsim run` does (the same arguments), but\n"
    "pauses before its first warp instruction and lets you drive it from a prompt\n"
    "(without --block, the kernel's __launch_bounds__ give the block, as for run):\n"
    "\n"
    "  step [N]          run until the focus warp has issued one instruction (N)\n"
    "  next [N]          run until the focus warp reaches another .cu line\n"
    "  next tile [N]     a tile kernel: run to the focus warp's next tile operation\n"
    "  continue          run until a breakpoint, or to the end\n"
    "  break LINE        stop when any warp enters that .cu line (FILE:LINE too); delete [ID]\n"
    "  focus block B warp W | focus thread T   pick the warp to follow\n"
    "  info warps|lanes|blocks|sms|barriers|breakpoints|registers\n"
    "  print %%r5         a register in every lane of the focus warp, equal values grouped\n"
    "  print global ADDR [N] [TYPE]   memory (ADDR: 0x..., %%rd3, argK, argK[I]); shared too\n"
    "  where             the .cu line, the PTX instruction and the active mask\n"
    "  viz [VIEW]        the visualizer at this cycle; help; quit\n"
    "\n"
    "Commands come from the terminal (line editing and history), from --script FILE,\n"
    "or from stdin when it is not a terminal; outside a terminal each command is echoed\n"
    "after the prompt.  The end of input quits.  When the launch ends, warpsim says how\n"
    "(finished, faulted, stopped) and what the buffers hold.  With --timing, every stop\n"
    "shows the modelled cycle and the focus warp's state (issuing, or stalled:\n"
    "long_scoreboard, ...), and info warps shows each warp's.\n"
    "\n"
    "  --script FILE  read the commands from FILE (one per line, # starts a comment)\n"

    "%s"
    "\n"
    "A launch that faults is replayed (the simulator is deterministic) and stopped just\n"
    "before the instruction that faulted, so you can look at what it was about to do.\n"
    "\n"
    "Exit status: 0 the launch finished or you quit, 1 the kernel faulted (or --check\n"
    "races found something), 2 bad usage,\n"
    "bad input, or a scripted command that failed (unknown, bad arguments).\n"
    "\n"
    "example (lesson 1's race: watch one warp's 32 updates of out[0] become one):\n"
    "  warpsim step lessons/01-threads-and-races/kernel.ptx --kernel racy_sum --grid 4 --block 256 \\\n"
    "      --arg buf:i32[1000]=fill:1 --arg buf:i32[1]=fill:0 --arg i32:1000\n"
    "  (warpsim) break 26\n"
    "  (warpsim) continue\n"
    "  (warpsim) step 4\n"
    "  (warpsim) print %%r7\n";

static int usage_error(const char *fmt, const char *a)
{
    return cmd_usage("step", fmt, a);
}

/* ---- the terminal side of the stepper ------------------------------------- */

static const char *read_command(void *user, const char *prompt) { return step_input_read(user, prompt); }

/* Ctrl-C while the launch runs stops it at the next instruction; at the
 * prompt it does what it always does. */
static Stepper *volatile running_stepper;
static void on_sigint(int sig)
{
    (void)sig;
    if (running_stepper)
        step_interrupt(running_stepper);
}

static void running(void *user, Stepper *s, bool on)
{
    if (!step_input_interactive(user))
        return;
    running_stepper = on ? s : NULL;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? on_sigint : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

/* What each buffer holds after the launch: its spec, then its elements
 * (the first 8 and the last). */
static void print_buffers(const LaunchSpec *spec, const LaunchResult *r)
{
    for (int b = 0; b < r->nbufs; b++) {
        const LaunchBuffer *lb = &r->bufs[b];
        if (!lb->data)
            continue;
        int sz = argspec_type_size(lb->type);
        printf("arg%d (%s) holds:", lb->arg, spec->args[lb->arg].text);
        char t[64];
        for (uint64_t k = 0; k < lb->count && k < 8; k++) {
            argspec_format_text(lb->type, lb->data + k * (uint64_t)sz, t, sizeof t);
            printf(" %s", t);
        }
        if (lb->count > 8) {
            argspec_format_text(lb->type, lb->data + (lb->count - 1) * (uint64_t)sz, t, sizeof t);
            printf(" ... %s", t);
        }
        printf("\n");
    }
}

/* A fault at one instruction of one lane, which a replay can stop before
 * (not a deadlock or the budget, which no single instruction causes). */
static bool replayable(const DeviceFault *f)
{
    return f->warp >= 0 && f->lane >= 0 && f->ptx_line > 0 && strcmp(f->kind, "deadlock") &&
           strcmp(f->kind, "budget-exceeded") && strcmp(f->kind, "stopped");
}

int cmd_step(int argc, char **argv)
{
    const char *file = NULL, *arch = "sm_90", *script = NULL;
    LaunchSpec spec;
    int rc = 2;
    char msg[1024];
    launch_spec_init(&spec);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf(step_help, launch_sched_help);
            rc = 0;
            goto done;
        }
        LaunchOpt o = launch_parse_option(&spec, argc, argv, &i, msg, sizeof msg);
        if (o == LAUNCH_OPT_TAKEN) {
            continue;
        } else if (o == LAUNCH_OPT_USAGE) {
            rc = usage_error("%s", msg);
            goto done;
        } else if (o == LAUNCH_OPT_BADSPEC) {
            fprintf(stderr, "warpsim step: %s\n", msg);
            goto done;
        } else if ((!strcmp(a, "--arch") || !strcmp(a, "--gpu")) && has_val) {
            arch = argv[++i];
        } else if (!strcmp(a, "--script") && has_val) {
            script = argv[++i];
        } else if (!strcmp(a, "--backend") && has_val) {
            if (strcmp(argv[++i], "sim")) {
                rc = usage_error("--backend '%s': the stepper pauses the simulator; a GPU cannot be paused "
                                 "between instructions", argv[i]);
                goto done;
            }
        } else if (!strcmp(a, "--json") || !strcmp(a, "--trace")) {
            rc = usage_error("%s is an option of warpsim run, not of warpsim step (viz makes a trace)", a);
            goto done;
        } else if (!launch_take_file(a, has_val, &file, msg, sizeof msg)) {
            rc = usage_error("%s", msg);
            goto done;
        }
    }
    spec.block_optional = true; /* a tile kernel's __launch_bounds__ gives it */
    if (!launch_check_complete(file, &spec, msg, sizeof msg)) {
        rc = usage_error("%s", msg);
        goto done;
    }

    SimError err;
    sim_error_clear(&err);
    Device *dev = device_open_sim(arch, &err);
    if (!dev) {
        fprintf(stderr, "warpsim step: %s\n", err.msg);
        goto done;
    }
    size_t len = 0;
    char inc[4096]; /* #include "tile.cuh" from the lessons' headers */
    char *ptx = source_load_ptx_inc(file, device_arch(dev), lesson_include_dir(inc, sizeof inc), &len, msg, sizeof msg);
    DeviceModule *mod = NULL;
    StepInput *in = NULL;
    Stepper *s = NULL, *s1 = NULL, *s2 = NULL;
    LaunchResult res, res2;
    memset(&res, 0, sizeof res);
    memset(&res2, 0, sizeof res2);
    if (!ptx) {
        fprintf(stderr, "%s\n", msg);
        goto close;
    }
    if (device_load_ptx(dev, file, ptx, len, &mod, &err)) {
        report_error(stderr, &err, ptx, len);
        goto close;
    }
    if (!launch_resolve_block(mod, &spec, msg, sizeof msg)) {
        fprintf(stderr, "warpsim step: %s\n", msg);
        rc = 2;
        goto close;
    }
    if (!(in = step_input_open(script, stdout, msg, sizeof msg))) {
        fprintf(stderr, "warpsim step: %s\n", msg);
        goto close;
    }
    step_input_set_completer(in, step_command_word);
    StepConfig cfg = {.file = file, .ptx_path = file, .arch = device_arch(dev), .ptx = ptx, .ptx_len = len,
                      .spec = &spec, .argc = argc, .argv = argv, .read = read_command, .running = running,
                      .user = in, .interactive = step_input_interactive(in), .out = stdout};
    if (!(s1 = s = step_new(&cfg))) {
        fprintf(stderr, "warpsim step: out of memory\n");
        goto close;
    }
    spec.on_issue = step_on_issue;
    spec.on_issue_user = s;
    printf("warpsim step: %s<<<(%u,%u,%u), (%u,%u,%u), %lu>>> on %s (simulator, %s schedule)\n", spec.kernel,
           spec.grid.x, spec.grid.y, spec.grid.z, spec.block.x, spec.block.y, spec.block.z, spec.smem,
           device_arch(dev), device_schedule_name(spec.schedule));
    fflush(stdout);
    SimStatus st = launch_run(dev, mod, &spec, &res, msg, sizeof msg);
    if (st && st != SIM_ERR_FAULT) {
        fprintf(stderr, "warpsim step: %s\n", msg);
        goto close;
    }
    bool quit = st == SIM_ERR_FAULT && !strcmp(res.fault.kind, "stopped") && step_quit_requested(s);
    if (quit) {
        printf("the launch was stopped at cycle %llu after %llu warp instructions; so far:\n",
               (unsigned long long)res.stats.cycles, (unsigned long long)res.stats.warp_insts);
    } else if (st == SIM_ERR_FAULT) {
        printf("the launch ended with a fault:\n");
        report_fault(stdout, &res.fault);
    } else {
        printf("the launch finished: %llu warp instructions in %llu cycles, %llu blocks\n",
               (unsigned long long)res.stats.warp_insts, (unsigned long long)res.stats.cycles,
               (unsigned long long)res.stats.blocks);
    }
    print_buffers(&spec, &res);
    const char *out = device_printf_output(dev);
    if (*out)
        printf("--- printf output ---\n%s%s---\n", out, out[strlen(out) - 1] == '\n' ? "" : "\n");
    int errors = step_errors(s);
    rc = quit || st == SIM_OK ? 0 : 1;
    if (spec.checks & DEVICE_CHECK_RACES) {
        report_races(stdout, dev);
        if (device_race_count(dev) && !quit)
            rc = 1;
    }
    if (st == SIM_ERR_FAULT && !quit && replayable(&res.fault)) {
        /* the launch is deterministic: run it again and stop just before */
        printf("\nreplaying the launch to just before the instruction that faulted:\n");
        fflush(stdout);
        s2 = step_new(&cfg);
        if (!s2) {
            fprintf(stderr, "warpsim step: out of memory\n");
            goto close;
        }
        step_stop_before(s2, res.stats.warp_insts, res.fault.lane);
        spec.on_issue_user = s2;
        running(in, s2, true); /* Ctrl-C on the way to the fault stops the replay */
        SimStatus st2 = launch_run(dev, mod, &spec, &res2, msg, sizeof msg);
        if (st2 == SIM_ERR_FAULT && !step_quit_requested(s2))
            printf("the replay faulted again: %s at %s:%d\n", res2.fault.kind, res2.fault.file, res2.fault.line);
        errors += step_errors(s2);
        s = s2;
    }
    int left = step_quit_requested(s) ? 0 : step_input_drain(in);
    if (left)
        printf("(%d command%s of the script not run: the launch had ended)\n", left, left == 1 ? "" : "s");
    if (errors && !step_input_interactive(in)) {
        fflush(stdout);
        fprintf(stderr, "warpsim step: %d command%s failed (the messages above say why)\n", errors,
                errors == 1 ? "" : "s");
        rc = 2;
    }
close:
    fflush(stdout);
    if (in) /* the steppers go: Ctrl-C is the default again */
        running(in, NULL, false);
    step_free(s1);
    step_free(s2);
    step_input_close(in);
    launch_result_free(&res);
    launch_result_free(&res2);
    free(ptx);
    device_close(dev);
done:
    launch_spec_free(&spec);
    return rc;
}
