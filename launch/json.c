/* json.c: recursive-descent JSON reader (RFC 8259, \u escapes to UTF-8,
 * nesting limited so that hostile input cannot exhaust the stack). */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef struct {
    const char *s, *end, *p;
    char *msg;
    size_t cap;
    bool failed;
} JsonParser;

static bool fail(JsonParser *j, const char *what)
{
    if (j->failed)
        return false;
    int line = 1, col = 1;
    for (const char *q = j->s; q < j->p; q++, col++)
        if (*q == '\n')
            line++, col = 0;
    snprintf(j->msg, j->cap, "line %d, column %d: %s", line, col, what);
    j->failed = true;
    return false;
}

static void skip_ws(JsonParser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static bool parse_value(JsonParser *j, JsonValue *v, int depth);

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool parse_string(JsonParser *j, char **out)
{
    j->p++; /* the opening quote */
    size_t cap = 16, n = 0;
    char *b = malloc(cap);
    if (!b)
        return fail(j, "out of memory");
    for (;;) {
        if (j->p >= j->end) {
            free(b);
            return fail(j, "unterminated string");
        }
        unsigned char c = (unsigned char)*j->p++;
        char tmp[4];
        size_t k = 1;
        tmp[0] = (char)c;
        if (c == '"')
            break;
        if (c < 0x20) {
            free(b);
            j->p--;
            return fail(j, "control character in a string");
        }
        if (c == '\\') {
            char e = j->p < j->end ? *j->p++ : 0;
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *at = e ? strchr(from, e) : NULL;
            if (at) {
                tmp[0] = to[at - from];
            } else if (e == 'u' && j->end - j->p >= 4) {
                unsigned u = 0;
                for (int i = 0; i < 4; i++) {
                    int h = hexval(j->p[i]);
                    if (h < 0) {
                        free(b);
                        return fail(j, "bad \\u escape");
                    }
                    u = u * 16 + (unsigned)h;
                }
                j->p += 4;
                if (u < 0x80) {
                    tmp[0] = (char)u;
                } else if (u < 0x800) {
                    tmp[0] = (char)(0xc0 | (u >> 6)), tmp[1] = (char)(0x80 | (u & 0x3f)), k = 2;
                } else {
                    tmp[0] = (char)(0xe0 | (u >> 12)), tmp[1] = (char)(0x80 | ((u >> 6) & 0x3f));
                    tmp[2] = (char)(0x80 | (u & 0x3f)), k = 3;
                }
            } else {
                free(b);
                return fail(j, "bad escape in a string");
            }
        }
        if (n + k + 1 > cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                return fail(j, "out of memory");
            }
            b = nb;
        }
        memcpy(b + n, tmp, k);
        n += k;
    }
    b[n] = 0;
    *out = b;
    return true;
}

/* Arrays and objects: items (and keys) grown as they come. */
static bool parse_container(JsonParser *j, JsonValue *v, int depth, bool object)
{
    char close = object ? '}' : ']';
    v->type = object ? JSON_OBJECT : JSON_ARRAY;
    j->p++;
    skip_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return true;
    }
    size_t room = 0;
    for (;;) {
        if (v->n == room) {
            room = room ? 2 * room : 4;
            JsonValue *ni = realloc(v->items, room * sizeof *ni);
            if (ni)
                v->items = ni;
            char **nk = object && ni ? realloc(v->keys, room * sizeof *nk) : NULL;
            if (nk)
                v->keys = nk;
            if (!ni || (object && !nk))
                return fail(j, "out of memory");
        }
        skip_ws(j);
        if (object) {
            if (j->p >= j->end || *j->p != '"')
                return fail(j, "expected a string key");
            if (!parse_string(j, &v->keys[v->n]))
                return false;
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':') {
                free(v->keys[v->n]);
                return fail(j, "expected ':'");
            }
            j->p++;
        }
        memset(&v->items[v->n], 0, sizeof *v->items);
        v->n++;
        if (!parse_value(j, &v->items[v->n - 1], depth + 1))
            return false;
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return true;
        }
        return fail(j, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static bool parse_value(JsonParser *j, JsonValue *v, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return fail(j, "nested too deeply");
    skip_ws(j);
    if (j->p >= j->end)
        return fail(j, "unexpected end of input");
    char c = *j->p;
    if (c == '{' || c == '[')
        return parse_container(j, v, depth, c == '{');
    if (c == '"') {
        v->type = JSON_STRING;
        return parse_string(j, &v->string);
    }
    static const char *const words[] = {"null", "true", "false"};
    for (int i = 0; i < 3; i++) {
        size_t k = strlen(words[i]);
        if ((size_t)(j->end - j->p) >= k && !memcmp(j->p, words[i], k)) {
            v->type = i ? JSON_BOOL : JSON_NULL;
            v->boolean = i == 1;
            j->p += k;
            return true;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char num[64];
        size_t k = 0;
        while (j->p + k < j->end && k < sizeof num - 1 && strchr("+-0123456789.eE", j->p[k]))
            k++;
        memcpy(num, j->p, k);
        num[k] = 0;
        char *e;
        v->number = strtod(num, &e);
        if (*e || k == sizeof num - 1)
            return fail(j, "bad number");
        v->type = JSON_NUMBER;
        j->p += k;
        return true;
    }
    return fail(j, "expected a value");
}

static void free_inner(JsonValue *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free_inner(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
}

void json_free(JsonValue *v)
{
    if (v) {
        free_inner(v);
        free(v);
    }
}

JsonValue *json_parse(const char *text, size_t len, char *msg, size_t cap)
{
    JsonParser j = {.s = text, .end = text + len, .p = text, .msg = msg, .cap = cap};
    JsonValue *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(msg, cap, "out of memory");
        return NULL;
    }
    if (parse_value(&j, v, 0)) {
        skip_ws(&j);
        if (j.p == j.end)
            return v;
        fail(&j, "text after the value");
    }
    json_free(v);
    return NULL;
}

const JsonValue *json_get(const JsonValue *o, const char *key)
{
    if (!o || o->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->keys[i], key))
            return &o->items[i];
    return NULL;
}

const char *json_get_string(const JsonValue *o, const char *key)
{
    const JsonValue *v = json_get(o, key);
    return v && v->type == JSON_STRING ? v->string : NULL;
}

double json_get_number(const JsonValue *o, const char *key, double dflt)
{
    const JsonValue *v = json_get(o, key);
    return v && v->type == JSON_NUMBER ? v->number : dflt;
}
