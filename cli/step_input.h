/* step_input.h: where the stepper's commands come from -- a terminal (line
 * editing and history through libedit), a --script FILE, or stdin when it
 * is not a terminal (a pipe, a here-document).  Outside a terminal each
 * command is echoed after the prompt, so a transcript reads like the
 * session a person would have had. */
#ifndef WARPSIM_STEP_INPUT_H
#define WARPSIM_STEP_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct StepInput StepInput;

/* The largest script step_input_open takes (a regular file; a device or a
 * FIFO is refused). */
#define STEP_SCRIPT_MAX ((size_t)16 << 20)

/* Commands from script (a file path), or, when script is NULL, from stdin.
 * echo receives "PROMPTcommand" for every line read outside a terminal.
 * NULL with msg ("cannot open 'x.txt': No such file or directory"). */
StepInput *step_input_open(const char *script, FILE *echo, char *msg, size_t cap);
void step_input_close(StepInput *in);

/* The next line, without its newline and surrounding blanks; NULL at the end
 * of input.  Valid until the next call.  A terminal shows prompt and keeps
 * history; an empty line typed at a terminal is returned as "". */
const char *step_input_read(StepInput *in, const char *prompt);

/* Tab completion on a terminal: word(first, i) is the i-th word that may
 * follow the command `first` (NULL: the first word of a line, a command),
 * NULL after the last.  One completer per process (libedit keeps one). */
void step_input_set_completer(StepInput *in, const char *(*word)(const char *first, int i));

/* true when a person types the commands (libedit on a terminal). */
bool step_input_interactive(const StepInput *in);

/* The lines read so far (script line number of the last one). */
int step_input_line(const StepInput *in);

/* Lines left that are not blank or comments (#), consuming them; for the
 * message after a script outlives its launch.  0 for a terminal. */
int step_input_drain(StepInput *in);

#endif
