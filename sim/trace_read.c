/* trace_read.c: the trace reader (formats v1 and v2, traces/FORMAT.md).  Opening a
 * trace validates all of it -- header, string table, every record's length,
 * fields and indices, the END record, the CRC-32 -- so that iterating
 * afterwards cannot fail.  Bad bytes give SIM_ERR_PARSE with the offset of
 * the problem ("byte 1234: ..."); nothing here trusts a length or an index
 * it has not checked.  Everything that reads traces goes through here. */
#include "trace.h"

#include "file_read.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_SIZE 72
#define RECORD_MAX 65536       /* payload bytes of one record, at most */
#define MAX_THREADS 65536      /* per block, at most */
#define MAX_SMS 65536


struct TraceReader {
    uint8_t *data;
    size_t len;
    TraceLaunch launch;
    unsigned version;          /* the header's format version */
    char **strings;
    uint32_t nstrings;
    uint64_t nblocks;
    uint32_t nwarps;           /* per block */
    size_t events_at;          /* offset of the first record */
    uint64_t nevents;
    int end_status;
    uint64_t end_cycle;
    /* iteration */
    size_t pos;
    uint64_t prev_block, prev_cycle;
};

/* A cursor over [pos, end) of data; the first problem sticks. */
typedef struct {
    const uint8_t *d;
    size_t pos, end;
    const char *why;           /* NULL while fine */
    size_t why_at;
} Cur;

static void bad(Cur *c, size_t at, const char *why)
{
    if (!c->why) {
        c->why = why;
        c->why_at = at;
    }
}

static uint8_t get_u8(Cur *c)
{
    if (c->why)
        return 0;
    if (c->pos >= c->end) {
        bad(c, c->pos, "record ends inside a field");
        return 0;
    }
    return c->d[c->pos++];
}

static uint64_t get_var(Cur *c)
{
    size_t at = c->pos;
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        if (c->why)
            return 0;
        if (c->pos >= c->end) {
            bad(c, at, "record ends inside a varint");
            return 0;
        }
        uint8_t b = c->d[c->pos++];
        if (i == 9 && b > 1) {
            bad(c, at, "varint does not fit 64 bits");
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            return v;
    }
    bad(c, at, "varint longer than 10 bytes");
    return 0;
}

static int64_t get_zig(Cur *c)
{
    uint64_t v = get_var(c);
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static uint32_t get_u32v(Cur *c)
{
    size_t at = c->pos;
    uint64_t v = get_var(c);
    if (v > 0xffffffffu) {
        bad(c, at, "value does not fit 32 bits");
        return 0;
    }
    return (uint32_t)v;
}

/* A varint that must be below lim. */
static uint32_t get_below(Cur *c, uint64_t lim, const char *why)
{
    size_t at = c->pos;
    uint64_t v = get_var(c);
    if (!c->why && v >= lim) {
        bad(c, at, why);
        return 0;
    }
    return (uint32_t)v;
}

/* A varint v with 0 meaning TRACE_NONE and v - 1 below lim. */
static uint32_t get_opt(Cur *c, uint64_t lim, const char *why)
{
    size_t at = c->pos;
    uint64_t v = get_var(c);
    if (c->why || v == 0)
        return TRACE_NONE;
    if (v - 1 >= lim) {
        bad(c, at, why);
        return TRACE_NONE;
    }
    return (uint32_t)(v - 1);
}

static uint8_t get_byte_below(Cur *c, unsigned lim, const char *why)
{
    size_t at = c->pos;
    uint8_t v = get_u8(c);
    if (!c->why && v >= lim) {
        bad(c, at, why);
        return 0;
    }
    return v;
}

static const char *get_text(Cur *c, uint32_t *len)
{
    size_t at = c->pos;
    uint64_t n = get_var(c);
    *len = 0;
    if (c->why)
        return "";
    if (n > c->end - c->pos) {
        bad(c, at, "text runs past the end of its record");
        return "";
    }
    const char *s = (const char *)c->d + c->pos;
    c->pos += (size_t)n;
    *len = (uint32_t)n;
    return s;
}

static uint32_t rd_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One listed tile element (TRACE_EV_TILE) from c; nelem and nthreads bound
 * its fields. */
static void get_tile_elem(Cur *c, uint32_t nelem, uint32_t nthreads, TraceTileElem *e)
{
    e->elem = get_below(c, nelem, "tile element number outside the tile");
    size_t at = c->pos;
    int64_t ix = get_zig(c);
    if (!c->why && (ix < INT32_MIN || ix > INT32_MAX))
        bad(c, at, "tile element index does not fit 32 bits");
    e->index = ix;
    at = c->pos;
    uint8_t st = get_u8(c);
    if (!c->why && ((st & 3) >= TRACE_TILE_ELEM_COUNT || st > 7 || ((st & 4) && (st & 3))))
        bad(c, at, "unknown tile element state");
    e->state = st & 3;
    e->updated = (st & 4) != 0;
    e->thread = 0;
    e->old = e->val = 0;
    if (e->updated) {
        e->thread = get_below(c, nthreads, "tile update thread outside the block");
        e->old = get_var(c);
        e->val = get_var(c);
    }
}

uint32_t trace_tile_elems(const TraceEvent *ev, TraceTileElem *out, uint32_t cap)
{
    if (ev->type != TRACE_EV_TILE || !ev->u.tile.enc)
        return 0;
    Cur c = {ev->u.tile.enc, 0, ev->u.tile.enc_len, NULL, 0};
    uint32_t n = 0;
    for (; n < ev->u.tile.nlisted && n < cap && !c.why; n++)
        get_tile_elem(&c, ev->u.tile.nelem, 65536, &out[n]);
    return c.why ? 0 : n;
}

/* Decode the record at *pos into ev, advancing *pos and the delta state.
 * On bad bytes: false with c.why / c.why_at (an absolute offset). */
static bool decode(const TraceReader *r, size_t *pos, uint64_t *pblock, uint64_t *pcycle, TraceEvent *ev,
                   const char **why, size_t *why_at)
{
    Cur c = {r->data, *pos, r->len, NULL, 0};
    memset(ev, 0, sizeof *ev);
    ev->offset = *pos;
    if (c.pos >= c.end) {
        bad(&c, *pos, "the trace ends without its END record (truncated?)");
        goto fail;
    }
    uint8_t type = get_u8(&c);
    size_t len_at = c.pos;
    uint64_t len = get_var(&c);
    if (c.why) {
        c.why = NULL;
        bad(&c, len_at, "record length runs past the end of the file (truncated?)");
        goto fail;
    }
    if (len > RECORD_MAX) {
        bad(&c, len_at, "record length is over 65536 bytes");
        goto fail;
    }
    if (len > r->len - c.pos) {
        bad(&c, len_at, "record runs past the end of the file (truncated?)");
        goto fail;
    }
    c.end = c.pos + (size_t)len;
    size_t next = c.end;
    /* every record begins with the block and cycle deltas */
    size_t at = c.pos;
    uint64_t block = *pblock + (uint64_t)get_zig(&c);
    if (!c.why && block >= r->nblocks) {
        bad(&c, at, "block index outside the grid");
        goto fail;
    }
    at = c.pos;
    uint64_t dc = get_var(&c);
    if (!c.why && dc > UINT64_MAX - *pcycle) {
        bad(&c, at, "cycle overflows 64 bits");
        goto fail;
    }
    uint64_t cycle = *pcycle + dc;
    ev->block = block;
    ev->cycle = cycle;
    ev->type = type;
    uint32_t nw = r->nwarps;
    const char *bad_warp = "warp index outside the block";
    switch (type) {
    case TRACE_EV_BLOCK_DISPATCH:
    case TRACE_EV_BLOCK_RETIRE:
        ev->u.blk.sm = get_below(&c, r->launch.sm_count, "SM index outside sm_count");
        break;
    case TRACE_EV_WARP_TURN:
        ev->u.turn.warp = get_below(&c, nw, bad_warp);
        at = c.pos;
        ev->u.turn.count = get_u32v(&c);
        if (!c.why && ev->u.turn.count > cycle)
            bad(&c, at, "warp turn starts before cycle 0");
        break;
    case TRACE_EV_ISSUE:
        ev->u.issue.warp = get_below(&c, nw, bad_warp);
        ev->u.issue.pc = get_u32v(&c);
        ev->u.issue.mask = get_u32v(&c);
        ev->u.issue.ptx_line = get_u32v(&c);
        ev->u.issue.file = get_opt(&c, r->nstrings, "file string index outside the string table");
        ev->u.issue.line = get_u32v(&c);
        break;
    case TRACE_EV_MEM: {
        ev->u.mem.warp = get_below(&c, nw, bad_warp);
        ev->u.mem.pc = get_u32v(&c);
        uint32_t m = ev->u.mem.mask = get_u32v(&c);
        ev->u.mem.kind = get_byte_below(&c, TRACE_MEM_KIND_COUNT, "unknown memory access kind");
        ev->u.mem.space = get_byte_below(&c, TRACE_SPACE_COUNT, "unknown state space");
        at = c.pos;
        ev->u.mem.size = get_u8(&c);
        if (!c.why && (ev->u.mem.size == 0 || ev->u.mem.size > 128))
            bad(&c, at, "access size is not 1..128 bytes");
        ev->u.mem.conflict = get_byte_below(&c, 33, "bank conflict degree over 32");
        ev->u.mem.form = get_byte_below(&c, 2, "unknown address form");
        if (c.why)
            break;
        if (ev->u.mem.form == TRACE_ADDR_STRIDE) {
            uint64_t base = get_var(&c);
            int64_t stride = get_zig(&c);
            ev->u.mem.base = base;
            ev->u.mem.stride = stride;
            for (uint32_t q = m; q; q &= q - 1) {
                int l = __builtin_ctz(q);
                ev->u.mem.addr[l] = base + (uint64_t)stride * (uint64_t)l;
            }
        } else {
            uint64_t prev = 0;
            for (uint32_t q = m; q && !c.why; q &= q - 1) {
                int l = __builtin_ctz(q);
                prev += (uint64_t)get_zig(&c);
                ev->u.mem.addr[l] = prev;
            }
        }
        break;
    }
    case TRACE_EV_ATOMIC:
        ev->u.atom.warp = get_below(&c, nw, bad_warp);
        ev->u.atom.lane = get_below(&c, 32, "lane outside 0..31");
        ev->u.atom.pc = get_u32v(&c);
        ev->u.atom.op = get_byte_below(&c, TRACE_ATOM_COUNT, "unknown atomic operation");
        ev->u.atom.space = get_byte_below(&c, TRACE_SPACE_COUNT, "unknown state space");
        at = c.pos;
        ev->u.atom.size = get_u8(&c);
        if (!c.why && ev->u.atom.size != 4 && ev->u.atom.size != 8)
            bad(&c, at, "atomic size is not 4 or 8 bytes");
        ev->u.atom.addr = get_var(&c);
        ev->u.atom.old = get_var(&c);
        ev->u.atom.val = get_var(&c);
        ev->u.atom.order = get_var(&c);
        break;
    case TRACE_EV_BAR_ARRIVE:
        ev->u.arrive.warp = get_below(&c, nw, bad_warp);
        ev->u.arrive.id = get_below(&c, 16, "barrier id outside 0..15");
        ev->u.arrive.mask = get_u32v(&c);
        ev->u.arrive.arrived = get_u32v(&c);
        break;
    case TRACE_EV_BAR_RELEASE:
        ev->u.release.id = get_below(&c, 16, "barrier id outside 0..15");
        ev->u.release.released = get_u32v(&c);
        break;
    case TRACE_EV_COLLECTIVE:
        ev->u.coll.warp = get_below(&c, nw, bad_warp);
        ev->u.coll.pc = get_u32v(&c);
        ev->u.coll.mask = get_u32v(&c);
        ev->u.coll.member = get_u32v(&c);
        ev->u.coll.kind = get_byte_below(&c, TRACE_COLL_COUNT, "unknown collective");
        ev->u.coll.mode = get_byte_below(&c, 8, "collective mode over 7");
        break;
    case TRACE_EV_FAULT:
        ev->u.fault.warp = get_opt(&c, nw, bad_warp);
        ev->u.fault.lane = get_opt(&c, 32, "lane outside 0..31");
        ev->u.fault.pc = get_opt(&c, 0xffffffffu, "pc does not fit 32 bits");
        ev->u.fault.addr = get_var(&c);
        ev->u.fault.kind = get_text(&c, &ev->u.fault.kind_len);
        ev->u.fault.msg = get_text(&c, &ev->u.fault.msg_len);
        break;
    case TRACE_EV_RACE:
        ev->u.race.warp = get_below(&c, nw, bad_warp);
        ev->u.race.lane = get_below(&c, 32, "lane outside 0..31");
        ev->u.race.pc = get_u32v(&c);
        ev->u.race.other_warp = get_below(&c, nw, bad_warp);
        ev->u.race.other_lane = get_below(&c, 32, "lane outside 0..31");
        ev->u.race.space = get_byte_below(&c, TRACE_SPACE_COUNT, "unknown state space");
        ev->u.race.addr = get_var(&c);
        ev->u.race.msg = get_text(&c, &ev->u.race.msg_len);
        break;
    case TRACE_EV_TILE: {
        __typeof__(ev->u.tile) *t = &ev->u.tile;
        t->op = get_byte_below(&c, TRACE_TILE_COUNT, "unknown tile operation");
        at = c.pos;
        t->dtype = get_u8(&c);
        if (!c.why && (t->dtype < 1 || t->dtype > TRACE_TILE_DTYPE_MAX))
            bad(&c, at, "unknown tile element type");
        at = c.pos;
        t->rank = get_u8(&c);
        if (!c.why && t->rank != 1 && t->rank != 2)
            bad(&c, at, "tile rank is not 1 or 2");
        t->sub = get_byte_below(&c, TRACE_ATOM_COUNT, "tile sub-operation over 9");
        t->order = get_byte_below(&c, 4, "tile atomic order over 3");
        t->scope = get_byte_below(&c, 3, "tile atomic scope over 2");
        t->seq = get_u32v(&c);
        at = c.pos;
        int64_t ti = get_zig(&c), tj = get_zig(&c);
        if (!c.why && (ti < INT32_MIN || ti > INT32_MAX || tj < INT32_MIN || tj > INT32_MAX))
            bad(&c, at, "tile-space index does not fit 32 bits");
        t->ti = (int32_t)ti;
        t->tj = (int32_t)tj;
        t->rows = get_u32v(&c);
        t->cols = get_u32v(&c);
        at = c.pos;
        t->tm = get_u32v(&c);
        t->tn = get_u32v(&c);
        t->tk = get_u32v(&c);
        if (!c.why && (!t->tm || !t->tn || t->tm > 65536 || t->tn > 65536 || t->tk > 65536 ||
                       (uint64_t)t->tm * t->tn > 1u << 24))
            bad(&c, at, "tile shape is empty or too large");
        t->base = get_var(&c);
        at = c.pos;
        t->nelem = get_u32v(&c);
        if (!c.why && t->nelem > 1u << 24)
            bad(&c, at, "tile element count over 2^24");
        t->special = get_u32v(&c);
        at = c.pos;
        t->nlisted = get_u32v(&c);
        if (!c.why && (t->nlisted > t->nelem || t->nlisted > TRACE_TILE_MAX_LISTED))
            bad(&c, at, "more listed tile elements than the tile has");
        t->enc = c.d + c.pos;
        size_t start = c.pos;
        TraceTileElem e;
        for (uint32_t k = 0; k < t->nlisted && !c.why; k++)
            get_tile_elem(&c, t->nelem, r->nwarps * 32, &e);
        t->enc_len = (uint32_t)(c.pos - start);
        break;
    }
    case TRACE_EV_END:
        get_var(&c); /* event count, status, final cycle: checked by the caller */
        get_var(&c);
        get_var(&c);
        if (c.end - c.pos != 4 && !c.why)
            bad(&c, c.pos, "END record does not end with its 4-byte CRC");
        else
            c.pos = c.end;
        break;
    case TRACE_EV_WARP_STATE: {
        if (!(r->launch.flags & TRACE_FLAG_STATES)) {
            bad(&c, *pos, "warp-state record in a trace whose header does not set the states flag");
            break;
        }
        ev->u.states.warp = get_below(&c, nw, bad_warp);
        at = c.pos;
        uint32_t n = get_u32v(&c);
        if (!c.why && (n < 1 || n > TRACE_STATES_MAX)) {
            bad(&c, at, "warp-state record holds no runs or more than 32");
            break;
        }
        ev->u.states.n = n;
        uint64_t total = 0;
        for (uint32_t i = 0; i < n && !c.why; i++) {
            at = c.pos;
            uint64_t v = get_var(&c);
            if (c.why)
                break;
            if ((v & 15) >= TRACE_STATE_COUNT)
                bad(&c, at, "unknown warp state");
            else if ((v >> 4) < 1 || (v >> 4) > UINT32_MAX)
                bad(&c, at, "warp-state run is not 1..2^32-1 cycles");
            ev->u.states.state[i] = (uint8_t)(v & 15);
            ev->u.states.cycles[i] = (uint32_t)(v >> 4);
            total += v >> 4;
        }
        if (!c.why && total > cycle + 1)
            bad(&c, at, "warp-state runs start before cycle 0");
        break;
    }
    default: /* a type of a later version: skip its fields */
        ev->type = TRACE_EV_UNKNOWN;
        ev->u.unknown.code = type;
        ev->u.unknown.len = (uint32_t)len;
        c.pos = c.end;
        break;
    }
    if (!c.why && c.pos != c.end)
        bad(&c, c.pos, "bytes left over at the end of a record");
    if (c.why)
        goto fail;
    *pos = next;
    *pblock = block;
    *pcycle = cycle;
    return true;
fail:
    *why = c.why;
    *why_at = c.why_at;
    return false;
}

static SimStatus parse_error(SimError *err, const char *name, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static SimStatus parse_error(SimError *err, const char *name, size_t at, const char *fmt, ...)
{
    char m[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    return sim_error_set(err, SIM_ERR_PARSE, name, 0, 0, "byte %zu: %s", at, m);
}

/* Header and string table. */
static SimStatus read_header(TraceReader *r, const char *name, SimError *err)
{
    const uint8_t *d = r->data;
    TraceLaunch *l = &r->launch;
    if (r->len < 8 || memcmp(d, TRACE_MAGIC, 8))
        return parse_error(err, name, 0, "not a warpsim trace (no \"%s\" magic)", TRACE_MAGIC);
    if (r->len < HEADER_SIZE)
        return parse_error(err, name, r->len, "the header is cut short: %zu of %d bytes", r->len,
                           HEADER_SIZE);
    unsigned version = d[8] | (unsigned)d[9] << 8;
    if (version < TRACE_VERSION_MIN || version > TRACE_VERSION)
        return parse_error(err, name, 8, "format version %u; this warpsim reads versions %d to %d", version,
                           TRACE_VERSION_MIN, TRACE_VERSION);
    r->version = version;
    l->level = d[10];
    if (l->level > TRACE_LEVEL_MEMORY)
        return parse_error(err, name, 10, "level %u is not 0..3", l->level);
    l->flags = d[11];
    if (version < 3 && d[11])
        return parse_error(err, name, 11, "reserved flags byte is %u, not 0 (version %u)", d[11], version);
    if (d[11] & ~TRACE_FLAG_STATES)
        return parse_error(err, name, 11, "flags byte 0x%02x sets bits this warpsim does not know", d[11]);
    l->arch = rd_u32le(d + 12);
    l->kernel = rd_u32le(d + 16);
    for (int i = 0; i < 3; i++) {
        l->grid[i] = rd_u32le(d + 20 + 4 * i);
        l->block[i] = rd_u32le(d + 32 + 4 * i);
    }
    l->dyn_smem = rd_u32le(d + 44);
    l->static_smem = rd_u32le(d + 48);
    l->regs = rd_u32le(d + 52);
    l->ptx_regs = rd_u32le(d + 56);
    l->sm_count = rd_u32le(d + 60);
    l->warp_size = rd_u32le(d + 64);
    uint32_t ns = rd_u32le(d + 68);
    if (!l->grid[0] || !l->grid[1] || !l->grid[2] || l->grid[0] > 2147483647u || l->grid[1] > 65535 ||
        l->grid[2] > 65535)
        return parse_error(err, name, 20, "grid %ux%ux%u is outside CUDA's limits", l->grid[0], l->grid[1],
                           l->grid[2]);
    uint64_t nt = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (!nt || l->block[0] > MAX_THREADS || l->block[1] > MAX_THREADS || l->block[2] > MAX_THREADS ||
        nt > MAX_THREADS)
        return parse_error(err, name, 32, "block %ux%ux%u is empty or over %d threads", l->block[0],
                           l->block[1], l->block[2], MAX_THREADS);
    if (!l->sm_count || l->sm_count > MAX_SMS)
        return parse_error(err, name, 60, "sm_count %u is not 1..%d", l->sm_count, MAX_SMS);
    if (l->warp_size != 32)
        return parse_error(err, name, 64, "warp size %u is not 32", l->warp_size);
    r->nblocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    r->nwarps = (uint32_t)((nt + 31) / 32);
    if (ns > (r->len - HEADER_SIZE) / 4)
        return parse_error(err, name, 68, "%u strings cannot fit in the %zu bytes left", ns,
                           r->len - HEADER_SIZE);
    r->strings = calloc((size_t)ns + 1, sizeof *r->strings);
    if (!r->strings)
        return sim_error_set(err, SIM_ERR_NOMEM, name, 0, 0, "out of memory");
    size_t pos = HEADER_SIZE;
    for (uint32_t i = 0; i < ns; i++) {
        if (r->len - pos < 4)
            return parse_error(err, name, pos, "string %u of %u: its length is cut short (truncated?)", i, ns);
        uint32_t n = rd_u32le(d + pos);
        if (n > r->len - pos - 4)
            return parse_error(err, name, pos, "string %u: %u bytes run past the end of the file", i, n);
        if (memchr(d + pos + 4, 0, n))
            return parse_error(err, name, pos + 4, "string %u contains a NUL byte", i);
        char *s = malloc((size_t)n + 1);
        if (!s)
            return sim_error_set(err, SIM_ERR_NOMEM, name, 0, 0, "out of memory");
        memcpy(s, d + pos + 4, n);
        s[n] = 0;
        r->strings[i] = s;
        r->nstrings = i + 1;
        pos += 4 + (size_t)n;
    }
    if (l->arch >= ns)
        return parse_error(err, name, 12, "arch string index %u outside the %u strings", l->arch, ns);
    if (l->kernel >= ns)
        return parse_error(err, name, 16, "kernel string index %u outside the %u strings", l->kernel, ns);
    r->events_at = pos;
    return SIM_OK;
}

/* Walk every record once; the last must be END, followed by nothing. */
static SimStatus read_events(TraceReader *r, const char *name, unsigned flags, SimError *err)
{
    size_t pos = r->events_at;
    uint64_t pb = 0, pc = 0, n = 0;
    TraceEvent ev;
    const char *why;
    size_t at;
    for (;;) {
        size_t start = pos;
        if (!decode(r, &pos, &pb, &pc, &ev, &why, &at))
            return parse_error(err, name, at, "%s", why);
        if (ev.type != TRACE_EV_END) {
            n++;
            continue;
        }
        /* END: block/cycle deltas, count, status, final cycle, CRC */
        Cur c = {r->data, start + 1, pos, NULL, 0};
        get_var(&c);
        size_t body = c.pos;
        get_zig(&c);
        get_var(&c);
        size_t cnt_at = c.pos;
        uint64_t count = get_var(&c);
        size_t st_at = c.pos;
        uint64_t status = get_var(&c);
        size_t cy_at = c.pos;
        uint64_t cycle = get_var(&c);
        (void)body;
        if (count != n)
            return parse_error(err, name, cnt_at, "END counts %llu events but the trace has %llu",
                               (unsigned long long)count, (unsigned long long)n);
        if (status > 1)
            return parse_error(err, name, st_at, "END status %llu is not 0 or 1", (unsigned long long)status);
        if (cycle < ev.cycle)
            return parse_error(err, name, cy_at, "END cycle %llu is before the last event's",
                               (unsigned long long)cycle);
        uint32_t stored = rd_u32le(r->data + pos - 4);
        if (!(flags & TRACE_READ_NO_CRC)) {
            uint32_t crc = trace_crc32(0, r->data, pos - 4);
            if (crc != stored)
                return parse_error(err, name, pos - 4,
                                   "CRC-32 0x%08x does not match the contents (0x%08x): the trace is corrupt",
                                   stored, crc);
        }
        if (pos != r->len)
            return parse_error(err, name, pos, "%zu bytes after the END record", r->len - pos);
        r->nevents = n;
        r->end_status = (int)status;
        r->end_cycle = cycle;
        return SIM_OK;
    }
}

/* Open data (malloc'd, len bytes), which the reader takes over. */
static TraceReader *open_owned(const char *name, uint8_t *data, size_t len, unsigned flags, SimError *err)
{
    TraceReader *r = calloc(1, sizeof *r);
    if (!r) {
        free(data);
        sim_error_set(err, SIM_ERR_NOMEM, name, 0, 0, "out of memory");
        return NULL;
    }
    r->data = data;
    r->len = len;
    if (read_header(r, name, err) || read_events(r, name, flags, err)) {
        trace_close(r);
        return NULL;
    }
    trace_rewind(r);
    return r;
}

TraceReader *trace_open_mem(const char *name, const void *data, size_t len, unsigned flags, SimError *err)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        sim_error_set(err, SIM_ERR_NOMEM, name, 0, 0, "out of memory");
        return NULL;
    }
    if (len)
        memcpy(copy, data, len);
    return open_owned(name, copy, len, flags, err);
}

TraceReader *trace_open_file(const char *path, SimError *err)
{
    /* a regular file only, and no more than TRACE_READ_MAX bytes of it: a
     * device such as /dev/zero or a FIFO is refused before any read */
    size_t len;
    char *buf = file_read_all(path, TRACE_READ_MAX, "trace", &len, err);
    if (!buf)
        return NULL;
    return open_owned(path, (uint8_t *)buf, len, 0, err); /* no second copy of a big file */
}

void trace_close(TraceReader *r)
{
    if (!r)
        return;
    if (r->strings)
        for (uint32_t i = 0; i < r->nstrings; i++)
            free(r->strings[i]);
    free(r->strings);
    free(r->data);
    free(r);
}

const TraceLaunch *trace_launch(const TraceReader *r) { return &r->launch; }
uint32_t trace_nstrings(const TraceReader *r) { return r->nstrings; }
const char *trace_string(const TraceReader *r, uint32_t i) { return i < r->nstrings ? r->strings[i] : ""; }
uint64_t trace_nblocks(const TraceReader *r) { return r->nblocks; }
uint64_t trace_nevents(const TraceReader *r) { return r->nevents; }
int trace_end_status(const TraceReader *r) { return r->end_status; }
unsigned trace_version(const TraceReader *r) { return r->version; }
uint64_t trace_end_cycle(const TraceReader *r) { return r->end_cycle; }
size_t trace_size(const TraceReader *r) { return r->len; }

void trace_rewind(TraceReader *r)
{
    r->pos = r->events_at;
    r->prev_block = 0;
    r->prev_cycle = 0;
}

bool trace_next(TraceReader *r, TraceEvent *ev)
{
    const char *why;
    size_t at;
    if (r->pos >= r->len)
        return false;
    size_t pos = r->pos;
    if (!decode(r, &pos, &r->prev_block, &r->prev_cycle, ev, &why, &at) || ev->type == TRACE_EV_END) {
        r->pos = r->len;
        return false;
    }
    r->pos = pos;
    return true;
}
