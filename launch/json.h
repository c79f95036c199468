/* json.h: a small JSON reader for the files warpsim writes and reads back
 * (hardware recordings, traces/hw/).  It parses a whole text into a tree;
 * bad input is an error with its line and column, never a crash. */
#ifndef WARPSIM_JSON_H
#define WARPSIM_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonType;

typedef struct JsonValue JsonValue;
struct JsonValue {
    JsonType type;
    bool boolean;
    double number;
    char *string;        /* JSON_STRING: NUL-terminated, unescaped */
    JsonValue *items;    /* JSON_ARRAY / JSON_OBJECT: n values */
    char **keys;         /* JSON_OBJECT: n keys */
    size_t n;
};

/* Parse text (len bytes).  A tree to free with json_free, or NULL with msg
 * ("line 3, column 9: expected ':'"). */
JsonValue *json_parse(const char *text, size_t len, char *msg, size_t cap);
void json_free(JsonValue *v);

/* Member `key` of object o (NULL when o is not an object or lacks it). */
const JsonValue *json_get(const JsonValue *o, const char *key);
/* Its string, or NULL when absent or not a string. */
const char *json_get_string(const JsonValue *o, const char *key);
/* Its number, or dflt when absent or not a number. */
double json_get_number(const JsonValue *o, const char *key, double dflt);

#endif
