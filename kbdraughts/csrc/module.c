/* kbdraughts._core: the native core's Python face. Positions and moves cross as the tuples
 * of board.py (Position, Move); everything is checked here before C sees it, and errors
 * become Python exceptions at this boundary only. The GIL is released while a search or a
 * perft runs; a search stops at its deadline, at halt() from another thread, or on a signal
 * (Ctrl-C) when it runs on the main thread. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>
#include "pyface.h"
#include "egdb.h"

extern PyMethodDef EGDB_METHODS[]; /* egdb_py.c */
extern PyMethodDef EGDB_CHECK_METHODS[]; /* egdb_check.c */
void egdb_check_init(void);

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

static PyObject *py_resolve(PyObject *self, PyObject *args)
{
    PyObject *o;
    int us, plies;
    long long limit = -1;
    Pos p;
    if (!PyArg_ParseTuple(args, "Oii|L:resolve", &o, &us, &plies, &limit) || !to_pos(o, &p))
        return NULL;
    if ((us != 0 && us != 1) || plies > 64) {
        PyErr_SetString(PyExc_ValueError, "resolve: us must be 0 or 1, plies at most 64");
        return NULL;
    }
    if (plies < 0)
        plies = 0; /* as the Python referee: no plies left, captures only */
    /* enough lists for any line: to_pos let no side have more than MAX_SIDE pieces */
    MoveList *lists = PyMem_RawMalloc(sizeof(MoveList) * (size_t)(plies + REFEREE_CAPTURES));
    if (!lists)
        return PyErr_NoMemory();
    int v;
    int64_t left = limit < 0 ? INT64_MAX : (int64_t)limit;
    Py_BEGIN_ALLOW_THREADS
    v = resolve(&p, us, plies, lists, &left);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(lists);
    if (limit < 0)
        return PyLong_FromLong(v);
    return Py_BuildValue("(iL)", v, (long long)left); /* left < 0: the budget ran out */
}

static PyObject *py_play(PyObject *self, PyObject *args)
{
    PyObject *po, *mo;
    Pos p;
    Move m;
    if (!ready() || !PyArg_ParseTuple(args, "OO:play", &po, &mo) || !to_pos(po, &p)
        || !to_move(mo, &m))
        return NULL;
    if (!playable(&p, &m)) { /* board.play's "must be legal", held cheaply: no overlap made */
        PyErr_SetString(PyExc_ValueError, "the move cannot be played in the position");
        return NULL;
    }
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
 * run_path, run_danger, double_corner, system): eval/evaluation.py's masks; pairs per side,
 * tables per side and square. */
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
    unsigned long long centre, golden, road, outposts, left, off, corner, system;
    PyObject *back, *guard, *run_from, *path, *danger;
    EvalMasks m;
    if (!PyArg_ParseTuple(args, "KOOKKKKKOOOKK:set_masks", &centre, &back, &guard, &golden,
                          &road, &outposts, &left, &off, &run_from, &path, &danger, &corner,
                          &system))
        return NULL;
    m.double_corner = corner;
    m.system = system;
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
    if (!memcmp(&m, &MASKS, sizeof m)) /* as they were (a module imported again) */
        Py_RETURN_NONE;
    if (searches_running) { /* they read MASKS without the GIL */
        PyErr_SetString(PyExc_RuntimeError, "a search is running");
        return NULL;
    }
    MASKS = m;
    Py_RETURN_NONE;
}

/* -- the module ---------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "init(Move, Position): the tuple types to build"},
    {"set_masks", py_set_masks, METH_VARARGS, "eval/evaluation.py's masks for the features"},
    {"captures", py_captures, METH_O, "board.captures"},
    {"quiet_moves", py_quiet, METH_O, "board.quiet_moves"},
    {"legal_moves", py_legal, METH_O, "board.legal_moves"},
    {"count_moves", py_count_moves, METH_O, "board.count_moves"},
    {"perft", py_perft, METH_VARARGS, "board.perft"},
    {"play", py_play, METH_VARARGS, "board.play"},
    {"resolve", py_resolve, METH_VARARGS,
     "resolve(pos, us, plies[, limit]): referee.py's resolve; with a limit of positions, "
     "(value, positions left), left < 0 when they ran out"},
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
        "{sisisisisisisisisisisisisisisisisisdsdsd}", "CHECK_MASK", CHECK_MASK, "MAX_QUIESCENCE",
        MAX_QUIESCENCE, "FUTILITY", FUTILITY, "LMR_FROM", LMR_FROM, "LMR_DEPTH", LMR_DEPTH,
        "LMR_LATER", LMR_LATER, "EXT_MAX", EXT_MAX, "WINDOW", WINDOW, "CONTEMPT", CONTEMPT,
        "CONTEMPT_FROM", CONTEMPT_FROM, "KING_MOVES_ONLY_PLIES", KING_MOVES_ONLY_PLIES,
        "LONE_KING_MOVES", LONE_KING_MOVES, "RULE_PLIES", RULE_PLIES, "ENDING_PLIES_4_5",
        ENDING_PLIES_4_5, "ENDING_PLIES_6_7", ENDING_PLIES_6_7, "MAX_PLY", MAX_PLY,
        "MAX_MOVES", MAX_MOVES, "WIN", WIN, "MATE_ZONE", MATE_ZONE, "TABLE_WIN", TABLE_WIN);
}

PyMODINIT_FUNC PyInit__core(void)
{
    geometry_init();
    eg_init();
    egdb_check_init();
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
        || PyModule_AddObject(m, "CONSTANTS", constants()) < 0
        || PyModule_AddFunctions(m, EGDB_METHODS) < 0
        || PyModule_AddFunctions(m, EGDB_CHECK_METHODS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
