/* kbdraughts._core.Evaluator: the evaluation's rows (from Heuristic) held for C. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "pyface.h"

/* -- Evaluator --------------------------------------------------------------------------- */


static void free_evaluator(Evaluator *ev)
{
    for (int r = 0; r < ev->nreg; r++) {
        PyMem_Free(ev->regions[r].table);
        PyMem_Free(ev->regions[r].narrow);
    }
    PyMem_Free(ev->piece);
    PyMem_Free(ev->regions);
    PyMem_Free(ev->region_on);
    PyMem_Free(ev->rows);
    PyMem_Free(ev->patterns);
    PyMem_Free(ev->pattern_weights);
    memset(ev, 0, sizeof *ev);
}

static void Evaluator_dealloc(EvaluatorObject *self)
{
    free_evaluator(&self->ev);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* One weight in hundredths (an int: the numbers are whole, core.h's EVAL_SCALE), in 32 bits. */
static int hundredths(PyObject *o, int32_t *out)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return 0;
    if (overflow || v < INT32_MIN || v > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a weight beyond 2**31 hundredths either way");
        return 0;
    }
    *out = (int32_t)v;
    return 1;
}

static int read_weights(PyObject *seq, int32_t *out, Py_ssize_t n, const char *what)
{
    PyObject *t = tuple_copy(seq, what);
    if (!t)
        return 0;
    int ok = PyTuple_GET_SIZE(t) == n;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s: %zd numbers are needed", what, n);
    for (Py_ssize_t i = 0; ok && i < n; i++)
        ok = hundredths(PyTuple_GET_ITEM(t, i), &out[i]);
    Py_DECREF(t);
    return ok;
}

/* One row: (const, the phases' weights (N_PHASES), white tables (4 x 512), black tables,
 * weights of OTHERS), every number in hundredths. */
static int read_row(PyObject *o, EvalRow *row)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 5) {
        PyErr_SetString(PyExc_TypeError, "a row (const, on_phase, white, black, weights)");
        return 0;
    }
    if (!hundredths(PyTuple_GET_ITEM(o, 0), &row->cnst)
        || !read_weights(PyTuple_GET_ITEM(o, 1), row->on_phase, N_PHASES, "on_phase"))
        return 0;
    for (int side = 0; side < 2; side++) {
        PyObject *tables = PyTuple_GET_ITEM(o, 2 + side);
        if (!PyTuple_Check(tables) || PyTuple_GET_SIZE(tables) != 4) {
            PyErr_SetString(PyExc_TypeError, "four tables a side are needed");
            return 0;
        }
        for (int i = 0; i < 4; i++)
            if (!read_weights(PyTuple_GET_ITEM(tables, i), side ? row->black[i] : row->white[i],
                              512, "a men table"))
                return 0;
    }
    return read_weights(PyTuple_GET_ITEM(o, 4), row->weights, N_OTHERS, "weights");
}

/* One pattern: a pair (White's view, Black's) of five masks. */
static int read_pattern(PyObject *o, PatternMasks out)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2) {
        PyErr_SetString(PyExc_TypeError, "a pattern is a pair of views");
        return 0;
    }
    for (int v = 0; v < 2; v++) {
        PyObject *view = PyTuple_GET_ITEM(o, v);
        if (!PyTuple_Check(view) || PyTuple_GET_SIZE(view) != 5) {
            PyErr_SetString(PyExc_TypeError, "a pattern's view is five masks");
            return 0;
        }
        for (int s = 0; s < 5; s++) {
            unsigned long long m = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(view, s));
            if (PyErr_Occurred())
                return 0;
            out[v][s] = (Bitboard)m & BB_BOARD;
        }
    }
    return 1;
}

/* The pattern terms: their masks, and per row the weight of each (rows already read). */
static int read_patterns(Evaluator *ev, PyObject *patterns, PyObject *weights, Py_ssize_t nrows)
{
    if (patterns == Py_None)
        return 1;
    PyObject *fp = tuple_copy(patterns, "patterns");
    PyObject *fw = fp ? tuple_copy(weights, "pattern_weights") : NULL;
    int ok = fw != NULL;
    Py_ssize_t n = ok ? PyTuple_GET_SIZE(fp) : 0;
    if (ok && (n > 4096 || PyTuple_GET_SIZE(fw) != nrows)) {
        PyErr_SetString(PyExc_ValueError, "4096 patterns at most, and a row of weights a row");
        ok = 0;
    }
    if (ok && n) {
        ev->patterns = PyMem_Calloc((size_t)n, sizeof(PatternMasks));
        ev->pattern_weights = PyMem_Calloc((size_t)(n * nrows), sizeof(int32_t));
        ok = ev->patterns && ev->pattern_weights;
        if (!ok)
            PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; ok && k < n; k++)
        ok = read_pattern(PyTuple_GET_ITEM(fp, k), ev->patterns[k]);
    for (Py_ssize_t r = 0; ok && n && r < nrows; r++)
        ok = read_weights(PyTuple_GET_ITEM(fw, r), ev->pattern_weights + r * n, n,
                     "pattern weights");
    if (ok)
        ev->npat = (int)n;
    Py_XDECREF(fp);
    Py_XDECREF(fw);
    return ok;
}

/* The first region before r on the same squares (the same views, another table: a region
 * split by the phases of the game), or r. */
static int first_alike(const Evaluator *ev, int r)
{
    const EvalRegion *g = &ev->regions[r];
    for (int q = 0; q < r; q++)
        if (ev->regions[q].k == g->k && !memcmp(ev->regions[q].sq, g->sq, sizeof g->sq))
            return q;
    return r;
}

/* What a piece on each square adds to each view's index: 3**i where the view's i-th square
 * is that square, once for the view's own side (ours), twice for the other (theirs). */
static int region_pieces(Evaluator *ev)
{
    int slots = 0;
    for (int r = 0; r < ev->nreg; r++) {
        int q = first_alike(ev, r);
        ev->regions[r].slot = q == r ? slots++ : ev->regions[q].slot;
    }
    int n = (2 * slots + VIEW_LANES - 1) / VIEW_LANES * VIEW_LANES;
    ev->piece = PyMem_Calloc((size_t)(2 * NSQ * n), sizeof(uint16_t));
    if (!ev->piece) {
        PyErr_NoMemory();
        return 0;
    }
    ev->nviews = n;
    for (int r = 0; r < ev->nreg; r++) {
        const EvalRegion *g = &ev->regions[r];
        if (first_alike(ev, r) != r)
            continue; /* its views are an earlier region's */
        for (int v = 0; v < 2; v++)
            for (int i = 0, place = 1; i < g->k; i++, place *= 3)
                for (int side = 0; side < 2; side++) /* view 0 is White's: White's men ours */
                    ev->piece[((size_t)side * NSQ + (size_t)g->sq[v][i]) * n + 2 * g->slot + v]
                        += (uint16_t)(side == v ? place : 2 * place);
    }
    return 1;
}

static Py_ssize_t pow3(int k)
{
    Py_ssize_t n = 1;
    while (k--)
        n *= 3;
    return n;
}

/* One region: (white squares, black squares, table of 3**k weights in hundredths). */
static int read_region(PyObject *o, EvalRegion *g)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 3) {
        PyErr_SetString(PyExc_TypeError, "a region is (white squares, black squares, table)");
        return 0;
    }
    for (int v = 0; v < 2; v++) {
        PyObject *fs = tuple_copy(PyTuple_GET_ITEM(o, v), "a region's squares");
        if (!fs)
            return 0;
        Py_ssize_t k = PyTuple_GET_SIZE(fs);
        int ok = k >= 1 && k <= 8 && (v == 0 || k == g->k);
        if (!ok)
            PyErr_SetString(PyExc_ValueError, "a region has 1 to 8 squares, the same per view");
        for (Py_ssize_t i = 0; ok && i < k; i++) {
            long s = 0;
            ok = small(PyTuple_GET_ITEM(fs, i), 0, NSQ - 1, &s)
                 && ((BB_BOARD >> s & 1) || (PyErr_SetString(PyExc_ValueError,
                                                             "a region square off the board"), 0));
            g->sq[v][i] = (int)s;
        }
        Py_DECREF(fs);
        if (!ok)
            return 0;
        g->k = (int)k;
    }
    Py_ssize_t n = pow3(g->k);
    g->table = PyMem_Calloc((size_t)n, sizeof(int32_t));
    if (!g->table) {
        PyErr_NoMemory();
        return 0;
    }
    for (int v = 0; v < 2; v++)
        for (int i = 0; i < g->k; i++)
            g->on[v] |= (Bitboard)1 << g->sq[v][i];
    return read_weights(PyTuple_GET_ITEM(o, 2), g->table, n, "a region's table");
}

/* The regions' tables in 16 bits when every weight fits (the shipped ones are within 328 men
 * either way): half the cache lines the evaluation reads, the same numbers. */
static int narrow_regions(Evaluator *ev)
{
    for (int r = 0; r < ev->nreg; r++)
        for (int i = 0, n = (int)pow3(ev->regions[r].k); i < n; i++)
            if (ev->regions[r].table[i] < INT16_MIN || ev->regions[r].table[i] > INT16_MAX)
                return 1;
    for (int r = 0; r < ev->nreg; r++) {
        EvalRegion *g = &ev->regions[r];
        int n = (int)pow3(g->k);
        g->narrow = PyMem_Calloc((size_t)n, sizeof(int16_t));
        if (!g->narrow) {
            PyErr_NoMemory();
            return 0;
        }
        for (int i = 0; i < n; i++)
            g->narrow[i] = (int16_t)g->table[i];
    }
    for (int r = 0; r < ev->nreg; r++) {
        PyMem_Free(ev->regions[r].table);
        ev->regions[r].table = NULL;
    }
    ev->narrow = 1;
    return 1;
}

/* The regions, and per row which of them apply (rows already read). */
static int read_regions(Evaluator *ev, PyObject *regions, PyObject *on, Py_ssize_t nrows)
{
    if (regions == Py_None)
        return 1;
    PyObject *fr = tuple_copy(regions, "regions");
    PyObject *fo = fr ? tuple_copy(on, "region_rows") : NULL;
    int ok = fo != NULL;
    Py_ssize_t n = ok ? PyTuple_GET_SIZE(fr) : 0;
    if (ok && (n > MAX_REGIONS || PyTuple_GET_SIZE(fo) != nrows)) {
        PyErr_SetString(PyExc_ValueError, "256 regions at most, and a row of flags a row");
        ok = 0;
    }
    if (ok && n) {
        ev->regions = PyMem_Calloc((size_t)n, sizeof(EvalRegion));
        ev->region_on = PyMem_Calloc((size_t)(n * nrows), 1);
        ok = ev->regions && ev->region_on;
        if (!ok)
            PyErr_NoMemory();
    }
    for (Py_ssize_t r = 0; ok && r < n; r++) {
        ok = read_region(PyTuple_GET_ITEM(fr, r), &ev->regions[r]);
        ev->nreg = (int)r + 1; /* what was allocated is freed, even on a fault */
    }
    for (Py_ssize_t row = 0; ok && n && row < nrows; row++) {
        PyObject *flags = tuple_copy(PyTuple_GET_ITEM(fo, row), "region flags");
        ok = flags && PyTuple_GET_SIZE(flags) == n;
        if (flags && !ok)
            PyErr_SetString(PyExc_ValueError, "a flag per region a row");
        for (Py_ssize_t r = 0; ok && r < n; r++) {
            int truth = PyObject_IsTrue(PyTuple_GET_ITEM(flags, r));
            ok = truth >= 0;
            ev->region_on[row * n + r] = (unsigned char)(truth > 0);
        }
        Py_XDECREF(flags);
    }
    ok = ok && (!n || (region_pieces(ev) && narrow_regions(ev)));
    Py_XDECREF(fr);
    Py_XDECREF(fo);
    return ok;
}

/* The rows and what goes with them into ev (zeroed): 0 with an exception. */
static int read_rows(Evaluator *ev, PyObject *rows, PyObject *features, PyObject *patterns,
                     PyObject *pweights, PyObject *regions, PyObject *region_rows)
{
    PyObject *fr = tuple_copy(rows, "rows");
    PyObject *ff = fr ? tuple_copy(features, "features") : NULL;
    if (!ff) {
        Py_XDECREF(fr);
        return 0;
    }
    Py_ssize_t nbits = PyTuple_GET_SIZE(ff), nrows = PyTuple_GET_SIZE(fr);
    int ok = nbits <= MAX_EVAL_BITS && nrows == (Py_ssize_t)1 << nbits;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "2**len(features) rows are needed, %d features at most",
                     MAX_EVAL_BITS);
    for (Py_ssize_t k = 0; ok && k < nbits; k++) { /* OTHERS, then MEN_SUMS */
        long j = 0;
        ok = small(PyTuple_GET_ITEM(ff, k), 0, N_OTHERS + N_MEN_SUMS - 1, &j);
        ev->bit_feature[k] = (int)j;
        ev->men_bits |= j >= N_OTHERS;
    }
    if (ok) {
        ev->nbits = (int)nbits;
        ev->rows = PyMem_Calloc((size_t)nrows, sizeof(EvalRow));
        ok = ev->rows != NULL;
        if (!ok)
            PyErr_NoMemory();
    }
    for (Py_ssize_t r = 0; ok && r < nrows; r++)
        ok = read_row(PyTuple_GET_ITEM(fr, r), &ev->rows[r]);
    ok = ok && read_patterns(ev, patterns, pweights, nrows)
         && read_regions(ev, regions, region_rows, nrows);
    Py_DECREF(fr);
    Py_DECREF(ff);
    return ok;
}

/* Whether the evaluator may change: not while a search reads it without the GIL. */
static int idle(EvaluatorObject *self)
{
    if (self->users)
        PyErr_SetString(PyExc_RuntimeError, "this evaluator is searching");
    return !self->users;
}

/* The new evaluation is read aside (reading runs Python code: a weight's __float__ may use
 * or re-initialise this evaluator) and takes the old one's place only when it is whole. */
static int Evaluator_init(EvaluatorObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rows", "features", "material", "patterns", "pattern_weights",
                            "regions", "region_rows", NULL};
    PyObject *rows = Py_None, *features = Py_None, *patterns = Py_None, *pweights = Py_None;
    PyObject *regions = Py_None, *region_rows = Py_None;
    int material = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOpOOOO:Evaluator", names, &rows, &features,
                                     &material, &patterns, &pweights, &regions, &region_rows)
        || !idle(self))
        return -1;
    Evaluator ev;
    memset(&ev, 0, sizeof ev);
    ev.material_only = material;
    if (!material && !read_rows(&ev, rows, features, patterns, pweights, regions, region_rows)) {
        free_evaluator(&ev);
        return -1;
    }
    if (!idle(self)) { /* a search began while the rows were read */
        free_evaluator(&ev);
        return -1;
    }
    Evaluator old = self->ev;
    self->ev = ev;
    free_evaluator(&old);
    return 0;
}

static PyObject *Evaluator_evaluate(EvaluatorObject *self, PyObject *arg)
{
    Pos p;
    if (!to_pos(arg, &p))
        return NULL;
    if (!self->ev.material_only && !self->ev.rows) {
        PyErr_SetString(PyExc_RuntimeError, "the evaluator has no rows");
        return NULL;
    }
    return PyFloat_FromDouble(evaluate(&self->ev, &p));
}

static PyMethodDef Evaluator_methods[] = {
    {"evaluate", (PyCFunction)Evaluator_evaluate, METH_O,
     "evaluate(pos): the score for the side to move, as Heuristic.evaluate gives it"},
    {NULL}};

PyTypeObject EvaluatorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kbdraughts._core.Evaluator",
    .tp_basicsize = sizeof(EvaluatorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Evaluator(rows, features) or Evaluator(material=True): the search's evaluation",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Evaluator_init,
    .tp_dealloc = (destructor)Evaluator_dealloc,
    .tp_methods = Evaluator_methods,
};

