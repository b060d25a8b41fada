/* kbdraughts._core.Evaluator: the evaluation's rows (from Heuristic) held for C. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "pyface.h"

/* -- Evaluator --------------------------------------------------------------------------- */


static void free_evaluator(Evaluator *ev)
{
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

static int doubles(PyObject *seq, double *out, Py_ssize_t n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return 0;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd numbers are needed", what, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return 0;
        }
    }
    Py_DECREF(fast);
    return 1;
}

/* One row: (const, on_endgame, white tables (4 x 512), black tables, weights of OTHERS). */
static int read_row(PyObject *o, EvalRow *row)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 5) {
        PyErr_SetString(PyExc_TypeError, "a row (const, on_endgame, white, black, weights)");
        return 0;
    }
    row->cnst = PyFloat_AsDouble(PyTuple_GET_ITEM(o, 0));
    row->on_endgame = PyFloat_AsDouble(PyTuple_GET_ITEM(o, 1));
    if (PyErr_Occurred())
        return 0;
    for (int side = 0; side < 2; side++) {
        PyObject *tables = PyTuple_GET_ITEM(o, 2 + side);
        if (!PyTuple_Check(tables) || PyTuple_GET_SIZE(tables) != 4) {
            PyErr_SetString(PyExc_TypeError, "four tables a side are needed");
            return 0;
        }
        for (int i = 0; i < 4; i++)
            if (!doubles(PyTuple_GET_ITEM(tables, i), side ? row->black[i] : row->white[i], 512,
                         "a men table"))
                return 0;
    }
    return doubles(PyTuple_GET_ITEM(o, 4), row->weights, N_OTHERS, "weights");
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
    PyObject *fp = PySequence_Fast(patterns, "patterns must be a sequence");
    PyObject *fw = fp ? PySequence_Fast(weights, "pattern_weights must be a sequence") : NULL;
    int ok = fw != NULL;
    Py_ssize_t n = ok ? PySequence_Fast_GET_SIZE(fp) : 0;
    if (ok && (n > 4096 || PySequence_Fast_GET_SIZE(fw) != nrows)) {
        PyErr_SetString(PyExc_ValueError, "4096 patterns at most, and a row of weights a row");
        ok = 0;
    }
    if (ok && n) {
        ev->patterns = PyMem_Calloc((size_t)n, sizeof(PatternMasks));
        ev->pattern_weights = PyMem_Calloc((size_t)(n * nrows), sizeof(double));
        ok = ev->patterns && ev->pattern_weights;
        if (!ok)
            PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; ok && k < n; k++)
        ok = read_pattern(PySequence_Fast_GET_ITEM(fp, k), ev->patterns[k]);
    for (Py_ssize_t r = 0; ok && n && r < nrows; r++)
        ok = doubles(PySequence_Fast_GET_ITEM(fw, r), ev->pattern_weights + r * n, n,
                     "pattern weights");
    if (ok)
        ev->npat = (int)n;
    Py_XDECREF(fp);
    Py_XDECREF(fw);
    return ok;
}

static int Evaluator_init(EvaluatorObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rows", "features", "material", "patterns", "pattern_weights",
                            NULL};
    PyObject *rows = Py_None, *features = Py_None, *patterns = Py_None, *pweights = Py_None;
    int material = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOpOO:Evaluator", names, &rows, &features,
                                     &material, &patterns, &pweights))
        return -1;
    free_evaluator(&self->ev);
    self->ev.material_only = material;
    if (material)
        return 0;
    PyObject *fr = PySequence_Fast(rows, "rows must be a sequence");
    PyObject *ff = fr ? PySequence_Fast(features, "features must be a sequence") : NULL;
    if (!ff) {
        Py_XDECREF(fr);
        return -1;
    }
    Py_ssize_t nbits = PySequence_Fast_GET_SIZE(ff), nrows = PySequence_Fast_GET_SIZE(fr);
    int ok = nbits <= MAX_EVAL_BITS && nrows == (Py_ssize_t)1 << nbits;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "2**len(features) rows are needed, 8 features at most");
    for (Py_ssize_t k = 0; ok && k < nbits; k++) {
        long j = 0;
        ok = small(PySequence_Fast_GET_ITEM(ff, k), 0, N_OTHERS - 1, &j);
        self->ev.bit_feature[k] = (int)j;
    }
    if (ok) {
        self->ev.nbits = (int)nbits;
        self->ev.rows = PyMem_Calloc((size_t)nrows, sizeof(EvalRow));
        ok = self->ev.rows != NULL;
        if (!ok)
            PyErr_NoMemory();
    }
    for (Py_ssize_t r = 0; ok && r < nrows; r++)
        ok = read_row(PySequence_Fast_GET_ITEM(fr, r), &self->ev.rows[r]);
    if (ok)
        ok = read_patterns(&self->ev, patterns, pweights, nrows);
    Py_DECREF(fr);
    Py_DECREF(ff);
    return ok ? 0 : -1;
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

