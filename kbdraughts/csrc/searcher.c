/* kbdraughts._core.Searcher: the search (search.c) run without the GIL. Its arguments are read
 * into C first (Python code can run meanwhile: an item's __index__, another thread), and only
 * then is the searcher checked and changed. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "egdb_py.h"
#include "root.h"

#define MAX_COUNTER (1 << 20) /* the draw counters: a ply is added per node without overflow */
#define MAX_HISTORY (1 << 20) /* positions of the game: the path's size stays an int */

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

/* Detached before they are released: a release can run an exporter's __del__, which may call
 * back into this searcher. */
static void release_tables(SearcherObject *self)
{
    Py_buffer *held = self->held;
    Py_ssize_t n = self->nheld;
    self->held = NULL;
    self->nheld = 0;
    memset(&self->s.leaves, 0, sizeof self->s.leaves);
    release_buffers(held, n);
}

/* Whether the searcher may be changed: not while its search runs (on another thread, or below
 * a signal handler the search lets run), which reads its memory without the GIL. */
static int idle(SearcherObject *self)
{
    if (self->busy)
        PyErr_SetString(PyExc_RuntimeError, "this searcher is searching");
    return !self->busy;
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
    if (!idle(self)) /* asked after the arguments: their __index__ or __bool__ ran Python */
        return -1;
    if (self->allocated)
        search_free(&self->s);
    self->allocated = search_alloc(&self->s, (size_t)tt_size, 64); /* no tables read now */
    self->s.ev = &((EvaluatorObject *)ev)->ev;
    self->s.reductions = reductions;
    self->s.extensions = extensions;
    self->s.forced_extension = forced;
    Py_INCREF(ev);
    PyObject *old = self->evaluator;
    self->evaluator = ev;
    /* Last, the searcher whole: releasing the tables or the old evaluator can run Python. */
    release_tables(self);
    Py_XDECREF(old);
    if (!self->allocated) {
        PyErr_NoMemory();
        return -1;
    }
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

/* The search's path: the game's positions that can recur (those with kings), then the root
 * when it has kings. */
static int set_path(Search *s, const Pos *hist, Py_ssize_t nh, const Pos *pos)
{
    if (nh + MAX_PLY + 2 > s->path_cap) {
        Pos *grown = realloc(s->path, sizeof(Pos) * (size_t)(nh + MAX_PLY + 2));
        if (!grown) {
            PyErr_NoMemory();
            return 0;
        }
        s->path = grown;
        s->path_cap = (int)(nh + MAX_PLY + 2);
    }
    s->npath = 0;
    for (Py_ssize_t i = 0; i < nh; i++)
        if (hist[i].kings)
            s->path[s->npath++] = hist[i];
    if (pos->kings)
        s->path[s->npath++] = *pos;
    return 1;
}

static int ready_to_search(SearcherObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this searcher is already searching");
        return 0;
    }
    if (!self->allocated || (!self->s.ev->material_only && !self->s.ev->rows)) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher or its evaluator is not set up");
        return 0;
    }
    return 1;
}

/* The search without the GIL, the searcher and its evaluator marked in use meanwhile. */
static RootResult run_search(SearcherObject *self, const Pos *pos, const Move *root,
                             Py_ssize_t n, int max_depth, double budget, uint64_t nodes,
                             int ko, int sb, int contempt)
{
    EvaluatorObject *ev = (EvaluatorObject *)self->evaluator;
    self->s.poll = PyThread_get_thread_ident() == main_thread ? poll_signals : NULL;
    self->s.poll_arg = self;
    self->busy = 1;
    ev->users++;
    searches_running++;
    self->tstate = PyEval_SaveThread();
    RootResult r = search_root(&self->s, pos, root, (int)n, max_depth, budget, nodes, ko, sb,
                                 contempt);
    PyEval_RestoreThread(self->tstate);
    searches_running--;
    ev->users--;
    self->busy = 0;
    return r;
}

static PyObject *Searcher_search(SearcherObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"pos", "moves", "max_depth", "budget", "history", "counters",
                            "contempt", "nodes", NULL};
    PyObject *po, *mo, *history = NULL;
    int max_depth, ko = 0, sb = 0, contempt = 0;
    double budget = -1;
    unsigned long long nodes = 0; /* 0: no node budget */
    Pos pos, *hist = NULL;
    Py_ssize_t n, nh = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOi|dO(ii)pK:search", names, &po, &mo,
                                     &max_depth, &budget, &history, &ko, &sb, &contempt,
                                     &nodes)
        || !to_pos(po, &pos))
        return NULL;
    if (ko < 0 || sb < 0 || ko > MAX_COUNTER || sb > MAX_COUNTER || max_depth < 0
        || max_depth > 200) {
        PyErr_SetString(PyExc_ValueError, "counters and depth must be small and not negative");
        return NULL;
    }
    Move *root = to_moves(mo, &pos, &n);
    if (!root)
        return NULL;
    if (history && history != Py_None && !(hist = to_positions(history, MAX_HISTORY, &nh))) {
        PyMem_Free(root);
        return NULL;
    }
    /* No Python code runs from these checks to the search's end: what they find holds. */
    int ok = ready_to_search(self) && set_path(&self->s, hist, nh, &pos);
    PyMem_Free(hist);
    RootResult r = {0};
    if (ok)
        r = run_search(self, &pos, root, n, max_depth, budget, nodes, ko, sb, contempt);
    PyMem_Free(root);
    if (!ok || PyErr_Occurred())
        return NULL; /* or a signal handler raised (KeyboardInterrupt) */
    return Py_BuildValue("(idiiKd)", r.index, r.score, r.depth, r.complete,
                         (unsigned long long)self->s.nodes, self->s.mean_depth);
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
    const Entry *e = self->allocated && table_probe(&self->s.tt, &p, &found) ? &found : NULL;
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
    if (!idle(self))
        return NULL;
    if (!self->allocated)
        return Py_BuildValue("(nn)", (Py_ssize_t)0, (Py_ssize_t)0);
    const Table *t = &self->s.tt;
    return Py_BuildValue("(nn)", (Py_ssize_t)t->cur.count, (Py_ssize_t)t->old.count);
}

/* One item (material, (values, distances)) of set_tables' dict into got, its buffers held. */
static int read_table(PyObject *item, Py_buffer *held, Py_ssize_t *nheld, Leaves *got)
{
    Material m;
    PyObject *vo, *dobj;
    if (!to_material(PyTuple_GET_ITEM(item, 0), &m)
        || !PyArg_ParseTuple(PyTuple_GET_ITEM(item, 1), "OO:set_tables", &vo, &dobj))
        return 0;
    Py_buffer *vb = &held[*nheld], *db = vb + 1;
    if (PyObject_GetBuffer(vo, vb, PyBUF_SIMPLE) < 0)
        return 0;
    ++*nheld;
    if (PyObject_GetBuffer(dobj, db, PyBUF_SIMPLE) < 0)
        return 0;
    ++*nheld;
    uint64_t n = 2 * eg_half(&m);
    if ((uint64_t)vb->len != (n + 3) / 4 || (uint64_t)db->len != n) {
        PyErr_SetString(PyExc_ValueError, "a table's values or distances have the wrong length");
        return 0;
    }
    got->values.values[m.wm][m.wk][m.bm][m.bk] = vb->buf;
    got->dist.values[m.wm][m.wk][m.bm][m.bk] = db->buf;
    int pieces = m.wm + m.wk + m.bm + m.bk;
    if (pieces > got->pieces)
        got->pieces = pieces;
    return 1;
}

/* set_tables({material: (values, distances)}): the endgame tables the search reads at its
 * nodes from now on (egdb/leaves.py's Leaves.buffers); {} reads none. Every length checked;
 * the dict's items are copied first (a material's __index__ may change the dict), and the
 * searcher changed only when they are all read. */
static PyObject *Searcher_set_tables(SearcherObject *self, PyObject *dict)
{
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "tables must be a dict {material: (values, distances)}");
        return NULL;
    }
    PyObject *items = PyDict_Items(dict);
    if (!items)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items), nheld = 0;
    Py_buffer *held = PyMem_Calloc(2 * (size_t)n + 1, sizeof(Py_buffer));
    Leaves got;
    memset(&got, 0, sizeof got);
    int ok = held || (PyErr_NoMemory(), 0);
    for (Py_ssize_t i = 0; ok && i < n; i++)
        ok = read_table(PyList_GET_ITEM(items, i), held, &nheld, &got);
    Py_DECREF(items);
    if (ok && !self->allocated) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is not set up");
        ok = 0;
    }
    if (!ok || !idle(self)) {
        release_buffers(held, nheld);
        return NULL;
    }
    Py_buffer *old = self->held;
    Py_ssize_t nold = self->nheld;
    self->held = held;
    self->nheld = nheld;
    self->s.leaves = got;
    release_buffers(old, nold);
    Py_RETURN_NONE;
}

static PyMethodDef Searcher_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Searcher_search, METH_VARARGS | METH_KEYWORDS,
     "search(pos, moves, max_depth, budget=-1, history=None, counters=(0, 0), contempt=False,"
     " nodes=0) -> (index of the best move, score, depth, complete, nodes, mean depth)"},
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

