/* fuzz_exec.c: libFuzzer target for the decoder and the executor: any bytes
 * read as PTX text either fail to load with a status, or run the first
 * .entry to the end or to a fault -- never a crash, hang, leak or undefined
 * behavior.  The launch recipe is shared with tests/test_exec_corpus.c,
 * which replays every find kept in tests/corpus/exec/ (`make fuzz-exec`). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_exec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_exec_run((const char *)data, size);
    return 0;
}
