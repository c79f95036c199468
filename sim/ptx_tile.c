/* ptx_tile.c: the tile markers of lessons/include/tile.cuh in PTX.
 *
 * The header writes every tile operation as a comment "//@ tile.OP a, b, ...;"
 * from inline asm: nvcc keeps it with the registers filled in, ptxas ignores
 * it (the same cubin with and without).  The lexer hands the text after "//@"
 * to the parser as an ordinary instruction with opcode "tile"; this file
 * checks each marker's shape, so a damaged one is a parse error at its line.
 * The executor (exec_tile.c) turns them into tile-level trace records. */
#include "ptx_int.h"

#include <string.h>

typedef struct {
    const char *name;
    int nopnds;
    unsigned imm;   /* operands that must be immediates (bit per operand) */
} TileShape;

/* Operand layouts (tile.cuh writes them; exec_tile.c reads them):
 *   load    base, i, j, rows, cols, SHAPE, pad, INFO     SHAPE = M << 16 | N
 *   store   base, i, j, rows, cols, SHAPE, INFO           (rank 1: i 0, rows 1)
 *   gather  base, n, E, pad, INFO      then tile.elem per element, tile.end
 *   scatter base, n, E, INFO           likewise
 *   atom    base, n, E, order, scope, INFO    likewise; INFO >> 12 is the op
 *   elem    e, index, state            state 0 ok, 1 masked off, 2 outside
 *   end
 *   reduce  KIND, SHAPE, INFO          KIND 0 sum, 1 max, 2 min
 *   matmul  M << 16 | K, K << 16 | N, INFO
 * INFO = element type code | rank << 8 | op << 12. */
static const TileShape shapes[PTX_TILE_COUNT] = {
    [PTX_TILE_LOAD] = {"load", 8, 1u << 5 | 1u << 7},
    [PTX_TILE_STORE] = {"store", 7, 1u << 5 | 1u << 6},
    [PTX_TILE_GATHER] = {"gather", 5, 1u << 2 | 1u << 4},
    [PTX_TILE_SCATTER] = {"scatter", 4, 1u << 2 | 1u << 3},
    [PTX_TILE_ATOM] = {"atom", 6, 1u << 2 | 1u << 5},
    [PTX_TILE_ELEM] = {"elem", 3, 0},
    [PTX_TILE_END] = {"end", 0, 0},
    [PTX_TILE_REDUCE] = {"reduce", 3, 7},
    [PTX_TILE_MATMUL] = {"matmul", 3, 7},
};

const char *ptx_tile_op_name(int op)
{
    return op >= 0 && op < PTX_TILE_COUNT ? shapes[op].name : "?";
}

int ptx_tile_op(const PtxInst *in)
{
    if (!in->opcode || strcmp(in->opcode, "tile") || in->n_mods != 1)
        return -1;
    for (int k = 0; k < PTX_TILE_COUNT; k++)
        if (!strcmp(in->mods[0], shapes[k].name))
            return k;
    return -1;
}

void ptx_tile_check(PtxParser *p, const PtxInst *in, const PtxToken *t)
{
    if (in->n_mods != 1)
        ptx_fail(p, t, "tile marker: expected tile.OP (load, store, gather, scatter, atom, elem, end, reduce, "
                       "matmul)");
    int op = ptx_tile_op(in);
    if (op < 0)
        ptx_fail(p, t, "tile marker: unknown operation '%s'", in->mods[0]);
    if (in->guard >= 0)
        ptx_fail(p, t, "tile marker: no guard allowed");
    const TileShape *s = &shapes[op];
    if (in->n_opnds != s->nopnds)
        ptx_fail(p, t, "tile marker tile.%s: expected %d operands, found %d", s->name, s->nopnds, in->n_opnds);
    for (int k = 0; k < in->n_opnds; k++) {
        const PtxOperand *o = &in->opnds[k];
        bool imm = o->kind == PTX_OPND_IMM_INT;
        if (s->imm >> k & 1 ? !imm : !(imm || (o->kind == PTX_OPND_REG && !o->neg)))
            ptx_fail(p, t, "tile marker tile.%s: operand %d must be %s", s->name, k + 1,
                     s->imm >> k & 1 ? "an integer constant" : "a register or an integer constant");
    }
}
