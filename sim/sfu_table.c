/* sfu_table.c: decodes the embedded SFU tables (sfu_table.h) on first use.
 *
 * Blob layout (written by scripts/sfu/sfu_pack.c): "WSFUTAB1", then records
 * of a 16-byte name, the entry count and the compressed length (u32 little
 * endian) and a zlib stream.  The stream holds, per entry, the second
 * difference of the order-preserving integer view of the value as a zigzag
 * varint: the SFU's results are smooth, so these are mostly 0 and +-1. */
#include "sfu_table.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

extern const unsigned char sfu_blob_start[], sfu_blob_end[];

static const struct { const char *name; size_t n; } tabs[SFU_T_COUNT] = {
    [SFU_T_RCP] = {"rcp", 1u << 23},        [SFU_T_RSQ] = {"rsqrt", 1u << 24},
    [SFU_T_SQRT] = {"sqrt", 1u << 24},      [SFU_T_EX2] = {"ex2", 1u << 24},
    [SFU_T_LG2] = {"lg2", 1u << 24},        [SFU_T_SIN] = {"sin", 1u << 24},
    [SFU_T_RCP64H] = {"rcp64h", 1u << 20},  [SFU_T_TANH] = {"tanh", (8u << 19) + (3u << 21)},
    [SFU_T_EX2_F16] = {"ex2_f16", 1u << 16}, [SFU_T_EX2_BF16] = {"ex2_bf16", 1u << 16},
    [SFU_T_TANH_F16] = {"tanh_f16", 1u << 16}, [SFU_T_TANH_BF16] = {"tanh_bf16", 1u << 16},
};

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t value_of(int64_t ord)
{
    return ord < 0 ? (uint32_t)(-(ord + 1)) | 0x80000000u : (uint32_t)ord;
}

/* Inflate src into the varint decoder, one buffer at a time. */
static SimStatus decode_stream(const unsigned char *src, size_t len, const char *name,
                               uint32_t *out, size_t n, SimError *err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "SFU table %s: zlib init failed", name);
    unsigned char buf[1 << 16];
    z.next_in = (unsigned char *)src;
    z.avail_in = (uInt)len;
    size_t k = 0;
    uint64_t acc = 0;
    int shift = 0, rc = Z_OK;
    int64_t p = 0, pp = 0;
    SimStatus st = SIM_OK;
    while (rc != Z_STREAM_END) {
        z.next_out = buf;
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            st = sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU table %s: damaged zlib stream (%d)", name, rc);
            goto done;
        }
        size_t got = sizeof buf - z.avail_out;
        for (size_t i = 0; i < got; i++) {
            acc |= (uint64_t)(buf[i] & 127) << shift;
            shift += 7;
            if (buf[i] & 128) {
                if (shift > 63) {
                    st = sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU table %s: bad varint", name);
                    goto done;
                }
                continue;
            }
            if (k == n) {
                st = sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU table %s: more than %zu entries", name, n);
                goto done;
            }
            int64_t d = (int64_t)(acc >> 1) ^ -(int64_t)(acc & 1);
            int64_t s = d + 2 * p - pp;
            pp = p;
            p = s;
            out[k++] = value_of(s);
            acc = 0;
            shift = 0;
        }
        if (rc == Z_OK && got == 0 && z.avail_in == 0) {
            st = sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU table %s: truncated zlib stream", name);
            goto done;
        }
    }
    if (k != n || shift)
        st = sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU table %s: %zu entries, %zu expected", name, k, n);
done:
    inflateEnd(&z);
    return st;
}

SimStatus sfu_blob_decode(const unsigned char *blob, size_t len, const char *name,
                          uint32_t *out, size_t n, SimError *err)
{
    if (len < 8 || memcmp(blob, "WSFUTAB1", 8))
        return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU tables: bad magic");
    size_t o = 8;
    while (o + 24 <= len) {
        uint32_t cnt = get32(blob + o + 16), zl = get32(blob + o + 20);
        if (zl > len - o - 24)
            return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU tables: record past the end");
        if (!strncmp((const char *)blob + o, name, 16)) {
            if (cnt != n)
                return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU table %s: %u entries, %zu expected",
                                     name, cnt, n);
            return decode_stream(blob + o + 24, zl, name, out, n, err);
        }
        o += 24 + (size_t)zl;
    }
    return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "SFU table %s: not in the blob", name);
}

static _Atomic(uint32_t *) loaded[SFU_T_COUNT];
static SimError failure[SFU_T_COUNT];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

const uint32_t *sfu_table(SfuTable t)
{
    if ((unsigned)t >= SFU_T_COUNT)
        return NULL;
    uint32_t *p = atomic_load_explicit(&loaded[t], memory_order_acquire);
    if (p)
        return p;
    pthread_mutex_lock(&lock);
    p = atomic_load_explicit(&loaded[t], memory_order_relaxed);
    if (!p && failure[t].status == SIM_OK) {
        p = malloc(tabs[t].n * sizeof *p);
        if (!p)
            sim_error_set(&failure[t], SIM_ERR_NOMEM, "", 0, 0,
                          "SFU table %s: out of memory (%zu bytes)", tabs[t].name, tabs[t].n * 4);
        else if (sfu_blob_decode(sfu_blob_start, (size_t)(sfu_blob_end - sfu_blob_start), tabs[t].name,
                                 p, tabs[t].n, &failure[t]) != SIM_OK) {
            free(p);
            p = NULL;
        } else
            atomic_store_explicit(&loaded[t], p, memory_order_release);
    }
    pthread_mutex_unlock(&lock);
    return p;
}

size_t sfu_table_size(SfuTable t)
{
    return (unsigned)t < SFU_T_COUNT ? tabs[t].n : 0;
}

const char *sfu_table_name(SfuTable t)
{
    return (unsigned)t < SFU_T_COUNT ? tabs[t].name : "?";
}

SimStatus sfu_table_require(SfuTable t, SimError *err)
{
    if ((unsigned)t >= SFU_T_COUNT)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "no SFU table %d", (int)t);
    if (sfu_table(t))
        return SIM_OK;
    pthread_mutex_lock(&lock);
    SimError f = failure[t];
    pthread_mutex_unlock(&lock);
    return sim_error_set(err, f.status, "", 0, 0, "%s", f.msg);
}

static bool inst_has(const PtxInst *in, const char *m)
{
    for (int i = 0; i < in->n_mods; i++)
        if (!strcmp(in->mods[i], m))
            return true;
    return false;
}

int sfu_inst_table(const PtxInst *in)
{
    const char *op = in->opcode;
    bool approx = inst_has(in, "approx");
    bool half = inst_has(in, "f16") || inst_has(in, "f16x2");
    bool bhalf = inst_has(in, "bf16") || inst_has(in, "bf16x2");
    if (!strcmp(op, "div"))
        return approx || inst_has(in, "full") ? SFU_T_RCP : -1;
    if (!approx)
        return -1;
    if (!strcmp(op, "rcp")) return inst_has(in, "f64") ? SFU_T_RCP64H : SFU_T_RCP;
    if (!strcmp(op, "sqrt")) return SFU_T_SQRT;
    if (!strcmp(op, "rsqrt")) return inst_has(in, "f64") ? -1 : SFU_T_RSQ;
    if (!strcmp(op, "ex2")) return half ? SFU_T_EX2_F16 : bhalf ? SFU_T_EX2_BF16 : SFU_T_EX2;
    if (!strcmp(op, "lg2")) return SFU_T_LG2;
    if (!strcmp(op, "sin") || !strcmp(op, "cos")) return SFU_T_SIN;
    if (!strcmp(op, "tanh")) return half ? SFU_T_TANH_F16 : bhalf ? SFU_T_TANH_BF16 : SFU_T_TANH;
    return -1;
}
