/* sfu_blob.c: embeds sim/sfu_tables.bin (the measured SFU tables, about
 * 1.7 MB of zlib streams) into the library as sfu_blob_start..sfu_blob_end.
 * sim/sfu_table.c decodes it; scripts/sfu/sfu_pack.c writes it. */
#ifndef SFU_BLOB_PATH
#define SFU_BLOB_PATH "sim/sfu_tables.bin"
#endif

#ifdef __APPLE__
__asm__(".const_data\n.p2align 4\n.globl _sfu_blob_start\n_sfu_blob_start:\n"
        ".incbin \"" SFU_BLOB_PATH "\"\n.globl _sfu_blob_end\n_sfu_blob_end:\n.byte 0\n");
#else
__asm__(".section .rodata\n.balign 16\n.globl sfu_blob_start\nsfu_blob_start:\n"
        ".incbin \"" SFU_BLOB_PATH "\"\n.globl sfu_blob_end\nsfu_blob_end:\n.byte 0\n.previous\n");
#endif
