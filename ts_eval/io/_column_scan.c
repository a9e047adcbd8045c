/* The column reader's compiled scanner (optional: ts_eval/io/columns.py reads with numpy without it).
 *
 * scan() reads one chunk of a column file -- whole lines, bytes a..b of a buffer -- in one pass: it
 * splits each line into fields (maximal runs of bytes that are not separators: ASCII whitespace, or
 * LF, CR and the one delimiter byte), tells blank, -DOCSTART-, -X- and token lines apart, and writes
 * for every token line its line number, its token's byte offset and length, and the ids of its tag
 * values, straight into the reader's preallocated numpy arrays.  Tag values are found in a Table, a
 * hash table of the distinct byte strings seen so far in the block; an id is a value's index in the
 * order first seen.  At the block's end remap() turns them into ranks in the sorted values.
 *
 * It produces exactly the arrays of the numpy path (columns.py, _scan).  Where that path raises an
 * error -- token lines of different widths, a -DOCSTART- line of another width, a column the file does
 * not have, an empty field between delimiters -- scan() returns None and leaves the table as it was:
 * the caller then reads the chunk with numpy, which raises the error with its message.  Every read
 * and write is bounds-checked against the buffers' sizes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && !defined(PORTABLE)
#define SSE2 1      /* 16 bytes at a time (every x86-64); -DPORTABLE builds the plain C ways (to test them) */
#include <emmintrin.h>
#endif

/* ---------------------------------------------------------------- the table of distinct values */

typedef struct {
    uint64_t key;       /* a value of up to 7 bytes: its bytes, its length in the top byte (so the key is the
                         * value); longer: a hash with the top byte 0x80 */
    Py_ssize_t len;
    Py_ssize_t off;     /* where its bytes lie in the arena */
} Entry;

typedef struct {        /* a slot of the hash table: an entry's key (a copy, for one load per lookup) and index */
    uint64_t key;
    Py_ssize_t id;      /* -1: an empty slot (its key: ~0, which no short value has) */
} Slot;

typedef struct {
    PyObject_HEAD
    Entry *entries;     /* in the order first seen */
    Py_ssize_t n, cap;
    Slot *slots;        /* open addressing with linear probing */
    Py_ssize_t mask;    /* number of slots - 1 (a power of two at least twice n) */
    int bits;           /* log2 of the number of slots */
    char *arena;        /* the entries' bytes, one after another */
    Py_ssize_t used, room;
} Table;

#ifdef __GNUC__
#define HOT inline __attribute__((always_inline))    /* inlined into the scan's loop */
#else
#define HOT inline
#endif

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(PORTABLE)
#define WORDS 1     /* 8 bytes at a time where they lie inside the chunk */
#endif

/* A value of len <= 7 bytes at p, of which p[0..room) may be read: its bytes (in little-endian order) and
 * its length in the top byte. */
static uint64_t short_key(const unsigned char *p, Py_ssize_t len, Py_ssize_t room)
{
    uint64_t w = 0;
#ifdef WORDS
    if (room >= 8) {
        memcpy(&w, p, 8);
        return (w & ((1ULL << (8 * len)) - 1)) | ((uint64_t)len << 56);
    }
#else
    (void)room;
#endif
    for (Py_ssize_t i = 0; i < len; i++)
        w |= (uint64_t)p[i] << (8 * i);
    return w | ((uint64_t)len << 56);
}

static uint64_t long_key(const unsigned char *p, Py_ssize_t len)
{   /* len >= 8: a multiplicative hash of its 8-byte words, the last one ending at its end (equal keys are
     * then compared byte for byte) */
    uint64_t h = (uint64_t)len * 0x9E3779B97F4A7C15ULL, w;
    for (Py_ssize_t i = 0;; i += 8) {
        memcpy(&w, p + (i + 8 <= len ? i : len - 8), 8);
        h = (h ^ w) * 0xC2B2AE3D27D4EB4FULL;
        h ^= h >> 29;
        if (i + 8 >= len)     /* top byte 0x80: no short key (top byte: its length) and not ~0 */
            return (h & 0x00FFFFFFFFFFFFFFULL) | (0x80ULL << 56);
    }
}

static Py_ssize_t slot_of(const Table *t, uint64_t key)
{
    return (Py_ssize_t)((key * 0x9E3779B97F4A7C15ULL) >> (64 - t->bits));
}

static void fill_slots(Table *t)
{   /* put every entry in the (cleared) slots */
    memset(t->slots, 0xff, sizeof(Slot) << t->bits);     /* key ~0, id -1 */
    for (Py_ssize_t i = 0; i < t->n; i++) {
        Py_ssize_t s = slot_of(t, t->entries[i].key);
        while (t->slots[s].id >= 0)
            s = (s + 1) & t->mask;
        t->slots[s].key = t->entries[i].key;
        t->slots[s].id = i;
    }
}

static int resize_slots(Table *t, int bits)
{   /* 2**bits slots for the entries */
    Slot *slots = PyMem_Malloc(sizeof(Slot) << bits);
    if (!slots)
        return -1;
    PyMem_Free(t->slots);
    t->slots = slots;
    t->bits = bits;
    t->mask = ((Py_ssize_t)1 << bits) - 1;
    fill_slots(t);
    return 0;
}

/* Add bytes p[0..len) to the table at its free slot s: its id; -1 with MemoryError set. */
static Py_ssize_t insert(Table *t, const unsigned char *p, Py_ssize_t len, uint64_t key, Py_ssize_t s)
{
    if (t->n >= INT32_MAX - 1) {
        PyErr_SetString(PyExc_MemoryError, "too many distinct tag values");
        return -1;
    }
    if (t->n == t->cap) {
        Py_ssize_t cap = t->cap ? 2 * t->cap : 64;
        Entry *entries = PyMem_Realloc(t->entries, cap * sizeof(Entry));
        if (!entries) {
            PyErr_NoMemory();
            return -1;
        }
        t->entries = entries;
        t->cap = cap;
    }
    if (t->used + len > t->room) {
        Py_ssize_t room = t->room ? 2 * t->room : 4096;
        while (room < t->used + len)
            room *= 2;
        char *arena = PyMem_Realloc(t->arena, room);
        if (!arena) {
            PyErr_NoMemory();
            return -1;
        }
        t->arena = arena;
        t->room = room;
    }
    memcpy(t->arena + t->used, p, len);
    Entry *e = &t->entries[t->n];
    e->key = key;
    e->len = len;
    e->off = t->used;
    t->used += len;
    t->slots[s].key = key;
    t->slots[s].id = t->n;
    t->n++;
    if (2 * t->n > t->mask && resize_slots(t, t->bits + 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return t->n - 1;
}

/* The id (index in first-seen order) of bytes p[0..len), added if new; -1 with MemoryError set. */
static inline Py_ssize_t lookup(Table *t, const unsigned char *p, Py_ssize_t len, uint64_t key)
{
    for (Py_ssize_t s = slot_of(t, key);; s = (s + 1) & t->mask) {
        const Py_ssize_t i = t->slots[s].id;
        if (i < 0)
            return insert(t, p, len, key, s);
        if (t->slots[s].key != key)
            continue;
        const Entry *e = &t->entries[i];
        if (len < 8 || (e->len == len && memcmp(t->arena + e->off, p, len) == 0))
            return i;
    }
}

static void truncate_table(Table *t, Py_ssize_t n)
{   /* forget the entries from the n-th on (a chunk given back to numpy); the slots are rebuilt */
    if (t->n == n)
        return;
    t->n = n;
    t->used = n ? t->entries[n - 1].off + t->entries[n - 1].len : 0;
    fill_slots(t);
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)kw;
    if (!PyArg_ParseTuple(args, ":Table"))
        return NULL;
    Table *t = (Table *)type->tp_alloc(type, 0);
    if (t && resize_slots(t, 6) < 0) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    return (PyObject *)t;
}

static void Table_dealloc(Table *t)
{
    PyMem_Free(t->entries);
    PyMem_Free(t->slots);
    PyMem_Free(t->arena);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyObject *Table_values(Table *t, PyObject *unused)
{   /* the distinct values (bytes) in the order first seen */
    (void)unused;
    PyObject *out = PyList_New(t->n);
    for (Py_ssize_t i = 0; out && i < t->n; i++) {
        const Entry *e = &t->entries[i];
        PyObject *b = PyBytes_FromStringAndSize(t->arena + e->off, e->len);
        if (!b) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, b);
    }
    return out;
}

static PyObject *Table_len(Table *t, void *unused)
{
    (void)unused;
    return PyLong_FromSsize_t(t->n);
}

static PyMethodDef Table_methods[] = {
    {"values", (PyCFunction)Table_values, METH_NOARGS, "The distinct values (bytes) in the order first seen."},
    {NULL}};

static PyGetSetDef Table_getset[] = {
    {"size", (getter)Table_len, NULL, "Number of distinct values.", NULL},
    {NULL}};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ts_eval.io._column_scan.Table",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The distinct tag values of one block, each with its id (its index in the order first seen).",
    .tp_new = Table_new,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
};

/* ---------------------------------------------------------------- the scan of one chunk */

/* A column as the numpy path resolves it (_column_index): 1-based, negative from the end; -1: none. */
static Py_ssize_t resolve(Py_ssize_t column, Py_ssize_t ncol)
{
    if (column == 0 || column > ncol || column < -ncol)
        return -1;
    return column > 0 ? column - 1 : ncol + column;
}

#define MAX_COLUMNS 64
#define MAX_FIELDS 64                         /* lines of more fields are left to numpy */
enum { GOOD = 0, NUMPY = 1, FAILED = -1 };    /* how a line went: read, the numpy path's error, an exception */

typedef struct {
    const unsigned char *d;   /* the buffer; the chunk is d[a..b) */
    Py_ssize_t a, b;
    Py_ssize_t ntok, boundaries, ncol, first_line, first_start, first_end;
    PyObject *docs;           /* (line, fields) of the -DOCSTART- lines */
    /* the outputs: token lines from n0 on (room for cap), ids[c * stride + token] */
    int32_t *out_line, *out_len;
    void *out_start, *out_ids;
    int wide;                 /* out_start holds int64 (else uint32) */
    int narrow;               /* out_ids holds uint16 (else int32): ids up to 65534 */
    Py_ssize_t n0, cap, stride, line0;
    Py_ssize_t ncols, wanted[MAX_COLUMNS], col[MAX_COLUMNS], token_column, token_at, resolved_for;
    Table *table;
} Scan;

/* The columns once the width is known (NUMPY: the file lacks one). */
static int resolve_columns(Scan *s, Py_ssize_t ncol)
{
    for (Py_ssize_t c = 0; c < s->ncols; c++)
        if ((s->col[c] = resolve(s->wanted[c], ncol)) < 0)
            return NUMPY;
    s->token_at = s->token_column ? resolve(s->token_column, ncol) : -1;
    if (s->token_column && s->token_at < 0)
        return NUMPY;
    s->resolved_for = ncol;
    return GOOD;
}

/* A line of nf > 0 fields (starts and ends in at): a -DOCSTART-, -X- or token line. */
static HOT int end_line(Scan *s, const Py_ssize_t *at, Py_ssize_t nf, Py_ssize_t line)
{
    const unsigned char *d = s->d;
    const Py_ssize_t len0 = at[1] - at[0];
    if (d[at[0]] == '-') {                    /* only such lines can be either */
        if (len0 == 10 && memcmp(d + at[0], "-DOCSTART-", 10) == 0) {
            PyObject *pair = Py_BuildValue("(nn)", line, nf);  /* its width is checked at the chunk's end */
            int bad = !pair || PyList_Append(s->docs, pair) < 0;
            Py_XDECREF(pair);
            return bad ? FAILED : GOOD;
        }
        if (len0 == 3 && memcmp(d + at[0], "-X-", 3) == 0) {
            s->boundaries++;
            return GOOD;
        }
    }
    if (s->ncol < 0) {                        /* the file's first token line: its width is the file's */
        s->ncol = nf;
        s->first_line = line;
        s->first_start = at[0];
        s->first_end = at[1];
    }
    if (nf != s->ncol)
        return NUMPY;                         /* lines of different widths */
    if (s->resolved_for != nf && resolve_columns(s, nf) != GOOD)
        return NUMPY;
    const Py_ssize_t k = s->n0 + s->ntok;
    if (k >= s->cap) {
        PyErr_SetString(PyExc_ValueError, "scan: more token lines than room");
        return FAILED;
    }
    s->out_line[k] = (int32_t)(s->line0 + line + 1);
    const Py_ssize_t token_at = s->token_at;
    Py_ssize_t start = 0, len = 0;
    if (token_at >= 0) {
        start = at[2 * token_at];
        len = at[2 * token_at + 1] - start;
    }
    if (s->wide)
        ((int64_t *)s->out_start)[k] = (int64_t)start;
    else
        ((uint32_t *)s->out_start)[k] = (uint32_t)start;
    s->out_len[k] = (int32_t)len;
    const Py_ssize_t ncols = s->ncols, stride = s->stride, room = s->b;
    const int narrow = s->narrow;
    void *out_ids = s->out_ids;
    for (Py_ssize_t c = 0; c < ncols; c++) {
        const Py_ssize_t col = s->col[c], vs = at[2 * col], vn = at[2 * col + 1] - vs;
        Py_ssize_t id;
        if (vn < 8) {
            const uint64_t key = short_key(d + vs, vn, room - vs);
            const Slot *first = &s->table->slots[slot_of(s->table, key)];
            id = first->key == key ? first->id : lookup(s->table, d + vs, vn, key);
        } else {
            id = lookup(s->table, d + vs, vn, long_key(d + vs, vn));
        }
        if (id < 0)
            return FAILED;
        if (!narrow)
            ((int32_t *)out_ids)[c * stride + k] = (int32_t)id;
        else if (id < 65535)
            ((uint16_t *)out_ids)[c * stride + k] = (uint16_t)id;
        else
            return NUMPY;                     /* too many values for uint16 ids */
    }
    s->ntok++;
    return GOOD;
}

static int lowest_bit(uint64_t mask)
{   /* the index of the lowest set bit of a mask that is not 0 */
#ifdef __GNUC__
    return __builtin_ctzll(mask);
#else
    int i = 0;
    while (!(mask & 1)) {
        mask >>= 1;
        i++;
    }
    return i;
#endif
}

/* Bit i set: byte base+i may separate fields (below 33 -- ASCII whitespace, control bytes -- or the
 * delimiter), for the up to 64 bytes of d[base..b).  With SSE2 (every x86-64), 16 bytes at a time; with
 * WORDS, 8 bytes at a time by the classic tests "has a byte below 33" and "has a zero byte" (of the word xor
 * the delimiter), whose flags above a true one may be false (a borrow): the caller looks at every flagged
 * byte anyway. */
static uint64_t candidates(const unsigned char *d, Py_ssize_t base, Py_ssize_t b, unsigned char delim)
{
    uint64_t mask = 0;
    Py_ssize_t i = 0;
#if defined(SSE2)
    const __m128i limit = _mm_set1_epi8(32), dd = _mm_set1_epi8((char)delim);
    for (; i < 64 && base + i + 16 <= b; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(d + base + i));
        const __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(x, limit), x);     /* x <= 32 */
        mask |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(low, _mm_cmpeq_epi8(x, dd))) << i;
    }
#elif defined(WORDS)
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL, dd = ones * delim;
    for (; i < 64 && base + i + 8 <= b; i += 8) {
        uint64_t w, x;
        memcpy(&w, d + base + i, 8);
        x = w ^ dd;
        uint64_t m = (((w - 33 * ones) & ~w) | ((x - ones) & ~x)) & highs;
        mask |= (((m >> 7) * 0x0102040810204080ULL) >> 56) << i;    /* the 8 flags as 8 bits */
    }
#endif
    for (; i < 64 && base + i < b; i++)
        if (d[base + i] < 33 || d[base + i] == delim)
            mask |= 1ULL << i;
    return mask;
}

/* Read the chunk: fields are the runs of bytes between separators, and only the separators are visited.
 * Sets *newlines to the number of line ends. */
static int scan_chunk(Scan *s, const unsigned char *sep, int delimiter, Py_ssize_t *newlines)
{
    const unsigned char *d = s->d;
    const unsigned char delim = delimiter < 0 ? ' ' : (unsigned char)delimiter;
    const Py_ssize_t a = s->a, b = s->b;
    Py_ssize_t at[2 * MAX_FIELDS];            /* the current line's fields: start, end, start, end, ... */
    Py_ssize_t nf = 0, line = 0, prev = a - 1;    /* prev: the last separator (a - 1: the line end before) */
    int r;
    for (Py_ssize_t base = a; base < b; base += 64) {
        uint64_t mask = candidates(d, base, b, delim);
        while (mask) {
            const Py_ssize_t p = base + lowest_bit(mask);
            mask &= mask - 1;
            const unsigned char v = d[p];
            if (!sep[v])
                continue;                     /* a control byte (or a false flag): part of a field */
            if (p > prev + 1) {
                if (nf == MAX_FIELDS)
                    return NUMPY;
                at[2 * nf] = prev + 1;
                at[2 * nf + 1] = p;
                nf++;
            } else if (v == delimiter && (prev < a || d[prev] == '\n' || d[prev] == delim)) {
                return NUMPY;                 /* an empty field (a delimiter at the line start or twice) */
            }
            prev = p;
            if (v == '\n') {
                if (nf && (r = end_line(s, at, nf, line)) != GOOD)
                    return r;
                nf = 0;
                line++;
            }
        }
    }
    *newlines = line;
    if (prev < b - 1) {                       /* a last line without a line end */
        if (nf == MAX_FIELDS)
            return NUMPY;
        at[2 * nf] = prev + 1;
        at[2 * nf + 1] = b;
        nf++;
    }
    return nf ? end_line(s, at, nf, line) : GOOD;
}

/* A writable contiguous buffer of items of `small` or `large` bytes (0 with an exception set). */
static int writable(PyObject *obj, Py_buffer *view, const char *what, Py_ssize_t small, Py_ssize_t large)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return 0;
    if (view->itemsize != small && view->itemsize != large) {
        PyErr_Format(PyExc_ValueError, "%s: items of %zd bytes, expected %zd or %zd", what, view->itemsize, small,
                     large);
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

static PyObject *scan(PyObject *self, PyObject *args)
{
    (void)self;
    enum { LINE, START, LEN, IDS };
    static const char *what[] = {"token lines", "token starts", "token lengths", "ids"};
    static const Py_ssize_t small[] = {4, 4, 4, 2}, large[] = {4, 8, 4, 4};
    Py_buffer data, out[4];
    PyObject *obj[4], *columns, *result = NULL;
    Scan s;
    int delimiter, got = 0;
    memset(&s, 0, sizeof s);
    if (!PyArg_ParseTuple(args, "y*nninnOO!OOOOnnn:scan", &data, &s.a, &s.b, &delimiter, &s.ncol, &s.token_column,
                          &columns, &TableType, &s.table, &obj[LINE], &obj[START], &obj[LEN], &obj[IDS], &s.stride,
                          &s.n0, &s.line0))
        return NULL;
    const Py_ssize_t entries_before = s.table->n;
    s.d = data.buf;
    s.first_line = s.resolved_for = s.token_at = -1;
    if (!PyTuple_Check(columns) || PyTuple_GET_SIZE(columns) > MAX_COLUMNS) {
        PyErr_SetString(PyExc_ValueError, "columns: a tuple of at most 64 ints");
        goto done;
    }
    s.ncols = PyTuple_GET_SIZE(columns);
    for (Py_ssize_t c = 0; c < s.ncols; c++) {
        s.wanted[c] = PyLong_AsSsize_t(PyTuple_GET_ITEM(columns, c));
        if (s.wanted[c] == -1 && PyErr_Occurred())
            goto done;
    }
    for (; got < 4; got++)
        if (!writable(obj[got], &out[got], what[got], small[got], large[got]))
            goto done;
    /* bounds: the chunk inside the buffer; every output has room for `cap` tokens, ids for ncols rows */
    s.cap = out[LINE].len / 4;
    if (s.a < 0 || s.b > data.len || s.a > s.b || s.n0 < 0 || delimiter < -1 || delimiter > 127
            || delimiter == '\n' || delimiter == '\r' || out[START].len / out[START].itemsize < s.cap
            || out[LEN].len / 4 < s.cap
            || (s.ncols && (s.stride < s.cap || out[IDS].len / out[IDS].itemsize / s.stride < s.ncols))) {
        PyErr_SetString(PyExc_ValueError, "scan: bad arguments");
        goto done;
    }
    s.out_line = out[LINE].buf;
    s.out_start = out[START].buf;
    s.wide = out[START].itemsize == 8;
    s.out_len = out[LEN].buf;
    s.out_ids = out[IDS].buf;
    s.narrow = out[IDS].itemsize == 2;
    s.docs = PyList_New(0);
    if (!s.docs)
        goto done;

    unsigned char sep[256] = {0};             /* the separator bytes (LF among them) */
    if (delimiter < 0)
        sep[9] = sep[10] = sep[11] = sep[12] = sep[13] = sep[32] = 1;
    else
        sep[10] = sep[13] = sep[delimiter] = 1;
    Py_ssize_t newlines = 0;
    int r = scan_chunk(&s, sep, delimiter, &newlines);
    if (r == FAILED)
        goto done;
    /* -DOCSTART- lines: one field, or as many as the token lines (the numpy path's check) */
    for (Py_ssize_t i = 0; r == GOOD && i < PyList_GET_SIZE(s.docs); i++) {
        PyObject *pair = PyList_GET_ITEM(s.docs, i);
        Py_ssize_t nf = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 1));
        if (s.ncol > 0 && nf != 1 && nf != s.ncol) {
            r = NUMPY;
            break;
        }
        PyObject *ln = PyTuple_GET_ITEM(pair, 0);
        Py_INCREF(ln);
        PyList_SET_ITEM(s.docs, i, ln);       /* the line alone */
        Py_DECREF(pair);
    }
    if (r == NUMPY) {                         /* the numpy path reads the chunk (and raises its error) */
        truncate_table(s.table, entries_before);
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    result = Py_BuildValue("(nnnOnnnn)", s.ntok, newlines, s.boundaries, s.docs, s.first_line, s.ncol,
                           s.first_start, s.first_end);
done:
    if (!result)
        truncate_table(s.table, entries_before);
    Py_XDECREF(s.docs);
    PyBuffer_Release(&data);
    while (got > 0)
        PyBuffer_Release(&out[--got]);
    return result;
}

/* count_lines(data) -> (line ends, whether every byte is ASCII): one pass, 16 bytes at a time with SSE2 (the
 * LFs' mask counted, the bytes or-ed), else 8 at a time with WORDS (a zero byte of the word xor LFs is found
 * exactly: (x & 0x7f..) + 0x7f.. sets a byte's top bit unless it is 0 and carries into no other byte). */
static PyObject *count_lines(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*:count_lines", &data))
        return NULL;
    const unsigned char *d = data.buf;
    Py_ssize_t i = 0, lines = 0;
    unsigned char high = 0;
#if defined(SSE2)
    const __m128i lf = _mm_set1_epi8('\n');
    __m128i any = _mm_setzero_si128();
    for (; i + 16 <= data.len; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(d + i));
        any = _mm_or_si128(any, x);
        lines += __builtin_popcount((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, lf)));
    }
    high = _mm_movemask_epi8(any) != 0;
#elif defined(WORDS)
    const uint64_t lows = 0x7F7F7F7F7F7F7F7FULL, lfs = 0x0A0A0A0A0A0A0A0AULL;
    uint64_t any = 0;
    for (; i + 8 <= data.len; i += 8) {
        uint64_t w, x;
        memcpy(&w, d + i, 8);
        any |= w;
        x = w ^ lfs;
        lines += __builtin_popcountll(~(((x & lows) + lows) | x | lows));
    }
    high = (any & ~lows) != 0;
#endif
    for (; i < data.len; i++) {
        lines += d[i] == '\n';
        high |= d[i] >= 0x80;
    }
    PyBuffer_Release(&data);
    return Py_BuildValue("(nO)", lines, high ? Py_False : Py_True);
}

/* remap(ids, rank): ids[i] = rank[ids[i]] in place (ids, rank: uint16 or int32). */
static PyObject *remap(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ids_obj, *rank_obj;
    Py_buffer ids, rank;
    if (!PyArg_ParseTuple(args, "OO:remap", &ids_obj, &rank_obj))
        return NULL;
    if (!writable(ids_obj, &ids, "ids", 2, 4))
        return NULL;
    if (!writable(rank_obj, &rank, "rank", 2, 4)) {
        PyBuffer_Release(&ids);
        return NULL;
    }
    const Py_ssize_t n = ids.len / ids.itemsize, m = rank.len / rank.itemsize;
    int ok = 1;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        Py_ssize_t id = ids.itemsize == 2 ? ((uint16_t *)ids.buf)[i] : ((int32_t *)ids.buf)[i];
        if (id < 0 || id >= m) {
            ok = 0;
            break;
        }
        Py_ssize_t to = rank.itemsize == 2 ? ((uint16_t *)rank.buf)[id] : ((int32_t *)rank.buf)[id];
        if (ids.itemsize == 2)
            ((uint16_t *)ids.buf)[i] = (uint16_t)to;
        else
            ((int32_t *)ids.buf)[i] = (int32_t)to;
    }
    PyBuffer_Release(&ids);
    PyBuffer_Release(&rank);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "remap: an id beyond the ranks");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(data, a, b, delimiter, ncol, token_column, columns, table, token_line, token_start, token_len, ids,\n"
     "     stride, n0, line0) -> (tokens, newlines, -X- lines, -DOCSTART- lines, first token line, width,\n"
     "     its first field's start, end), or None: read the chunk with numpy."},
    {"remap", remap, METH_VARARGS, "remap(ids, rank): ids[i] = rank[ids[i]], in place."},
    {"count_lines", count_lines, METH_VARARGS, "count_lines(data) -> (line ends, every byte ASCII)."},
    {NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_column_scan", .m_doc = "The column reader's compiled scanner (see columns.py).",
    .m_size = -1, .m_methods = methods};

PyMODINIT_FUNC PyInit__column_scan(void)
{
    if (PyType_Ready(&TableType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
