/* trace_write.c: the trace writer (format v1, traces/FORMAT.md).  The
 * executor's hooks (exec_run.c, exec_mem.c, exec_ctrl.c, exec_warp.c) call
 * it only while a launch is traced; it encodes each event as one record
 * (type byte, varint length, varint fields with the block and cycle
 * delta-coded), keeps a running CRC-32, and closes with the END record. */
#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define REC_MAX 2048          /* one encoded record, at most */
#define TEXT_MAX 1024         /* fault and race texts are cut to this */

struct TraceWriter {
    FILE *f;
    char path[256];
    int level;
    uint8_t flags;            /* TRACE_FLAG_* of the header */
    bool io_error;
    uint32_t crc;
    uint64_t nevents;
    uint64_t prev_block, prev_cycle;
    uint64_t atomic_order;
    char *iobuf;
    bool holding;             /* trace_writer_hold: events wait in held[] */
    TraceEvent *held;
    size_t nheld, capheld;
};

/* ---- CRC-32 (zlib's) ------------------------------------------------------ */
uint32_t trace_crc32(uint32_t crc, const void *data, size_t n)
{
    const Bytef *p = data;
    while (n) { /* zlib takes 32-bit lengths */
        uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = (uint32_t)crc32(crc, p, k);
        p += k;
        n -= k;
    }
    return crc;
}

/* ---- encoding ---------------------------------------------------------------- */
typedef struct {
    uint8_t *b;               /* small, or a larger heap buffer (tile records) */
    size_t n, cap;
    uint8_t small[REC_MAX];
} Buf;

static void buf_init(Buf *b)
{
    b->b = b->small;
    b->n = 0;
    b->cap = REC_MAX;
}

static void put_u8(Buf *b, uint8_t v)
{
    if (b->n < b->cap)
        b->b[b->n++] = v;
}

static void put_var(Buf *b, uint64_t v)
{
    while (v >= 0x80) {
        put_u8(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    put_u8(b, (uint8_t)v);
}

static void put_zig(Buf *b, int64_t v)
{
    put_var(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void put_u32le(Buf *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        put_u8(b, (uint8_t)(v >> (8 * i)));
}

static void put_text(Buf *b, const char *s, uint32_t len)
{
    if (!s)
        len = 0;
    if (len > TEXT_MAX)
        len = TEXT_MAX;
    put_var(b, len);
    for (uint32_t i = 0; i < len; i++)
        put_u8(b, s[i] ? (uint8_t)s[i] : (uint8_t)' ');
}

static void emit(TraceWriter *t, const void *p, size_t n)
{
    if (!n)
        return;
    t->crc = trace_crc32(t->crc, p, n);
    if (fwrite(p, 1, n, t->f) != n)
        t->io_error = true;
}

/* Frame payload pl as a record of type `type`. */
static void emit_record(TraceWriter *t, uint8_t type, const Buf *pl)
{
    Buf h;
    buf_init(&h);
    put_u8(&h, type);
    put_var(&h, pl->n);
    emit(t, h.b, h.n);
    emit(t, pl->b, pl->n);
}

static uint32_t plus1(uint32_t v) { return v == TRACE_NONE ? 0 : v + 1; }

static int popc32(uint32_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static void put_addrs(Buf *b, uint32_t mask, const uint64_t addr[32])
{
    int first = mask ? __builtin_ctz(mask) : 0;
    /* stride form when every active lane l is at base + stride * l */
    bool stride_ok = true;
    int64_t stride = 0;
    uint64_t base = 0;
    if (popc32(mask) >= 2) {
        int second = __builtin_ctz(mask & (mask - 1));
        uint64_t diff = addr[second] - addr[first];
        int gap = second - first;
        stride = (int64_t)diff / gap;
        if ((uint64_t)(stride * gap) != diff)
            stride_ok = false;
    }
    if (mask)
        base = addr[first] - (uint64_t)stride * (uint64_t)first;
    for (uint32_t r = mask; r && stride_ok; r &= r - 1) {
        int l = __builtin_ctz(r);
        if (addr[l] != base + (uint64_t)stride * (uint64_t)l)
            stride_ok = false;
    }
    if (stride_ok) {
        put_u8(b, TRACE_ADDR_STRIDE);
        put_var(b, base);
        put_zig(b, stride);
        return;
    }
    put_u8(b, TRACE_ADDR_LIST);
    uint64_t prev = 0;
    for (uint32_t r = mask; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        put_zig(b, (int64_t)(addr[l] - prev));
        prev = addr[l];
    }
}

static void write_now(TraceWriter *t, const TraceEvent *ev);

void trace_write_event(TraceWriter *t, const TraceEvent *ev)
{
    if (!t || ev->type <= 0 || ev->type >= TRACE_EV_END)
        return;
    if (t->holding) {
        if (t->nheld == t->capheld) {
            size_t cap = t->capheld ? t->capheld * 2 : 1024;
            TraceEvent *h = realloc(t->held, cap * sizeof *h);
            if (!h) {
                t->io_error = true; /* reported at close */
                return;
            }
            t->held = h;
            t->capheld = cap;
        }
        t->held[t->nheld] = *ev;
        if (ev->type == TRACE_EV_TILE && ev->u.tile.list && ev->u.tile.nlisted) {
            /* the caller's list lives only until it returns: keep a copy */
            size_t sz = (size_t)ev->u.tile.nlisted * sizeof *ev->u.tile.list;
            TraceTileElem *copy = malloc(sz);
            if (!copy) {
                t->io_error = true;
                return;
            }
            memcpy(copy, ev->u.tile.list, sz);
            t->held[t->nheld].u.tile.list = copy;
        }
        t->nheld++;
        return;
    }
    write_now(t, ev);
}

static int held_cmp(const void *a, const void *b)
{
    const TraceEvent *p = a, *q = b;
    if (p->cycle != q->cycle)
        return p->cycle < q->cycle ? -1 : 1;
    return p->offset < q->offset ? -1 : p->offset > q->offset; /* offset: arrival order */
}

void trace_writer_hold(TraceWriter *t, bool hold)
{
    if (hold) {
        t->holding = true;
        return;
    }
    t->holding = false;
    if (!t->nheld)
        return;
    for (size_t i = 0; i < t->nheld; i++)
        t->held[i].offset = i;
    qsort(t->held, t->nheld, sizeof *t->held, held_cmp);
    for (size_t i = 0; i < t->nheld; i++) {
        write_now(t, &t->held[i]);
        if (t->held[i].type == TRACE_EV_TILE)
            free((void *)t->held[i].u.tile.list);
    }
    t->nheld = 0;
}

/* A tile record's listed elements, as many as fit below TILE_REC_MAX. */
#define TILE_REC_MAX 60000
static void put_tile(Buf *b, const TraceEvent *ev)
{
    const __typeof__(ev->u.tile) *t = &ev->u.tile;
    put_u8(b, t->op);
    put_u8(b, t->dtype);
    put_u8(b, t->rank);
    put_u8(b, t->sub);
    put_u8(b, t->order);
    put_u8(b, t->scope);
    put_var(b, t->seq);
    put_zig(b, t->ti);
    put_zig(b, t->tj);
    put_var(b, t->rows);
    put_var(b, t->cols);
    put_var(b, t->tm);
    put_var(b, t->tn);
    put_var(b, t->tk);
    put_var(b, t->base);
    put_var(b, t->nelem);
    put_var(b, t->special);
    uint32_t n = t->list ? t->nlisted : 0;
    if (n > TRACE_TILE_MAX_LISTED)
        n = TRACE_TILE_MAX_LISTED;
    size_t at = b->n;  /* the count goes here once known: 3 bytes reserved */
    put_u8(b, 0x80);
    put_u8(b, 0x80);
    put_u8(b, 0);
    uint32_t k = 0;
    for (; k < n && b->n + 40 < b->cap; k++) {
        const TraceTileElem *e = &t->list[k];
        put_var(b, e->elem);
        put_zig(b, e->index);
        put_u8(b, (uint8_t)(e->state | (e->updated ? 4 : 0)));
        if (e->updated) {
            put_var(b, e->thread);
            put_var(b, e->old);
            put_var(b, e->val);
        }
    }
    /* a 3-byte varint (values below 2^21) */
    b->b[at] = (uint8_t)(k | 0x80);
    b->b[at + 1] = (uint8_t)((k >> 7) | 0x80);
    b->b[at + 2] = (uint8_t)(k >> 14);
}

static void write_now(TraceWriter *t, const TraceEvent *ev)
{
    Buf b;
    buf_init(&b);
    if (ev->type == TRACE_EV_TILE) {
        b.b = malloc(TILE_REC_MAX);
        if (!b.b) {
            t->io_error = true;
            return;
        }
        b.cap = TILE_REC_MAX;
    }
    put_zig(&b, (int64_t)(ev->block - t->prev_block));
    put_var(&b, ev->cycle >= t->prev_cycle ? ev->cycle - t->prev_cycle : 0);
    t->prev_block = ev->block;
    if (ev->cycle > t->prev_cycle)
        t->prev_cycle = ev->cycle;
    switch (ev->type) {
    case TRACE_EV_BLOCK_DISPATCH:
    case TRACE_EV_BLOCK_RETIRE:
        put_var(&b, ev->u.blk.sm);
        break;
    case TRACE_EV_WARP_TURN:
        put_var(&b, ev->u.turn.warp);
        put_var(&b, ev->u.turn.count);
        break;
    case TRACE_EV_ISSUE:
        put_var(&b, ev->u.issue.warp);
        put_var(&b, ev->u.issue.pc);
        put_var(&b, ev->u.issue.mask);
        put_var(&b, ev->u.issue.ptx_line);
        put_var(&b, plus1(ev->u.issue.file));
        put_var(&b, ev->u.issue.line);
        break;
    case TRACE_EV_MEM:
        put_var(&b, ev->u.mem.warp);
        put_var(&b, ev->u.mem.pc);
        put_var(&b, ev->u.mem.mask);
        put_u8(&b, ev->u.mem.kind);
        put_u8(&b, ev->u.mem.space);
        put_u8(&b, ev->u.mem.size);
        put_u8(&b, ev->u.mem.conflict);
        put_addrs(&b, ev->u.mem.mask, ev->u.mem.addr);
        break;
    case TRACE_EV_ATOMIC:
        put_var(&b, ev->u.atom.warp);
        put_var(&b, ev->u.atom.lane);
        put_var(&b, ev->u.atom.pc);
        put_u8(&b, ev->u.atom.op);
        put_u8(&b, ev->u.atom.space);
        put_u8(&b, ev->u.atom.size);
        put_var(&b, ev->u.atom.addr);
        put_var(&b, ev->u.atom.old);
        put_var(&b, ev->u.atom.val);
        put_var(&b, ev->u.atom.order);
        break;
    case TRACE_EV_BAR_ARRIVE:
        put_var(&b, ev->u.arrive.warp);
        put_var(&b, ev->u.arrive.id);
        put_var(&b, ev->u.arrive.mask);
        put_var(&b, ev->u.arrive.arrived);
        break;
    case TRACE_EV_BAR_RELEASE:
        put_var(&b, ev->u.release.id);
        put_var(&b, ev->u.release.released);
        break;
    case TRACE_EV_COLLECTIVE:
        put_var(&b, ev->u.coll.warp);
        put_var(&b, ev->u.coll.pc);
        put_var(&b, ev->u.coll.mask);
        put_var(&b, ev->u.coll.member);
        put_u8(&b, ev->u.coll.kind);
        put_u8(&b, ev->u.coll.mode);
        break;
    case TRACE_EV_FAULT:
        put_var(&b, plus1(ev->u.fault.warp));
        put_var(&b, plus1(ev->u.fault.lane));
        put_var(&b, plus1(ev->u.fault.pc));
        put_var(&b, ev->u.fault.addr);
        put_text(&b, ev->u.fault.kind, ev->u.fault.kind_len);
        put_text(&b, ev->u.fault.msg, ev->u.fault.msg_len);
        break;
    case TRACE_EV_RACE:
        put_var(&b, ev->u.race.warp);
        put_var(&b, ev->u.race.lane);
        put_var(&b, ev->u.race.pc);
        put_var(&b, ev->u.race.other_warp);
        put_var(&b, ev->u.race.other_lane);
        put_u8(&b, ev->u.race.space);
        put_var(&b, ev->u.race.addr);
        put_text(&b, ev->u.race.msg, ev->u.race.msg_len);
        break;
    case TRACE_EV_TILE:
        put_tile(&b, ev);
        break;
    case TRACE_EV_WARP_STATE:
        if (!(t->flags & TRACE_FLAG_STATES)) /* opened without the flag: not in this file */
            return;
        put_var(&b, ev->u.states.warp);
        put_var(&b, ev->u.states.n);
        for (uint32_t i = 0; i < ev->u.states.n && i < TRACE_STATES_MAX; i++)
            put_var(&b, (uint64_t)ev->u.states.cycles[i] << 4 | ev->u.states.state[i]);
        break;
    default:
        return; /* not a type of this version */
    }
    emit_record(t, (uint8_t)ev->type, &b);
    if (b.b != b.small)
        free(b.b);
    t->nevents++;
}

/* ---- open / close ------------------------------------------------------------ */
TraceWriter *trace_writer_open(const char *path, const TraceLaunch *l, const char *const *strings,
                               uint32_t nstrings, SimError *err)
{
    if (l->level > TRACE_LEVEL_MEMORY) {
        sim_error_set(err, SIM_ERR_USAGE, path, 0, 0, "trace level %d is not 0..3", l->level);
        return NULL;
    }
    TraceWriter *t = calloc(1, sizeof *t);
    if (t)
        t->iobuf = malloc(1 << 20);
    if (!t || !t->iobuf) {
        if (t)
            free(t);
        sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
        return NULL;
    }
    t->f = fopen(path, "wb");
    if (!t->f) {
        sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot create trace file %s: %s", path, strerror(errno));
        free(t->iobuf);
        free(t);
        return NULL;
    }
    setvbuf(t->f, t->iobuf, _IOFBF, 1 << 20);
    snprintf(t->path, sizeof t->path, "%s", path);
    t->level = l->level;
    Buf b;
    buf_init(&b);
    memcpy(b.b, TRACE_MAGIC, 8);
    b.n = 8;
    t->flags = l->flags & TRACE_FLAG_STATES;
    unsigned version = t->flags ? 3 : 2; /* the oldest that describes the file */
    put_u8(&b, version & 0xff);
    put_u8(&b, version >> 8);
    put_u8(&b, l->level);
    put_u8(&b, t->flags);
    put_u32le(&b, l->arch);
    put_u32le(&b, l->kernel);
    for (int i = 0; i < 3; i++)
        put_u32le(&b, l->grid[i]);
    for (int i = 0; i < 3; i++)
        put_u32le(&b, l->block[i]);
    put_u32le(&b, l->dyn_smem);
    put_u32le(&b, l->static_smem);
    put_u32le(&b, l->regs);
    put_u32le(&b, l->ptx_regs);
    put_u32le(&b, l->sm_count);
    put_u32le(&b, l->warp_size);
    put_u32le(&b, nstrings);
    emit(t, b.b, b.n);
    for (uint32_t i = 0; i < nstrings; i++) {
        const char *s = strings[i] ? strings[i] : "";
        size_t n = strlen(s);
        b.n = 0;
        put_u32le(&b, (uint32_t)n);
        emit(t, b.b, b.n);
        emit(t, s, n);
    }
    return t;
}

int trace_writer_level(const TraceWriter *t)
{
    return t->level;
}

SimStatus trace_writer_close(TraceWriter *t, int status, SimError *err)
{
    if (!t)
        return SIM_OK;
    trace_writer_hold(t, false);
    Buf b;
    buf_init(&b);
    put_zig(&b, 0);
    put_var(&b, 0);
    put_var(&b, t->nevents);
    put_var(&b, (uint64_t)status);
    put_var(&b, t->prev_cycle);
    /* the CRC covers every byte of the file before it */
    Buf h;
    buf_init(&h);
    put_u8(&h, TRACE_EV_END);
    put_var(&h, b.n + 4);
    emit(t, h.b, h.n);
    emit(t, b.b, b.n);
    b.n = 0;
    put_u32le(&b, t->crc);
    emit(t, b.b, b.n);
    if (fflush(t->f) || ferror(t->f))
        t->io_error = true;
    if (fclose(t->f))
        t->io_error = true;
    SimStatus rc = SIM_OK;
    if (t->io_error)
        rc = sim_error_set(err, SIM_ERR_IO, t->path, 0, 0, "writing trace file %s failed (disk full?)", t->path);
    free(t->iobuf);
    for (size_t i = 0; i < t->nheld; i++)
        if (t->held[i].type == TRACE_EV_TILE)
            free((void *)t->held[i].u.tile.list);
    free(t->held);
    free(t);
    return rc;
}

/* ---- executor helpers ------------------------------------------------------ */
void trace_writer_advance(TraceWriter *t, uint64_t cycle)
{
    if (cycle > t->prev_cycle)
        t->prev_cycle = cycle;
}

void trace_block_begin(TraceWriter *t, uint64_t block, uint32_t sm, uint64_t cycle)
{
    TraceEvent ev = {.type = TRACE_EV_BLOCK_DISPATCH, .cycle = cycle, .block = block};
    ev.u.blk.sm = sm;
    trace_write_event(t, &ev);
}

void trace_block_end(TraceWriter *t, uint64_t block, uint32_t sm, uint64_t cycle)
{
    TraceEvent ev = {.type = TRACE_EV_BLOCK_RETIRE, .cycle = cycle, .block = block};
    ev.u.blk.sm = sm;
    trace_write_event(t, &ev);
}

void trace_issue(TraceWriter *t, uint64_t block, uint32_t warp, uint64_t cycle, uint32_t pc, uint32_t mask,
                 uint32_t ptx_line, uint32_t file, uint32_t line)
{
    TraceEvent ev = {.type = TRACE_EV_ISSUE, .cycle = cycle, .block = block};
    ev.u.issue.warp = warp;
    ev.u.issue.pc = pc;
    ev.u.issue.mask = mask;
    ev.u.issue.ptx_line = ptx_line;
    ev.u.issue.file = file;
    ev.u.issue.line = line;
    trace_write_event(t, &ev);
}

uint64_t trace_next_atomic_order(TraceWriter *t)
{
    return t->atomic_order++;
}
