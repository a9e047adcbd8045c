/* The JSON Lines readers' compiled scanner (optional: ts_eval/io/jsonl_scan.py scans with numpy without it).
 *
 * scan() reads one chunk of JSON Lines records -- the lines data[starts[i]..ends[i]) -- in one pass, each
 * line as one JSON object whose top-level keys are walked: the main key (the token list "tokens", an array
 * of strings; or the text key, one string), the aux key ("tags", an array of strings, one per token; or
 * "spans", an array of {"start": int, "end": int, "label": str} objects) and the id key (a string, an
 * integer or null) are read; every other key's value is only checked to be JSON (the readers do not look at
 * it).  It gives the byte range of every token (or text), the tags as ids into the chunk's distinct values,
 * the spans' integers and labels, and the records' ids as strings.
 *
 * It is a fast path only.  A line it does not recognise -- any backslash (an escape to decode), a control
 * byte in a string, a key of the readers' twice, a missing one, an empty token list, tags not one per
 * token, a span out of its record's tokens (or text), a number json reads as a float or as a huge integer,
 * deep nesting, a key the caller rejects, anything that is not JSON -- makes scan() return None: the caller
 * then reads the chunk the numpy or the json way, which read it as before and raise every error with its
 * message.  What scan() accepts, json.loads reads the same way (the file was checked to be UTF-8 by the
 * caller).  Every read is bounds-checked against the line's end; every write against the output's size.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(PORTABLE)
#define WORDS 1     /* strings read 8 bytes at a time; -DPORTABLE builds the plain C way (to test it) */
#endif

enum { GOOD = 0, GIVE_BACK = 1, FAILED = -1 };    /* a line read, left to the caller's other ways, an exception */
enum { AUX_NONE = 0, AUX_TAGS = 1, AUX_SPANS = 2 };

#define MAX_DEPTH 64          /* deeper values are left to json (which has its own recursion limit) */
#define MAX_NUMBER 100        /* longer numbers are left to json (Python's limit on an int's digits) */
#define MAX_OFFSET_DIGITS 18  /* span offsets and integer ids: at most 18 digits (fit int64) */

/* ---------------------------------------------------------------- growable outputs */

typedef struct {        /* an array of items of `size` bytes that grows (PyMem) */
    char *buf;
    Py_ssize_t n, cap, size;
} Out;

/* Room for one more item: its address, or NULL with MemoryError set. */
static void *push(Out *o)
{
    if (o->n == o->cap) {
        Py_ssize_t cap = o->cap ? 2 * o->cap : 1024;
        if (cap > PY_SSIZE_T_MAX / o->size) {
            PyErr_NoMemory();
            return NULL;
        }
        char *buf = PyMem_Realloc(o->buf, cap * o->size);
        if (!buf) {
            PyErr_NoMemory();
            return NULL;
        }
        o->buf = buf;
        o->cap = cap;
    }
    return o->buf + o->size * o->n++;
}

/* The items as a bytearray (for numpy.frombuffer, writable), or NULL with an exception set. */
static PyObject *as_bytearray(const Out *o)
{
    return PyByteArray_FromStringAndSize(o->n ? o->buf : "", o->n * o->size);
}

/* ---------------------------------------------------------------- the distinct strings of a chunk */

typedef struct {
    Py_ssize_t start, len;    /* the value's bytes in the data */
    uint64_t hash;
    PyObject *str;            /* the value decoded */
} Value;

typedef struct {
    Value *values;            /* in the order first seen */
    Py_ssize_t n, cap;
    Py_ssize_t *slots;        /* open addressing, linear probing: index into values, -1 empty */
    Py_ssize_t mask;
} Strings;

static uint64_t hash_bytes(const unsigned char *p, Py_ssize_t len)
{   /* a value of up to 7 bytes: its bytes and its length in the top byte (two such values are equal exactly
     * when their keys are); longer: FNV-1a with the top byte 0x80 (then compared byte for byte) */
    uint64_t h = 0;
    if (len < 8) {
        for (Py_ssize_t i = 0; i < len; i++)
            h |= (uint64_t)p[i] << (8 * i);
        return h | ((uint64_t)len << 56);
    }
    h = 0xcbf29ce484222325ULL;
    for (Py_ssize_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return (h & 0x00FFFFFFFFFFFFFFULL) | (0x80ULL << 56);
}

static Py_ssize_t slot_of(const Strings *t, uint64_t h)
{   /* multiplicative: the short keys differ in their low bytes and in the top one */
    return (Py_ssize_t)(((h * 0x9E3779B97F4A7C15ULL) >> 32) & (uint64_t)t->mask);
}

static int strings_resize(Strings *t, Py_ssize_t nslots)
{
    Py_ssize_t *slots = PyMem_Malloc(nslots * sizeof(Py_ssize_t));
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < nslots; s++)
        slots[s] = -1;
    PyMem_Free(t->slots);
    t->slots = slots;
    t->mask = nslots - 1;
    for (Py_ssize_t i = 0; i < t->n; i++) {
        Py_ssize_t s = slot_of(t, t->values[i].hash);
        while (slots[s] >= 0)
            s = (s + 1) & t->mask;
        slots[s] = i;
    }
    return 0;
}

/* The index of the string d[start..start+len) among the chunk's distinct values (added, decoded, if new);
 * -1 with an exception set. */
static Py_ssize_t strings_id(Strings *t, const unsigned char *d, Py_ssize_t start, Py_ssize_t len)
{
    const uint64_t h = hash_bytes(d + start, len);
    Py_ssize_t s = slot_of(t, h);
    for (;; s = (s + 1) & t->mask) {
        const Py_ssize_t i = t->slots[s];
        if (i < 0)
            break;
        const Value *v = &t->values[i];
        if (v->hash == h && (len < 8 || (v->len == len && memcmp(d + v->start, d + start, len) == 0)))
            return i;
    }
    if (t->n == t->cap) {
        Py_ssize_t cap = t->cap ? 2 * t->cap : 16;
        Value *values = PyMem_Realloc(t->values, cap * sizeof(Value));
        if (!values) {
            PyErr_NoMemory();
            return -1;
        }
        t->values = values;
        t->cap = cap;
    }
    PyObject *str = PyUnicode_DecodeUTF8((const char *)d + start, len, "strict");
    if (!str)
        return -1;
    t->values[t->n] = (Value){start, len, h, str};
    t->slots[s] = t->n;
    t->n++;
    if (2 * t->n > t->mask && strings_resize(t, 2 * (t->mask + 1)) < 0)
        return -1;
    return t->n - 1;
}

static void strings_free(Strings *t)
{
    for (Py_ssize_t i = 0; i < t->n; i++)
        Py_DECREF(t->values[i].str);
    PyMem_Free(t->values);
    PyMem_Free(t->slots);
}

/* ---------------------------------------------------------------- reading one line */

typedef struct {
    const unsigned char *d;
    Py_ssize_t end;           /* the current line's end: no read at or beyond it */
    /* what is looked for */
    const char *main_key, *aux_key, *id_key;
    Py_ssize_t main_len, aux_len, id_len;
    int text;                 /* the main key holds one string (a text), not an array of strings */
    int aux;                  /* AUX_NONE, AUX_TAGS or AUX_SPANS */
    PyObject *reject;         /* a tuple of keys (bytes) that make a line go back */
    /* the outputs */
    Out tok_start, tok_len, tok_count;    /* int64, int32, int64 (per line) */
    Out tag_id;                           /* int32, per tag */
    Out span_count, span_start, span_end; /* int64 (per line), int64, int64 */
    Strings values;                       /* tag values, or span labels */
    PyObject *labels;                     /* a list: each span's label (the Strings' object) */
    PyObject *ids;                        /* a list: each record's id (str or None) */
} Scan;

static inline int is_ws(unsigned char c)
{   /* JSON whitespace inside a line (no line feed there) */
    return c == ' ' || c == '\t' || c == '\r';
}

static inline Py_ssize_t skip_ws(const Scan *s, Py_ssize_t p)
{
    while (p < s->end && is_ws(s->d[p]))
        p++;
    return p;
}

/* A string whose opening quote is at p: the position after its closing quote, -1 if it is not one the scan
 * reads (a backslash, a control byte, no closing quote before the line's end).  Its content: p+1..ret-1. */
static Py_ssize_t string_at(const Scan *s, Py_ssize_t p)
{
    const unsigned char *d = s->d;
    if (p >= s->end || d[p] != '"')
        return -1;
    p++;
#ifdef WORDS
    /* 8 bytes at a time while none of them is a quote, a backslash or below 0x20 (the classic "has a zero
     * byte" test of the word xor quotes, xor backslashes, and "has a byte below 0x20"; a flag above a true one
     * may be false: the word is then read byte by byte) */
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    for (; p + 8 <= s->end; p += 8) {
        uint64_t w, q, b;
        memcpy(&w, d + p, 8);
        q = w ^ (ones * '"');
        b = w ^ (ones * '\\');
        if ((((q - ones) & ~q) | ((b - ones) & ~b) | ((w - 0x20 * ones) & ~w)) & highs)
            break;
    }
#endif
    for (; p < s->end; p++) {
        const unsigned char c = d[p];
        if (c == '"')
            return p + 1;
        if (c == '\\' || c < 0x20)
            return -1;
    }
    return -1;
}

/* After an item of an array or object (p: the position after it): whitespace, then the closing bracket
 * `close` (*done set; the position after it) or a comma and whitespace (the next item's position); -1 when
 * neither (or p is -1 already). */
static Py_ssize_t next_item(const Scan *s, Py_ssize_t p, unsigned char close, int *done)
{
    if (p < 0)
        return -1;
    p = skip_ws(s, p);
    if (p >= s->end)
        return -1;
    *done = s->d[p] == close;
    if (*done)
        return p + 1;
    return s->d[p] == ',' ? skip_ws(s, p + 1) : -1;
}

/* The opening bracket `open` at p, then whitespace: the first item's position, or (*done set, the array or
 * object empty) the position after its closing bracket; -1 when there is no such bracket at p. */
static Py_ssize_t first_item(const Scan *s, Py_ssize_t p, unsigned char open, int *done)
{
    if (p >= s->end || s->d[p] != open)
        return -1;
    p = skip_ws(s, p + 1);
    *done = p < s->end && s->d[p] == (open == '[' ? ']' : '}');
    return *done ? p + 1 : p;
}

/* A key and its colon at p (whitespace around the colon): the position of its value, -1 when it is not one;
 * the key's content is d[*k..*k + *klen). */
static Py_ssize_t key_at(const Scan *s, Py_ssize_t p, Py_ssize_t *k, Py_ssize_t *klen)
{
    const Py_ssize_t q = string_at(s, p);
    if (q < 0)
        return -1;
    *k = p + 1;
    *klen = q - p - 2;
    p = skip_ws(s, q);
    if (p >= s->end || s->d[p] != ':')
        return -1;
    return skip_ws(s, p + 1);
}

/* A JSON number at p as json reads it: the position after it, -1 if it is not one (or too long);
 * *integer: it has no fraction and no exponent (json reads an int); *digits: its integer part's digits. */
static Py_ssize_t number_at(const Scan *s, Py_ssize_t p, int *integer, Py_ssize_t *digits)
{
    const unsigned char *d = s->d;
    const Py_ssize_t p0 = p;
    *integer = 1;
    if (p < s->end && d[p] == '-')
        p++;
    const Py_ssize_t q = p;
    if (p < s->end && d[p] == '0')
        p++;
    else if (p < s->end && d[p] >= '1' && d[p] <= '9')
        while (p < s->end && d[p] >= '0' && d[p] <= '9')
            p++;
    else
        return -1;
    *digits = p - q;
    if (p < s->end && d[p] == '.') {
        *integer = 0;
        const Py_ssize_t f = ++p;
        while (p < s->end && d[p] >= '0' && d[p] <= '9')
            p++;
        if (p == f)
            return -1;
    }
    if (p < s->end && (d[p] == 'e' || d[p] == 'E')) {
        *integer = 0;
        p++;
        if (p < s->end && (d[p] == '+' || d[p] == '-'))
            p++;
        const Py_ssize_t f = p;
        while (p < s->end && d[p] >= '0' && d[p] <= '9')
            p++;
        if (p == f)
            return -1;
    }
    return p - p0 > MAX_NUMBER ? -1 : p;
}

/* A non-negative integer of at most MAX_OFFSET_DIGITS digits at p (json reads an int): the position after
 * it and its value in *value, -1 if it is not one. */
static Py_ssize_t offset_at(const Scan *s, Py_ssize_t p, int64_t *value)
{
    int integer;
    Py_ssize_t digits;
    const Py_ssize_t q = number_at(s, p, &integer, &digits);
    if (q < 0 || !integer || s->d[p] == '-' || digits > MAX_OFFSET_DIGITS)
        return -1;
    int64_t v = 0;
    for (Py_ssize_t i = p; i < q; i++)
        v = 10 * v + (s->d[i] - '0');
    *value = v;
    return q;
}

/* Any JSON value at p: the position after it, -1 if the scan does not take it. */
static Py_ssize_t value_at(const Scan *s, Py_ssize_t p, int depth)
{
    const unsigned char *d = s->d;
    if (p >= s->end || depth > MAX_DEPTH)
        return -1;
    const unsigned char c = d[p];
    if (c == '"')
        return string_at(s, p);
    if (c == '{' || c == '[') {
        const unsigned char close = c == '{' ? '}' : ']';
        int done = 0;
        for (p = first_item(s, p, c, &done); p >= 0 && !done;) {
            Py_ssize_t k, klen;
            if (c == '{')             /* a key, a colon */
                p = key_at(s, p, &k, &klen);
            p = next_item(s, p < 0 ? -1 : value_at(s, p, depth + 1), close, &done);
        }
        return p;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        int integer;
        Py_ssize_t digits;
        return number_at(s, p, &integer, &digits);
    }
    static const char *const words[] = {"true", "false", "null"};
    for (int w = 0; w < 3; w++) {
        const Py_ssize_t n = (Py_ssize_t)strlen(words[w]);
        if (p + n <= s->end && memcmp(d + p, words[w], n) == 0)
            return p + n;
    }
    return -1;
}

/* An array of strings at p ("tokens", "tags"): each string's content range pushed (tokens) or its value id
 * (tags); the position after the array, -1 if it is not one; *count: its strings. */
static Py_ssize_t strings_array(Scan *s, Py_ssize_t p, int tags, Py_ssize_t *count, int *failed)
{
    const unsigned char *d = s->d;
    int done = 0;
    *count = 0;
    p = first_item(s, p, '[', &done);
    if (p < 0 || done)
        return p;
    for (;;) {
        const Py_ssize_t q = string_at(s, p);
        if (q < 0)
            return -1;
        if (tags) {
            const Py_ssize_t id = strings_id(&s->values, d, p + 1, q - p - 2);
            int32_t *slot = id < 0 ? NULL : push(&s->tag_id);
            if (!slot) {
                *failed = 1;
                return -1;
            }
            *slot = (int32_t)id;
        } else {
            int64_t *start = push(&s->tok_start);
            int32_t *len = start ? push(&s->tok_len) : NULL;
            if (!len || q - p - 2 > INT32_MAX) {
                if (len)
                    PyErr_SetString(PyExc_OverflowError, "a token of more than 2**31 bytes");
                *failed = 1;
                return -1;
            }
            *start = p + 1;
            *len = (int32_t)(q - p - 2);
        }
        (*count)++;
        p = next_item(s, q, ']', &done);
        if (p < 0 || done)
            return p;
    }
}

/* One span object at p: {"start": int, "end": int, "label": "non-empty"} (keys in any order, other keys'
 * values skipped); its values pushed; the position after it, -1 if it is not one. */
static Py_ssize_t span_object(Scan *s, Py_ssize_t p, int *failed)
{
    const unsigned char *d = s->d;
    int64_t start = 0, end = 0;
    Py_ssize_t label = -1;
    int seen = 0, done = 0;           /* seen: bits start, end, label */
    p = first_item(s, p, '{', &done);
    if (p < 0 || done)
        return -1;                    /* not an object, or {}: not a span */
    while (!done) {
        Py_ssize_t k, klen;
        p = key_at(s, p, &k, &klen);
        if (p < 0)
            return -1;
        int bit = 0;
        if (klen == 5 && memcmp(d + k, "start", 5) == 0)
            bit = 1;
        else if (klen == 3 && memcmp(d + k, "end", 3) == 0)
            bit = 2;
        else if (klen == 5 && memcmp(d + k, "label", 5) == 0)
            bit = 4;
        if (bit & seen)
            return -1;                /* a key twice: json keeps the last; left to it */
        seen |= bit;
        if (bit == 1 || bit == 2) {
            p = offset_at(s, p, bit == 1 ? &start : &end);
        } else if (bit == 4) {
            const Py_ssize_t v = string_at(s, p);
            if (v < 0 || v - p == 2)
                return -1;            /* not a string, or an empty label */
            label = strings_id(&s->values, d, p + 1, v - p - 2);
            if (label < 0) {
                *failed = 1;
                return -1;
            }
            p = v;
        } else {
            p = value_at(s, p, 2);
        }
        p = next_item(s, p, '}', &done);
        if (p < 0)
            return -1;
    }
    if (seen != 7)
        return -1;
    int64_t *a = push(&s->span_start), *b = a ? push(&s->span_end) : NULL;
    if (!b || PyList_Append(s->labels, s->values.values[label].str) < 0) {
        *failed = 1;
        return -1;
    }
    *a = start;
    *b = end;
    return p;
}

/* An array of spans at p: the position after it, -1 if it is not one; *count: its spans. */
static Py_ssize_t spans_array(Scan *s, Py_ssize_t p, Py_ssize_t *count, int *failed)
{
    int done = 0;
    *count = 0;
    p = first_item(s, p, '[', &done);
    if (p < 0 || done)
        return p;
    for (;;) {
        p = next_item(s, span_object(s, p, failed), ']', &done);
        if (p < 0)
            return -1;
        (*count)++;
        if (done)
            return p;
    }
}

static int key_is(const Scan *s, Py_ssize_t k, Py_ssize_t klen, const char *key, Py_ssize_t len)
{
    return key && klen == len && memcmp(s->d + k, key, len) == 0;
}

/* Whether the key d[k..k+klen) is one of the caller's rejected keys. */
static int rejected(const Scan *s, Py_ssize_t k, Py_ssize_t klen)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(s->reject); i++) {
        PyObject *key = PyTuple_GET_ITEM(s->reject, i);
        if (PyBytes_GET_SIZE(key) == klen && memcmp(PyBytes_AS_STRING(key), s->d + k, klen) == 0)
            return 1;
    }
    return 0;
}

/* The id value at p (a string, an integer, null): its Python value in *id (a new reference); the position
 * after it, -1 if it is another value (or an integer json would not print as it is written: -0). */
static Py_ssize_t id_at(const Scan *s, Py_ssize_t p, PyObject **id, int *failed)
{
    const unsigned char *d = s->d;
    Py_ssize_t q;
    if (p < s->end && d[p] == '"') {
        q = string_at(s, p);
        if (q < 0)
            return -1;
        *id = PyUnicode_DecodeUTF8((const char *)d + p + 1, q - p - 2, "strict");
    } else if (p + 4 <= s->end && memcmp(d + p, "null", 4) == 0) {
        q = p + 4;
        *id = (Py_INCREF(Py_None), Py_None);
    } else {
        int integer;
        Py_ssize_t digits;
        q = number_at(s, p, &integer, &digits);
        if (q < 0 || !integer || digits > MAX_OFFSET_DIGITS || (q - p == 2 && d[p] == '-' && d[p + 1] == '0'))
            return -1;
        *id = PyUnicode_DecodeUTF8((const char *)d + p, q - p, "strict");   /* str(int): as written */
    }
    if (!*id) {
        *failed = 1;
        return -1;
    }
    return q;
}

/* Read the line d[p..end). */
static int scan_line(Scan *s, Py_ssize_t p, Py_ssize_t end)
{
    s->end = end;
    const Py_ssize_t span0 = s->span_start.n;     /* the line's first span */
    Py_ssize_t ntok = -1, naux = -1;
    int64_t limit = 0;                /* a span's end at most: its record's tokens, or its text's bytes */
    PyObject *id = NULL;
    int failed = 0, done = 0;
    p = first_item(s, skip_ws(s, p), '{', &done);
    if (p < 0 || done)
        return GIVE_BACK;             /* not an object, or {}: no tokens */
    while (!done) {
        Py_ssize_t k, klen;
        p = key_at(s, p, &k, &klen);
        if (p < 0)
            goto back;
        if (key_is(s, k, klen, s->main_key, s->main_len)) {
            if (ntok >= 0)
                goto back;            /* twice */
            if (s->text) {
                const Py_ssize_t v = string_at(s, p);
                int64_t *start = v < 0 ? NULL : push(&s->tok_start);
                int32_t *len = start ? push(&s->tok_len) : NULL;
                if (v < 0)
                    goto back;
                if (!len || v - p - 2 > INT32_MAX) {
                    if (len)
                        PyErr_SetString(PyExc_OverflowError, "a text of more than 2**31 bytes");
                    goto fail;
                }
                *start = p + 1;
                *len = (int32_t)(v - p - 2);
                limit = v - p - 2;
                ntok = 1;
                p = v;
            } else {
                p = strings_array(s, p, 0, &ntok, &failed);
                if (ntok == 0)
                    goto back;        /* no tokens: the other ways name the error */
                limit = ntok;
            }
        } else if (key_is(s, k, klen, s->aux_key, s->aux_len)) {
            if (naux >= 0)
                goto back;
            p = s->aux == AUX_TAGS ? strings_array(s, p, 1, &naux, &failed) : spans_array(s, p, &naux, &failed);
        } else if (key_is(s, k, klen, s->id_key, s->id_len)) {
            if (id)
                goto back;
            p = id_at(s, p, &id, &failed);
        } else if (rejected(s, k, klen)) {
            goto back;
        } else {
            p = value_at(s, p, 1);
        }
        p = next_item(s, p, '}', &done);
        if (p < 0)
            goto back;
    }
    if (skip_ws(s, p) != end || ntok < 0 || (s->aux != AUX_NONE && naux < 0))
        goto back;                    /* more after the object, no tokens, no tags or spans */
    if (s->aux == AUX_TAGS && naux != ntok)
        goto back;                    /* not a tag a token */
    if (s->aux == AUX_SPANS) {        /* every span inside its record */
        const int64_t *a = (const int64_t *)s->span_start.buf, *b = (const int64_t *)s->span_end.buf;
        for (Py_ssize_t i = span0; i < s->span_start.n; i++)
            if (a[i] >= b[i] || b[i] > limit)
                goto back;
        int64_t *c = push(&s->span_count);
        if (!c)
            goto fail;
        *c = naux;
    }
    int64_t *c = push(&s->tok_count);
    if (!c || PyList_Append(s->ids, id ? id : Py_None) < 0)
        goto fail;
    *c = ntok;
    Py_XDECREF(id);
    return GOOD;
back:
    if (failed)
        goto fail;
    Py_XDECREF(id);
    return GIVE_BACK;     /* what it pushed is dropped with the chunk */
fail:
    Py_XDECREF(id);
    return FAILED;
}

/* ---------------------------------------------------------------- scan() */

static int key_arg(PyObject *obj, const char **key, Py_ssize_t *len)
{   /* bytes, or None (no such key) */
    if (obj == Py_None) {
        *key = NULL;
        *len = 0;
        return 1;
    }
    if (!PyBytes_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "scan: keys are bytes or None");
        return 0;
    }
    *key = PyBytes_AS_STRING(obj);
    *len = PyBytes_GET_SIZE(obj);
    return 1;
}

static PyObject *scan(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data, starts, ends;
    PyObject *main_obj, *aux_obj, *id_obj, *result = NULL;
    Scan s;
    memset(&s, 0, sizeof s);
    if (!PyArg_ParseTuple(args, "y*y*y*OpOiOO!:scan", &data, &starts, &ends, &main_obj, &s.text, &aux_obj, &s.aux,
                          &id_obj, &PyTuple_Type, &s.reject))
        return NULL;
    s.d = data.buf;
    s.tok_start.size = s.span_start.size = s.span_end.size = s.span_count.size = s.tok_count.size = 8;
    s.tok_len.size = s.tag_id.size = 4;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(s.reject); i++)
        if (!PyBytes_Check(PyTuple_GET_ITEM(s.reject, i))) {
            PyErr_SetString(PyExc_TypeError, "scan: rejected keys are bytes");
            goto done;
        }
    if (!key_arg(main_obj, &s.main_key, &s.main_len) || !key_arg(aux_obj, &s.aux_key, &s.aux_len)
            || !key_arg(id_obj, &s.id_key, &s.id_len))
        goto done;
    /* bounds: int64 line ranges, each inside the data; a main key; an aux key exactly when aux is asked */
    const Py_ssize_t n = starts.len / 8;
    if (starts.itemsize != 8 || ends.itemsize != 8 || ends.len != starts.len || !s.main_key
            || s.aux < AUX_NONE || s.aux > AUX_SPANS || (s.aux != AUX_NONE) != (s.aux_key != NULL)) {
        PyErr_SetString(PyExc_ValueError, "scan: bad arguments");
        goto done;
    }
    const int64_t *a = starts.buf, *b = ends.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        if (a[i] < 0 || a[i] > b[i] || b[i] > data.len) {
            PyErr_SetString(PyExc_ValueError, "scan: a line outside the data");
            goto done;
        }
    if (strings_resize(&s.values, 16) < 0)
        goto done;
    s.ids = PyList_New(0);
    s.labels = PyList_New(0);
    if (!s.ids || !s.labels)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        const int r = scan_line(&s, a[i], b[i]);
        if (r == FAILED && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
            PyErr_Clear();            /* not UTF-8 (the caller checks that first): the other ways say so */
        else if (r == FAILED)
            goto done;
        if (r != GOOD) {
            result = (Py_INCREF(Py_None), Py_None);
            goto done;
        }
    }
    /* (token starts int64, token lengths int32, tokens per record int64, ids, and
     *  tags: (tag ids int32, the distinct tags in the order first seen); spans: (spans per record int64,
     *  starts int64, ends int64, labels); none: None) */
    PyObject *aux = Py_None, *parts[3] = {as_bytearray(&s.tok_start), as_bytearray(&s.tok_len),
                                          as_bytearray(&s.tok_count)};
    PyObject *vals = NULL, *x = NULL, *y = NULL, *z = NULL;
    if (parts[0] && parts[1] && parts[2]) {
        if (s.aux == AUX_TAGS) {
            vals = PyList_New(s.values.n);
            for (Py_ssize_t i = 0; vals && i < s.values.n; i++)
                {
                Py_INCREF(s.values.values[i].str);
                PyList_SET_ITEM(vals, i, s.values.values[i].str);
            }
            x = as_bytearray(&s.tag_id);
            aux = vals && x ? Py_BuildValue("(OO)", x, vals) : NULL;
        } else if (s.aux == AUX_SPANS) {
            x = as_bytearray(&s.span_count);
            y = as_bytearray(&s.span_start);
            z = as_bytearray(&s.span_end);
            aux = x && y && z ? Py_BuildValue("(OOOO)", x, y, z, s.labels) : NULL;
        } else {
            Py_INCREF(aux);
        }
        if (aux)
            result = Py_BuildValue("(OOOOO)", parts[0], parts[1], parts[2], s.ids, aux);
        Py_XDECREF(aux);
    }
    Py_XDECREF(vals);
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(z);
    for (int i = 0; i < 3; i++)
        Py_XDECREF(parts[i]);
done:
    PyBuffer_Release(&data);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&ends);
    Out *outs[] = {&s.tok_start, &s.tok_len, &s.tok_count, &s.tag_id, &s.span_count, &s.span_start, &s.span_end};
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++)
        PyMem_Free(outs[i]->buf);
    strings_free(&s.values);
    Py_XDECREF(s.ids);
    Py_XDECREF(s.labels);
    return result;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(data, starts, ends, main_key, text, aux_key, aux, id_key, reject) -> (token starts, token lengths,\n"
     "     tokens per record, ids, aux) or None: read the chunk another way (see the module's source)."},
    {NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_jsonl_scan",
    .m_doc = "The JSON Lines readers' compiled scanner (see jsonl_scan.py).", .m_size = -1, .m_methods = methods};

PyMODINIT_FUNC PyInit__jsonl_scan(void)
{
    return PyModule_Create(&module);
}
