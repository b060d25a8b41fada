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
#include "search.h" /* the search's constants, for CONSTANTS */

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
    int o[N_MEN_SUMS];
    if (!to_pos(arg, &p))
        return NULL;
    men_sums(&p, o);
    return int_tuple(o, N_MEN_SUMS);
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

/* set_masks({name: mask}): eval/evaluation.py's masks by the names of the schema's layout
 * (KBD_MASKS in features.h): a bitboard, a pair per side, a table per side and square, or a
 * man's MEN_SUMS per side and square. */
/* The `n` items of the tuple `o`, or NULL with an exception naming `name`. */
static PyObject *items(PyObject *o, Py_ssize_t n, const char *name)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != n) {
        PyErr_Format(PyExc_TypeError, "set_masks: %s needs a tuple of %zd", name, n);
        return NULL;
    }
    return o;
}

static int read_one(PyObject *o, Bitboard *out, const char *name)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "set_masks: %s needs ints", name);
        return 0;
    }
    *out = PyLong_AsUnsignedLongLong(o);
    return !PyErr_Occurred();
}

static int read_pair(PyObject *o, Bitboard out[2], const char *name)
{
    if (!items(o, 2, name))
        return 0;
    for (int side = 0; side < 2; side++)
        if (!read_one(PyTuple_GET_ITEM(o, side), &out[side], name))
            return 0;
    return 1;
}

static int read_per_square(PyObject *o, Bitboard out[2][NSQ], const char *name)
{
    if (!items(o, 2, name))
        return 0;
    for (int side = 0; side < 2; side++) {
        PyObject *seq = items(PyTuple_GET_ITEM(o, side), NSQ, name);
        for (int s = 0; seq && s < NSQ; s++)
            if (!read_one(PyTuple_GET_ITEM(seq, s), &out[side][s], name))
                return 0;
        if (!seq)
            return 0;
    }
    return 1;
}

static int read_man_values(PyObject *o, int out[2][NSQ][N_MEN_SUMS], const char *name)
{
    if (!items(o, 2, name))
        return 0;
    for (int side = 0; side < 2; side++) {
        PyObject *seq = items(PyTuple_GET_ITEM(o, side), NSQ, name);
        for (int s = 0; seq && s < NSQ; s++) {
            PyObject *v = items(PyTuple_GET_ITEM(seq, s), N_MEN_SUMS, name);
            for (int f = 0; v && f < N_MEN_SUMS; f++) {
                long x = 0;
                if (!small(PyTuple_GET_ITEM(v, f), -1000, 1000, &x))
                    return 0;
                out[side][s][f] = (int)x;
            }
            if (!v)
                return 0;
        }
        if (!seq)
            return 0;
    }
    return 1;
}

/* The mask `name` of the dict, or NULL with a KeyError. */
static PyObject *mask_item(PyObject *d, const char *name)
{
    PyObject *o = PyDict_GetItemString(d, name);
    if (!o)
        PyErr_Format(PyExc_KeyError, "set_masks: no mask '%s' (eval/features.py's MASKS)", name);
    return o;
}

/* Each mask of the layout by its name; a name the layout does not hold is refused. */
static int read_masks(PyObject *d, EvalMasks *m)
{
    PyObject *o;
#define READ(name, how, field)                                                                 \
    if (!(o = mask_item(d, #name)) || !how(o, field, #name))                                   \
        return 0;
#define ONE(name) READ(name, read_one, &m->name)
#define PAIR(name) READ(name, read_pair, m->name)
#define PER_SQUARE(name) READ(name, read_per_square, m->name)
#define MAN_VALUES(name) READ(name, read_man_values, m->name)
    KBD_MASKS(ONE, PAIR, PER_SQUARE, MAN_VALUES)
#undef MAN_VALUES
#undef PER_SQUARE
#undef PAIR
#undef ONE
#undef READ
    if (PyDict_Size(d) != N_MASKS) {
        PyErr_SetString(PyExc_KeyError, "set_masks: a mask eval/features.py's MASKS does not hold");
        return 0;
    }
    return 1;
}

static PyObject *py_set_masks(PyObject *self, PyObject *arg)
{
    EvalMasks m;
    memset(&m, 0, sizeof m);
    if (!PyDict_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "set_masks takes a dict of masks by name");
        return NULL;
    }
    if (!read_masks(arg, &m))
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
    {"set_masks", py_set_masks, METH_O,
     "set_masks({name: mask}): eval/evaluation.py's masks for the features, by name"},
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
