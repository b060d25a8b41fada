/* The endgame tables' sampled check (kbdraughts/egdb/check.py's Search and agrees, in C): an
 * exhaustive search from a position to the table's stated distance, over movegen.c's moves; a
 * capture or a crowning ends a line with the value another table gives after it.
 *
 * It shares no code with the solver (egdb.c): not its retrograde levels, not its index. The
 * index of the tables a conversion reads is written here again from egdb/index.py, so a fault
 * of egdb.c's ranking cannot hide itself; only the file's layout (egdb.h's packed() and the
 * Tables and Material types) is common, as it must be.
 *
 * The search is the reference's two questions, won(p, plies) and lost(p, plies), with a
 * stronger memo. Both are monotone in plies: won (lost) within some plies, it is so within every
 * larger number; not won within some, it was not within any smaller one (by induction on plies:
 * a conversion's value does not depend on them). So one slot per position holds all that is
 * known of it: for each question the fewest plies at which it held and the most at which it did
 * not. The slots are a hash table of a fixed size, 2**bits buckets of 64 bytes (three slots, a
 * cache line) allocated once a call, with the moves and children of each ply (32 KiB a ply, 8
 * MiB at most), and freed before it returns: the bound on memory. check.py sizes it to hold every
 * position of the table (the memo holds no other), 512 MiB for the largest of 5 pieces. A slot
 * overwritten when its bucket is full costs time, never correctness; the hash must spread the
 * positions well for that to be rare (a weak one cost a hundredfold here).
 * Before it searches a child, a node asks what the memo and the tables already know of all its
 * children, which often decides it at once. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include "egdb_py.h"

#define NONE 0xFF  /* no plies known */
#define BUCKET 3   /* slots tried for one position: a cache line */
#define MAX_PLIES 250

/* -- the index, after egdb/index.py ----------------------------------------------------------- */

#define RANK1 0x0000000FU
#define RANK8 0xF0000000U
#define MIDDLE (~RANK1 & ~RANK8)

static uint64_t BINOM[33][33];

static void binomials(void)
{
    for (int n = 0; n <= 32; n++)
        for (int k = 0; k <= n; k++)
            BINOM[n][k] = k == 0 || k == n ? 1 : BINOM[n - 1][k - 1] + BINOM[n - 1][k];
}

/* A padded bitboard as 32 dark squares, a1 = bit 0: the ghost bits 4, 13, 22, 31 dropped. */
static uint32_t dark(Bitboard b)
{
    return (uint32_t)((b & 0xF) | (b >> 1 & 0xFF0) | (b >> 2 & 0xFF000) | (b >> 3 & 0xFF00000)
                      | (b >> 4 & 0xF0000000));
}

/* The colex rank of the squares `chosen` among the squares `free`. */
static uint64_t colex(uint32_t chosen, uint32_t free)
{
    uint64_t r = 0;
    for (int i = 1; chosen; i++, chosen &= chosen - 1)
        r += BINOM[__builtin_popcount(free & ((chosen & -chosen) - 1))][i];
    return r;
}

/* Placements of the men with j white men on rank 1 (index.py's _block). */
static uint64_t men_block(const Material *m, int j)
{
    return BINOM[4][j] * BINOM[24][m->wm - j] * BINOM[28 - (m->wm - j)][m->bm];
}

static uint64_t half_size(const Material *m)
{
    uint64_t men = 0;
    for (int j = 0; j <= 4 && j <= m->wm; j++)
        men += men_block(m, j);
    int free = 32 - m->wm - m->bm;
    return men * BINOM[free][m->wk] * BINOM[free - m->wk][m->bk];
}

static uint64_t rank_of(const Material *m, uint32_t w, uint32_t b, uint32_t k, int side)
{
    uint32_t wmen = w & ~k, bmen = b & ~k, free = ~wmen & ~bmen;
    int j = __builtin_popcount(wmen & RANK1), high = m->wm - j;
    uint64_t men = (colex(wmen & RANK1, RANK1) * BINOM[24][high] + colex(wmen & MIDDLE, MIDDLE))
                   * BINOM[28 - high][m->bm] + colex(bmen, ~RANK1 & ~wmen);
    for (int i = 0; i < j; i++)
        men += men_block(m, i);
    int nfree = 32 - m->wm - m->bm;
    uint64_t kw = BINOM[nfree][m->wk], kb = BINOM[nfree - m->wk][m->bk];
    uint64_t kings = colex(w & k, free) * kb + colex(b & k, free & ~(w & k));
    return (uint64_t)side * half_size(m) + men * kw * kb + kings;
}

/* -- the search ------------------------------------------------------------------------------- */

enum { WON, LOST }; /* the two questions: indices of a slot's bounds */

typedef struct {
    uint32_t white, black, kings;
    uint8_t side;
    uint8_t yes[2]; /* the fewest plies at which it was won (lost): NONE when never found */
    uint8_t no[2];  /* 1 + the most plies at which it was not won (not lost): 0 when never */
} Memo;

/* The slots a position may take: one cache line, so a look-up costs one miss at most. */
typedef struct {
    Memo slot[BUCKET];
    uint32_t spare;
} Bucket;
_Static_assert(sizeof(Bucket) == 64, "a bucket is a cache line: the memory bound says so");

/* One ply of the search: its moves and the positions they lead to. */
typedef struct {
    MoveList list;
    Pos kids[MAX_MOVES];
} Level;

typedef struct {
    const Tables *t;
    Bucket *buckets;
    uint64_t mask;  /* buckets - 1 */
    Level *levels;  /* one per ply of the deepest search */
    int missing;    /* a conversion found no table: the search is void */
} Check;

/* splitmix64's finaliser: every bit of x moves about half the bits of the result (a plain
 * product would leave the low bits, the bucket's index, blind to the high squares). */
static uint64_t mix(uint64_t x)
{
    x = (x ^ x >> 30) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ x >> 27) * 0x94D049BB133111EBULL;
    return x ^ x >> 31;
}

static Bucket *bucket_of(const Check *c, uint32_t w, uint32_t b, uint32_t k, int side)
{
    return &c->buckets[mix(((uint64_t)w << 32 | b) ^ mix((uint64_t)k << 1 | (uint64_t)side))
                       & c->mask];
}

/* The slot of a position, or NULL when it has none. */
static Memo *find(const Check *c, uint32_t w, uint32_t b, uint32_t k, int side)
{
    Bucket *bucket = bucket_of(c, w, b, k, side);
    for (int i = 0; i < BUCKET; i++) {
        Memo *s = &bucket->slot[i];
        if (s->white == w && s->black == b && s->kings == k && s->side == side)
            return s;
    }
    return NULL;
}

/* The slot of a position, made when it has none: a free one of its bucket, or when the bucket
 * is full one of them overwritten (which one, by the position: no order of the search favoured). */
static Memo *slot_for(Check *c, uint32_t w, uint32_t b, uint32_t k, int side)
{
    Memo *s = find(c, w, b, k, side);
    if (s)
        return s;
    Bucket *bucket = bucket_of(c, w, b, k, side);
    s = &bucket->slot[(w ^ b ^ k) % BUCKET];
    for (int i = BUCKET - 1; i >= 0; i--)
        if (!bucket->slot[i].white) /* a position always has white pieces: a free slot */
            s = &bucket->slot[i];
    *s = (Memo){w, b, k, (uint8_t)side, {NONE, NONE}, {0, 0}};
    return s;
}

/* The value of q, reached by a conversion, for its side to move: read from its table. */
static int converted(Check *c, const Pos *q)
{
    if (!(q->side ? q->black : q->white))
        return EG_LOSS; /* everything taken */
    uint32_t w = dark(q->white), b = dark(q->black), k = dark(q->kings);
    Material m = {__builtin_popcount(w & ~k), __builtin_popcount(w & k),
                  __builtin_popcount(b & ~k), __builtin_popcount(b & k)};
    const uint8_t *values = c->t->values[m.wm][m.wk][m.bm][m.bk];
    if (!values) {
        c->missing = 1;
        return EG_UNKNOWN;
    }
    return packed(values, rank_of(&m, w, b, k, q->side));
}

static int converts(const Move *mv) { return mv->captured || mv->crowned; }

/* What is known of q's answer to `kind` within `plies` without searching: 1 proved, 0 not,
 * -1 unknown. A conversion is known by its table. */
static int recall(Check *c, const Move *mv, const Pos *q, int kind, int plies)
{
    if (converts(mv))
        return converted(c, q) == (kind == WON ? EG_WIN : EG_LOSS);
    const Memo *s = plies > 0 ? find(c, dark(q->white), dark(q->black), dark(q->kings), q->side)
                              : NULL;
    return !s ? -1 : plies >= s->yes[kind] ? 1 : plies < s->no[kind] ? 0 : -1;
}

/* WON: a move after which the opponent is lost within plies - 1 (check.py's Search.won);
 * LOST: no move, or every move leads to the opponent's win within plies - 1. */
static int proved(Check *c, int kind, const Pos *p, int plies, int level)
{
    uint32_t w = dark(p->white), b = dark(p->black), k = dark(p->kings);
    const Memo *known = plies > 0 ? find(c, w, b, k, p->side) : NULL;
    if (known && plies >= known->yes[kind])
        return 1;
    if (known && plies < known->no[kind])
        return 0;
    Level *at = &c->levels[level];
    MoveList *l = &at->list;
    gen_legal(p, l);
    if (!l->n)
        return kind == LOST;
    if (plies <= 0)
        return 0;
    for (int i = 0; i < l->n; i++) { /* the children's slots fetched from memory together */
        at->kids[i] = play(p, &l->moves[i]);
        __builtin_prefetch(bucket_of(c, dark(at->kids[i].white), dark(at->kids[i].black),
                                     dark(at->kids[i].kings), at->kids[i].side));
    }
    /* won: some move leads to a child lost; lost: every move leads to a child won. What the
     * memo and the tables know of the children is asked first: it may decide at once. */
    int child = kind == WON ? LOST : WON, deciding = kind == WON, result = kind == LOST;
    for (int i = 0; i < l->n && result != deciding; i++)
        if (recall(c, &l->moves[i], &at->kids[i], child, plies - 1) == deciding)
            result = deciding;
    for (int i = 0; i < l->n && result != deciding && !c->missing; i++)
        if (!converts(&l->moves[i])
            && proved(c, child, &at->kids[i], plies - 1, level + 1) == deciding)
            result = deciding; /* a conversion was known in the first pass, and decided not */
    /* The recursion may have given this position's slot to another: looked up again. */
    Memo *s = slot_for(c, w, b, k, p->side);
    if (result && plies < s->yes[kind])
        s->yes[kind] = (uint8_t)plies;
    else if (!result && plies + 1 > s->no[kind])
        s->no[kind] = (uint8_t)(plies + 1);
    return result;
}

/* Whether the search finds `value` in exactly `plies` plies (a draw: nothing forced within
 * `horizon`): check.py's agrees. */
static int agrees(Check *c, const Pos *p, int value, int plies, int horizon)
{
    if (value == EG_DRAW)
        return !proved(c, WON, p, horizon, 0) && !proved(c, LOST, p, horizon, 0);
    int kind = value == EG_WIN ? WON : LOST;
    return proved(c, kind, p, plies, 0) && (plies == 0 || !proved(c, kind, p, plies - 1, 0));
}

/* -- the Python face ---------------------------------------------------------------------------- */

/* The positions (already read), each of material m, and their claims (value, plies), as C
 * arrays; claims is a tuple of them. */
static int to_claims(Py_ssize_t n, PyObject *claims, const Material *m, Pos *pos,
                     int *value, int *plies, int *deepest)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *claim = PyTuple_GET_ITEM(claims, i);
        uint32_t w = dark(pos[i].white), b = dark(pos[i].black), k = dark(pos[i].kings);
        Material got = {__builtin_popcount(w & ~k), __builtin_popcount(w & k),
                        __builtin_popcount(b & ~k), __builtin_popcount(b & k)};
        if (memcmp(&got, m, sizeof got) || w & ~k & RANK8 || b & ~k & RANK1) {
            PyErr_SetString(PyExc_ValueError, "a position not of the table's material");
            return 0;
        }
        if (!PyTuple_Check(claim) || !PyArg_ParseTuple(claim, "ii", &value[i], &plies[i])
            || value[i] < EG_WIN || value[i] > EG_DRAW || plies[i] < 0 || plies[i] > MAX_PLIES) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a claim is (WIN, LOSS or DRAW, plies 0..250)");
            return 0;
        }
        if (plies[i] > *deepest)
            *deepest = plies[i];
    }
    return 1;
}

/* Every position's verdict, 1 where it agrees; the search runs without the GIL, and a signal
 * (Ctrl-C) on the main thread is heard between positions. */
static int run(Check *c, Py_ssize_t n, const Pos *pos, const int *value, const int *plies,
               int horizon, char *verdict)
{
    int on_main = PyThread_get_thread_ident() == main_thread, stop = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n && !c->missing && !stop; i++) {
        verdict[i] = (char)agrees(c, &pos[i], value[i], plies[i], horizon);
        if (on_main) {
            Py_BLOCK_THREADS
            stop = PyErr_CheckSignals() < 0;
            Py_UNBLOCK_THREADS
        }
    }
    Py_END_ALLOW_THREADS
    if (c->missing)
        PyErr_SetString(PyExc_LookupError, "a conversion reached a table not given");
    return !stop && !c->missing;
}

/* The verdicts, the arguments read: the search's memory made, used and freed. */
static PyObject *check_all(Check *c, Py_ssize_t n, const Pos *pos, const int *value,
                           const int *plies, int horizon, int deepest)
{
    int depth = deepest > horizon ? deepest : horizon;
    size_t memo = sizeof(Bucket) * ((size_t)c->mask + 1);
    c->buckets = aligned_alloc(sizeof(Bucket), memo);
    c->levels = PyMem_RawMalloc(sizeof(Level) * (size_t)(depth + 1));
    if (c->buckets)
        memset(c->buckets, 0, memo);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out && (!c->buckets || !c->levels)) {
        Py_CLEAR(out);
        PyErr_NoMemory();
    }
    if (out && !run(c, n, pos, value, plies, horizon, PyBytes_AS_STRING(out)))
        Py_CLEAR(out);
    free(c->buckets);
    PyMem_RawFree(c->levels);
    return out;
}

/* The lists and the dict are read from copies: an item's __index__ may change them. */
static PyObject *py_egdb_check(PyObject *self, PyObject *args)
{
    PyObject *mo, *positions, *claims, *dict, *out = NULL;
    int horizon, bits, deepest = 0;
    Material m;
    Py_ssize_t n, nheld = 0;
    if (!PyArg_ParseTuple(args, "OO!O!O!ii:egdb_check", &mo, &PyList_Type, &positions,
                          &PyList_Type, &claims, &PyDict_Type, &dict, &horizon, &bits)
        || !to_material(mo, &m))
        return NULL;
    if (horizon < 0 || horizon > MAX_PLIES || bits < 1 || bits > 26) {
        PyErr_SetString(PyExc_ValueError, "a horizon of 0..250 plies and 1..26 bits of "
                        "buckets are needed");
        return NULL;
    }
    PyObject *cl = tuple_copy(claims, "claims"); /* before a position's __index__ runs */
    Pos *pos = cl ? to_positions(positions, PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Pos) - 1, &n)
                  : NULL;
    if (!pos) {
        Py_XDECREF(cl);
        return NULL;
    }
    int *value = PyMem_Calloc((size_t)n + 1, sizeof(int) * 2), *plies = value + n + 1;
    Py_buffer *held = NULL;
    Tables t;
    Check c = {&t, NULL, ((uint64_t)1 << bits) - 1, NULL, 0};
    if (PyTuple_GET_SIZE(cl) != n)
        PyErr_SetString(PyExc_ValueError, "a claim per position is needed");
    else if (!value)
        PyErr_NoMemory();
    else if (to_tables(dict, &m, half_size, &t, &held, &nheld)
             && to_claims(n, cl, &m, pos, value, plies, &deepest))
        out = check_all(&c, n, pos, value, plies, horizon, deepest);
    release_buffers(held, nheld);
    Py_DECREF(cl);
    PyMem_Free(pos);
    PyMem_Free(value);
    return out;
}

static PyObject *py_egdb_rank(PyObject *self, PyObject *arg)
{
    Pos p;
    if (!to_pos(arg, &p))
        return NULL;
    uint32_t w = dark(p.white), b = dark(p.black), k = dark(p.kings);
    Material m = {__builtin_popcount(w & ~k), __builtin_popcount(w & k),
                  __builtin_popcount(b & ~k), __builtin_popcount(b & k)};
    if (!w || !b || m.wm + m.wk + m.bm + m.bk > EG_MAX || w & ~k & RANK8 || b & ~k & RANK1) {
        PyErr_SetString(PyExc_ValueError, "not a position of a table");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(rank_of(&m, w, b, k, p.side));
}

void egdb_check_init(void) { binomials(); }

PyMethodDef EGDB_CHECK_METHODS[] = {
    {"egdb_check", py_egdb_check, METH_VARARGS,
     "egdb_check(material, positions, claims, tables, horizon, bucket_bits) -> bytes: 1 where "
     "egdb/check.py's agrees holds; tables: {material: values} of the other tables"},
    {"egdb_check_rank", py_egdb_rank, METH_O, "egdb/index.py's rank, as the check reads it"},
    {NULL}};
