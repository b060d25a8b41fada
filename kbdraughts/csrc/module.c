/* kbdraughts._core: the native core's Python face. Positions and moves cross as the tuples
 * of board.py (Position, Move); everything is checked here before C sees it, and errors
 * become Python exceptions at this boundary only. The GIL is released while a search or a
 * perft runs; a search stops at its deadline, at halt() from another thread, or on a signal
 * (Ctrl-C) when it runs on the main thread. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>
#include "core.h"
#include "search.h"

static PyTypeObject *MoveType, *PositionType;
static unsigned long main_thread;

/* -- positions and moves -------------------------------------------------------------- */

static int bits(PyObject *o, Bitboard *out, const char *what)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s is not a bitboard", what);
        return 0;
    }
    if (v & ~BB_BOARD) {
        PyErr_Format(PyExc_ValueError, "%s has bits off the board", what);
        return 0;
    }
    *out = v;
    return 1;
}

static int to_pos(PyObject *o, Pos *p)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 4) {
        PyErr_SetString(PyExc_TypeError, "a Position (white, black, kings, side) is needed");
        return 0;
    }
    if (!bits(PyTuple_GET_ITEM(o, 0), &p->white, "white") || !bits(PyTuple_GET_ITEM(o, 1),
        &p->black, "black") || !bits(PyTuple_GET_ITEM(o, 2), &p->kings, "kings"))
        return 0;
    long side = PyLong_AsLong(PyTuple_GET_ITEM(o, 3));
    if ((side != 0 && side != 1) || p->white & p->black || p->kings & ~(p->white | p->black)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "not a position: overlapping pieces or a bad side");
        return 0;
    }
    p->side = (int)side;
    return 1;
}

static int small(PyObject *o, long lo, long hi, long *out)
{
    long v = PyLong_AsLong(o);
    if ((v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "a number out of range in a move");
        return 0;
    }
    *out = v;
    return 1;
}

/* A Move tuple (start, end, captured, path, crowned) as the search needs it (no path). */
static int to_move(PyObject *o, Move *m)
{
    long start, end, crowned;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 5) {
        PyErr_SetString(PyExc_TypeError, "a Move (start, end, captured, path, crowned) is needed");
        return 0;
    }
    if (!small(PyTuple_GET_ITEM(o, 0), 0, NSQ - 1, &start)
        || !small(PyTuple_GET_ITEM(o, 1), 0, NSQ - 1, &end)
        || !bits(PyTuple_GET_ITEM(o, 2), &m->captured, "captured"))
        return 0;
    crowned = PyObject_IsTrue(PyTuple_GET_ITEM(o, 4));
    if (crowned < 0)
        return 0;
    m->start = (uint8_t)start;
    m->end = (uint8_t)end;
    m->crowned = (uint8_t)crowned;
    m->npath = 0;
    return 1;
}

/* A tuple subclass filled in place, as tuple.__new__(cls, items) does. */
static PyObject *new_tuple(PyTypeObject *type, Py_ssize_t n)
{
    return type->tp_alloc(type, n);
}

static PyObject *from_move(const Move *m)
{
    PyObject *path = PyTuple_New(m->npath);
    PyObject *t = new_tuple(MoveType, 5);
    PyObject *cap = PyLong_FromUnsignedLongLong(m->captured);
    if (!path || !t || !cap) {
        Py_XDECREF(path);
        Py_XDECREF(t);
        Py_XDECREF(cap);
        return NULL;
    }
    for (int i = 0; i < m->npath; i++)
        PyTuple_SET_ITEM(path, i, PyLong_FromLong(m->path[i])); /* small ints: cached */
    PyTuple_SET_ITEM(t, 0, PyLong_FromLong(m->start));
    PyTuple_SET_ITEM(t, 1, PyLong_FromLong(m->end));
    PyTuple_SET_ITEM(t, 2, cap);
    PyTuple_SET_ITEM(t, 3, path);
    PyTuple_SET_ITEM(t, 4, PyBool_FromLong(m->crowned));
    return t;
}

static PyObject *from_pos(const Pos *p)
{
    PyObject *t = new_tuple(PositionType, 4);
    if (!t)
        return NULL;
    PyObject *items[4] = {PyLong_FromUnsignedLongLong(p->white),
                          PyLong_FromUnsignedLongLong(p->black),
                          PyLong_FromUnsignedLongLong(p->kings), PyLong_FromLong(p->side)};
    for (int i = 0; i < 4; i++) {
        if (!items[i]) {
            for (int j = 0; j < 4; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(t);
            return NULL;
        }
    }
    for (int i = 0; i < 4; i++)
        PyTuple_SET_ITEM(t, i, items[i]);
    return t;
}

static PyObject *from_list(const MoveList *l)
{
    if (l->overflow) {
        PyErr_SetString(PyExc_OverflowError, "more moves than the native core holds");
        return NULL;
    }
    PyObject *out = PyList_New(l->n);
    if (!out)
        return NULL;
    for (int i = 0; i < l->n; i++) {
        PyObject *m = from_move(&l->moves[i]);
        if (!m) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, m);
    }
    return out;
}

static int ready(void)
{
    if (!MoveType || !PositionType) {
        PyErr_SetString(PyExc_RuntimeError, "kbdraughts._core.init(Move, Position) first");
        return 0;
    }
    return 1;
}

typedef void (*Generator)(const Pos *, MoveList *);

static PyObject *generate(PyObject *arg, Generator gen)
{
    Pos p;
    if (!ready() || !to_pos(arg, &p))
        return NULL;
    MoveList *l = PyMem_Malloc(sizeof(MoveList));
    if (!l)
        return PyErr_NoMemory();
    gen(&p, l);
    PyObject *out = from_list(l);
    PyMem_Free(l);
    return out;
}

static PyObject *py_captures(PyObject *self, PyObject *arg) { return generate(arg, gen_captures); }
static PyObject *py_quiet(PyObject *self, PyObject *arg) { return generate(arg, gen_quiet); }
static PyObject *py_legal(PyObject *self, PyObject *arg) { return generate(arg, gen_legal); }

static PyObject *py_count_moves(PyObject *self, PyObject *arg)
{
    Pos p;
    if (!to_pos(arg, &p))
        return NULL;
    return PyLong_FromLong(count_moves(&p));
}

static PyObject *py_perft(PyObject *self, PyObject *args)
{
    PyObject *o;
    int depth;
    Pos p;
    if (!PyArg_ParseTuple(args, "Oi:perft", &o, &depth) || !to_pos(o, &p))
        return NULL;
    if (depth < 0 || depth > 10000) {
        PyErr_SetString(PyExc_ValueError, "perft depth must be 0..10000");
        return NULL;
    }
    MoveList *lists = PyMem_RawMalloc(sizeof(MoveList) * (size_t)(depth + 1));
    if (!lists)
        return PyErr_NoMemory();
    uint64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = perft(&p, depth, lists);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(lists);
    return PyLong_FromUnsignedLongLong(n);
}

static PyObject *py_play(PyObject *self, PyObject *args)
{
    PyObject *po, *mo;
    Pos p;
    Move m;
    if (!ready() || !PyArg_ParseTuple(args, "OO:play", &po, &mo) || !to_pos(po, &p)
        || !to_move(mo, &m))
        return NULL;
    Pos q = play(&p, &m);
    return from_pos(&q);
}

static PyObject *int_tuple(const int *v, int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

static PyObject *py_other_features(PyObject *self, PyObject *arg)
{
    Pos p;
    int o[N_OTHERS];
    if (!to_pos(arg, &p))
        return NULL;
    other_features(&p, o);
    return int_tuple(o, N_OTHERS);
}

static PyObject *py_men_sums(PyObject *self, PyObject *arg)
{
    Pos p;
    int o[6];
    if (!to_pos(arg, &p))
        return NULL;
    men_sums(&p, o);
    return int_tuple(o, 6);
}

static PyObject *py_init(PyObject *self, PyObject *args)
{
    PyObject *mt, *pt;
    if (!PyArg_ParseTuple(args, "O!O!:init", &PyType_Type, &mt, &PyType_Type, &pt))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)mt, &PyTuple_Type)
        || !PyType_IsSubtype((PyTypeObject *)pt, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Move and Position must be tuple types");
        return NULL;
    }
    Py_INCREF(mt);
    Py_INCREF(pt);
    Py_XSETREF(MoveType, (PyTypeObject *)mt);
    Py_XSETREF(PositionType, (PyTypeObject *)pt);
    Py_RETURN_NONE;
}

/* set_masks(centre, back_rank, guard, golden, main_road, outposts, left, off, run_from,
 * run_path, run_danger): ai/evaluation.py's masks; pairs per side, dicts per side and square. */
static int mask_pair(PyObject *o, Bitboard out[2])
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2) {
        PyErr_SetString(PyExc_TypeError, "a pair of masks is needed");
        return 0;
    }
    for (int i = 0; i < 2; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(o, i));
        if (PyErr_Occurred())
            return 0;
        out[i] = v;
    }
    return 1;
}

static int square_masks(PyObject *o, Bitboard out[2][NSQ])
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2) {
        PyErr_SetString(PyExc_TypeError, "a pair of square tables is needed");
        return 0;
    }
    memset(out, 0, sizeof(Bitboard) * 2 * NSQ);
    for (int side = 0; side < 2; side++) {
        PyObject *seq = PyTuple_GET_ITEM(o, side);
        if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != NSQ) {
            PyErr_SetString(PyExc_TypeError, "a mask per square (36) is needed");
            return 0;
        }
        for (int s = 0; s < NSQ; s++) {
            unsigned long long v = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(seq, s));
            if (PyErr_Occurred())
                return 0;
            out[side][s] = v;
        }
    }
    return 1;
}

static PyObject *py_set_masks(PyObject *self, PyObject *args)
{
    unsigned long long centre, golden, road, outposts, left, off;
    PyObject *back, *guard, *run_from, *path, *danger;
    EvalMasks m;
    if (!PyArg_ParseTuple(args, "KOOKKKKKOOO:set_masks", &centre, &back, &guard, &golden, &road,
                          &outposts, &left, &off, &run_from, &path, &danger))
        return NULL;
    m.centre = centre;
    m.golden = golden;
    m.main_road = road;
    m.outposts = outposts;
    m.left = left;
    m.off = off;
    if (!mask_pair(back, m.back_rank) || !mask_pair(guard, m.guard)
        || !mask_pair(run_from, m.run_from) || !square_masks(path, m.run_path)
        || !square_masks(danger, m.run_danger))
        return NULL;
    MASKS = m;
    Py_RETURN_NONE;
}

/* -- Evaluator --------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Evaluator ev;
} EvaluatorObject;

static void Evaluator_dealloc(EvaluatorObject *self)
{
    PyMem_Free(self->ev.rows);
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

static int Evaluator_init(EvaluatorObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rows", "features", "material", NULL};
    PyObject *rows = Py_None, *features = Py_None;
    int material = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOp:Evaluator", names, &rows, &features,
                                     &material))
        return -1;
    PyMem_Free(self->ev.rows);
    memset(&self->ev, 0, sizeof self->ev);
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
    int ok = nbits <= N_OTHERS && nrows == (Py_ssize_t)1 << nbits;
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

static PyTypeObject EvaluatorType = {
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

/* -- Searcher ---------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Search s;
    int allocated, busy;
    PyObject *evaluator;
    PyThreadState *tstate; /* while a search runs without the GIL */
} SearcherObject;

static void Searcher_dealloc(SearcherObject *self)
{
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
    return Py_BuildValue("(idiiK)", r.index, r.score, r.depth, r.complete,
                         (unsigned long long)s->nodes);
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
    const Entry *e = self->allocated ? table_probe(&self->s, &p) : NULL;
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
    self->s.halt = 1; /* read by the searching thread at its next tick */
    Py_RETURN_NONE;
}

static PyObject *Searcher_clear_halt(SearcherObject *self, PyObject *unused)
{
    self->s.halt = 0;
    Py_RETURN_NONE;
}

static PyObject *Searcher_get_table_counts(SearcherObject *self, void *closure)
{
    if (!self->allocated)
        return Py_BuildValue("(nn)", (Py_ssize_t)0, (Py_ssize_t)0);
    return Py_BuildValue("(nn)", (Py_ssize_t)self->s.cur.count, (Py_ssize_t)self->s.old.count);
}

static PyMethodDef Searcher_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Searcher_search, METH_VARARGS | METH_KEYWORDS,
     "search(pos, moves, max_depth, budget=-1, history=None, counters=(0, 0), contempt=False)"
     " -> (index of the best move, score, depth, complete, nodes)"},
    {"probe", (PyCFunction)Searcher_probe, METH_O,
     "probe(pos) -> (depth, score, flag, (start, end, captured) or None) or None"},
    {"line", (PyCFunction)Searcher_line, METH_NOARGS,
     "the last search's principal line: [(start, end, captured), ...]"},
    {"halt", (PyCFunction)Searcher_halt, METH_NOARGS, "stop the running search soon"},
    {"clear_halt", (PyCFunction)Searcher_clear_halt, METH_NOARGS, "forget an earlier halt()"},
    {NULL}};

static PyGetSetDef Searcher_getset[] = {
    {"table_counts", (getter)Searcher_get_table_counts, NULL,
     "positions in the table's current and old halves", NULL},
    {NULL}};

static PyTypeObject SearcherType = {
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

/* -- the module ---------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "init(Move, Position): the tuple types to build"},
    {"set_masks", py_set_masks, METH_VARARGS, "ai/evaluation.py's masks for the features"},
    {"captures", py_captures, METH_O, "board.captures"},
    {"quiet_moves", py_quiet, METH_O, "board.quiet_moves"},
    {"legal_moves", py_legal, METH_O, "board.legal_moves"},
    {"count_moves", py_count_moves, METH_O, "board.count_moves"},
    {"perft", py_perft, METH_VARARGS, "board.perft"},
    {"play", py_play, METH_VARARGS, "board.play"},
    {"other_features", py_other_features, METH_O, "evaluation.other_features"},
    {"men_sums", py_men_sums, METH_O, "evaluation.men_sums"},
    {NULL}};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "kbdraughts._core",
    "The native core: board.py's move generator, the evaluation and ai/tree.py's search in C.",
    -1, methods, NULL, NULL, NULL, NULL};

/* The search's constants by their Python names, for the test that holds the two equal. */
static PyObject *constants(void)
{
    return Py_BuildValue(
        "{sisisisisisisisisisisisisisisisisisdsd}", "CHECK_MASK", CHECK_MASK, "MAX_QUIESCENCE",
        MAX_QUIESCENCE, "FUTILITY", FUTILITY, "LMR_FROM", LMR_FROM, "LMR_DEPTH", LMR_DEPTH,
        "LMR_LATER", LMR_LATER, "EXT_MAX", EXT_MAX, "WINDOW", WINDOW, "CONTEMPT", CONTEMPT,
        "CONTEMPT_FROM", CONTEMPT_FROM, "KING_MOVES_ONLY_PLIES", KING_MOVES_ONLY_PLIES,
        "LONE_KING_MOVES", LONE_KING_MOVES, "RULE_PLIES", RULE_PLIES, "ENDING_PLIES_4_5",
        ENDING_PLIES_4_5, "ENDING_PLIES_6_7", ENDING_PLIES_6_7, "MAX_PLY", MAX_PLY,
        "MAX_MOVES", MAX_MOVES, "WIN", WIN, "MATE_ZONE", MATE_ZONE);
}

PyMODINIT_FUNC PyInit__core(void)
{
    geometry_init();
    main_thread = PyThread_get_thread_ident();
    if (PyType_Ready(&EvaluatorType) < 0 || PyType_Ready(&SearcherType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m)
        return NULL;
    Py_INCREF(&EvaluatorType);
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(m, "Evaluator", (PyObject *)&EvaluatorType) < 0
        || PyModule_AddObject(m, "Searcher", (PyObject *)&SearcherType) < 0
        || PyModule_AddObject(m, "CONSTANTS", constants()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
