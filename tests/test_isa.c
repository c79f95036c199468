/* test_isa.c: docs/ptx-support.md is what the simulator's instruction table
 * (sim/isa.c) writes, and that table agrees with the decoder: every opcode
 * the decoder takes is listed, and every row said to run has a decoder.
 * `build/tests/test_isa --write` regenerates the document.  Run from the
 * repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "isa.h"
#include "source.h"

#define DOC "docs/ptx-support.md"

static void test_isa_lists_every_opcode_the_decoder_takes(void **s)
{
    (void)s;
    for (int k = 0; exec_decoder_opcode(k); k++) {
        const char *op = exec_decoder_opcode(k);
        bool found = false;
        for (int i = 0; i < isa_count() && !found; i++)
            found = !strcmp(isa_row(i)->opcode, op) && isa_supported(isa_row(i));
        if (!found)
            fail_msg("the decoder takes '%s' but no supported row of sim/isa.c names it", op);
    }
    assert_true(isa_supported(isa_row(0)));
    assert_null(isa_row(isa_count()));
}

static void test_isa_a_row_with_a_reason_or_no_decoder_is_not_supported(void **s)
{
    (void)s;
    IsaRow fake = {"frobnicate", "frobnicate", "x", NULL, NULL};
    assert_false(isa_supported(&fake));
    IsaRow refused = {"add", "add", "x", "for a test", NULL};
    assert_false(isa_supported(&refused));
    for (int i = 0; i < isa_count(); i++)
        if (!strcmp(isa_row(i)->opcode, "wgmma"))
            assert_false(isa_supported(isa_row(i)));
}

static void test_isa_document_matches_the_table(void **s)
{
    (void)s;
    char *want = isa_markdown();
    assert_non_null(want);
    size_t len;
    char msg[256];
    char *have = source_read_file(DOC, &len, msg, sizeof msg);
    if (!have || strcmp(have, want)) {
        FILE *f = fopen("build/ptx-support.md", "w");
        if (f) {
            fputs(want, f);
            fclose(f);
        }
        fail_msg("%s is not what sim/isa.c writes (the new text is in build/ptx-support.md; "
                 "build/tests/test_isa --write updates it)", DOC);
    }
    free(have);
    free(want);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--write")) {
        char *t = isa_markdown();
        FILE *f = t ? fopen(DOC, "w") : NULL;
        if (!f || fputs(t, f) < 0 || fclose(f)) {
            fprintf(stderr, "cannot write %s\n", DOC);
            return 1;
        }
        free(t);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_lists_every_opcode_the_decoder_takes),
        cmocka_unit_test(test_isa_a_row_with_a_reason_or_no_decoder_is_not_supported),
        cmocka_unit_test(test_isa_document_matches_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
