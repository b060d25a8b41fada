/* kbdraughts._core.Searcher: the search (search.c) run without the GIL. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "pyface.h"

/* -- Searcher ---------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Search s;
    int allocated, busy;
    PyObject *evaluator;
    PyThreadState *tstate; /* while a search runs without the GIL */
    Py_buffer *held;       /* the endgame tables' bytes the search reads (set_tables) */
    Py_ssize_t nheld;
} SearcherObject;

static void release_tables(SearcherObject *self)
{
    for (Py_ssize_t i = 0; i < self->nheld; i++)
        PyBuffer_Release(&self->held[i]);
    PyMem_Free(self->held);
    self->held = NULL;
    self->nheld = 0;
    memset(&self->s.leaves, 0, sizeof self->s.leaves);
}

static void Searcher_dealloc(SearcherObject *self)
{
    release_tables(self);
    if (self->allocated)
        search_free(&self->s);
    Py_XDECREF(self->evaluator);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Searcher_init(SearcherObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"evaluator", "tt_size", "reductions", "extensions",
                            "forced_extension", NULL};
    PyObject *ev;
    Py_ssize_t tt_size = 1 << 17;
    int reductions = 1, extensions = 0, forced = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|nppp:Searcher", names, &EvaluatorType, &ev,
                                     &tt_size, &reductions, &extensions, &forced))
        return -1;
    if (tt_size < 1 || tt_size > ((Py_ssize_t)1 << 26)) {
        PyErr_SetString(PyExc_ValueError, "tt_size must be 1..2**26");
        return -1;
    }
    release_tables(self);
    if (self->allocated)
        search_free(&self->s);
    self->allocated = search_alloc(&self->s, (size_t)tt_size, 64);
    if (!self->allocated) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(ev);
    Py_XSETREF(self->evaluator, ev);
    self->s.ev = &((EvaluatorObject *)ev)->ev;
    self->s.reductions = reductions;
    self->s.extensions = extensions;
    self->s.forced_extension = forced;
    return 0;
}

/* The search's poll on the main thread: take the GIL a moment and let a signal handler run. */
static int poll_signals(void *arg)
{
    SearcherObject *self = arg;
    PyEval_RestoreThread(self->tstate);
    int stop = PyErr_CheckSignals() < 0;
    self->tstate = PyEval_SaveThread();
    return stop;
}

static PyObject *Searcher_search(SearcherObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"pos", "moves", "max_depth", "budget", "history", "counters",
                            "contempt", NULL};
    PyObject *po, *mo, *history = NULL;
    int max_depth, ko = 0, sb = 0, contempt = 0;
    double budget = -1;
    Pos pos;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOi|dO(ii)p:search", names, &po, &mo,
                                     &max_depth, &budget, &history, &ko, &sb, &contempt))
        return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this searcher is already searching");
        return NULL;
    }
    if (!self->allocated || (!self->s.ev->material_only && !self->s.ev->rows)) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher or its evaluator is not set up");
        return NULL;
    }
    if (!to_pos(po, &pos))
        return NULL;
    if (ko < 0 || sb < 0 || max_depth < 0 || max_depth > 200) {
        PyErr_SetString(PyExc_ValueError, "counters and depth must be small and not negative");
        return NULL;
    }
    PyObject *moves = PySequence_Fast(mo, "moves must be a sequence");
    if (!moves)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(moves);
    if (n < 1 || n > MAX_MOVES) {
        Py_DECREF(moves);
        PyErr_SetString(PyExc_ValueError, "1 to 512 root moves are needed");
        return NULL;
    }
    Move *root = PyMem_Malloc(sizeof(Move) * (size_t)n);
    int ok = root != NULL;
    for (Py_ssize_t i = 0; ok && i < n; i++)
        ok = to_move(PySequence_Fast_GET_ITEM(moves, i), &root[i]);
    Py_DECREF(moves);
    PyObject *hist = ok && history && history != Py_None
        ? PySequence_Fast(history, "history must be a sequence") : NULL;
    ok = ok && (hist || !history || history == Py_None);
    Search *s = &self->s;
    s->npath = 0;
    Py_ssize_t nh = hist ? PySequence_Fast_GET_SIZE(hist) : 0;
    if (ok && nh + MAX_PLY + 2 > s->path_cap) {
        Pos *grown = realloc(s->path, sizeof(Pos) * (size_t)(nh + MAX_PLY + 2));
        ok = grown != NULL;
        if (ok) {
            s->path = grown;
            s->path_cap = (int)(nh + MAX_PLY + 2);
        } else {
            PyErr_NoMemory();
        }
    }
    for (Py_ssize_t i = 0; ok && i < nh; i++) {
        Pos h;
        ok = to_pos(PySequence_Fast_GET_ITEM(hist, i), &h);
        if (ok && h.kings)
            s->path[s->npath++] = h;
    }
    Py_XDECREF(hist);
    if (!ok) {
        PyMem_Free(root);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    if (pos.kings)
        s->path[s->npath++] = pos;
    s->poll = PyThread_get_thread_ident() == main_thread ? poll_signals : NULL;
    s->poll_arg = self;
    RootResult r;
    self->busy = 1;
    self->tstate = PyEval_SaveThread();
    r = search_root(s, &pos, root, (int)n, max_depth, budget, ko, sb, contempt);
    PyEval_RestoreThread(self->tstate);
    self->busy = 0;
    PyMem_Free(root);
    if (PyErr_Occurred())
        return NULL; /* a signal handler raised (KeyboardInterrupt) */
    return Py_BuildValue("(idiiKd)", r.index, r.score, r.depth, r.complete,
                         (unsigned long long)s->nodes, s->mean_depth);
}

static PyObject *Searcher_probe(SearcherObject *self, PyObject *arg)
{
    Pos p;
    if (!to_pos(arg, &p))
        return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this searcher is searching");
        return NULL;
    }
    Entry found;
    const Entry *e = self->allocated && table_probe(&self->s, &p, &found) ? &found : NULL;
    if (!e)
        Py_RETURN_NONE;
    PyObject *move = e->has_move
        ? Py_BuildValue("(iiK)", e->mstart, e->mend, (unsigned long long)e->mcap)
        : (Py_INCREF(Py_None), Py_None);
    if (!move)
        return NULL;
    return Py_BuildValue("(idiN)", e->depth, e->score, e->flag, move);
}

static PyObject *Searcher_line(SearcherObject *self, PyObject *unused)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this searcher is searching");
        return NULL;
    }
    int n = self->allocated ? self->s.root_pv_len : 0;
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        const Move *m = &self->s.root_pv[i];
        PyObject *t = Py_BuildValue("(iiK)", m->start, m->end, (unsigned long long)m->captured);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static PyObject *Searcher_halt(SearcherObject *self, PyObject *unused)
{
    __atomic_store_n(&self->s.halt, 1, __ATOMIC_RELAXED); /* read at the search's next tick */
    Py_RETURN_NONE;
}

static PyObject *Searcher_clear_halt(SearcherObject *self, PyObject *unused)
{
    __atomic_store_n(&self->s.halt, 0, __ATOMIC_RELAXED);
    Py_RETURN_NONE;
}

static PyObject *Searcher_get_table_counts(SearcherObject *self, void *closure)
{
    if (!self->allocated)
        return Py_BuildValue("(nn)", (Py_ssize_t)0, (Py_ssize_t)0);
    return Py_BuildValue("(nn)", (Py_ssize_t)self->s.cur.count, (Py_ssize_t)self->s.old.count);
}

/* set_tables({material: (values, distances)}): the endgame tables the search reads at its
 * nodes from now on (egdb/leaves.py's Leaves.buffers); {} reads none. Every length checked. */
static PyObject *Searcher_set_tables(SearcherObject *self, PyObject *dict)
{
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "tables must be a dict {material: (values, distances)}");
        return NULL;
    }
    if (self->busy || !self->allocated) {
        PyErr_SetString(PyExc_RuntimeError, "this searcher is searching");
        return NULL;
    }
    release_tables(self);
    self->held = PyMem_Calloc(2 * (size_t)PyDict_Size(dict) + 1, sizeof(Py_buffer));
    if (!self->held)
        return PyErr_NoMemory();
    Leaves got;
    memset(&got, 0, sizeof got);
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        Material m;
        PyObject *vo, *dobj;
        if (!to_material(key, &m))
            goto fail;
        if (!PyArg_ParseTuple(value, "OO:set_tables", &vo, &dobj))
            goto fail;
        Py_buffer *vb = &self->held[self->nheld], *db = vb + 1;
        if (PyObject_GetBuffer(vo, vb, PyBUF_SIMPLE) < 0)
            goto fail;
        self->nheld++;
        if (PyObject_GetBuffer(dobj, db, PyBUF_SIMPLE) < 0)
            goto fail;
        self->nheld++;
        uint64_t n = 2 * eg_half(&m);
        if ((uint64_t)vb->len != (n + 3) / 4 || (uint64_t)db->len != n) {
            PyErr_SetString(PyExc_ValueError, "a table's values or distances have the wrong length");
            goto fail;
        }
        got.values.values[m.wm][m.wk][m.bm][m.bk] = vb->buf;
        got.dist.values[m.wm][m.wk][m.bm][m.bk] = db->buf;
        int pieces = m.wm + m.wk + m.bm + m.bk;
        if (pieces > got.pieces)
            got.pieces = pieces;
    }
    self->s.leaves = got;
    Py_RETURN_NONE;
fail:
    release_tables(self);
    return NULL;
}

static PyMethodDef Searcher_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Searcher_search, METH_VARARGS | METH_KEYWORDS,
     "search(pos, moves, max_depth, budget=-1, history=None, counters=(0, 0), contempt=False)"
     " -> (index of the best move, score, depth, complete, nodes, mean depth)"},
    {"probe", (PyCFunction)Searcher_probe, METH_O,
     "probe(pos) -> (depth, score, flag, (start, end, captured) or None) or None"},
    {"line", (PyCFunction)Searcher_line, METH_NOARGS,
     "the last search's principal line: [(start, end, captured), ...]"},
    {"halt", (PyCFunction)Searcher_halt, METH_NOARGS, "stop the running search soon"},
    {"clear_halt", (PyCFunction)Searcher_clear_halt, METH_NOARGS, "forget an earlier halt()"},
    {"set_tables", (PyCFunction)Searcher_set_tables, METH_O,
     "set_tables({(wm, wk, bm, bk): (values, distances)}): endgame tables read at the nodes"},
    {NULL}};

static PyGetSetDef Searcher_getset[] = {
    {"table_counts", (getter)Searcher_get_table_counts, NULL,
     "positions in the table's current and old halves", NULL},
    {NULL}};

PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kbdraughts._core.Searcher",
    .tp_basicsize = sizeof(SearcherObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Searcher(evaluator, tt_size=2**17, reductions=True, extensions=False, "
              "forced_extension=False): ai/tree.py's tree and ai/search.py's root in C",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
    .tp_getset = Searcher_getset,
};

