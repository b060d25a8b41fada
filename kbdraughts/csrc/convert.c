/* Positions and moves between Python (board.py's tuples) and C, checked on the way in: the C
 * below trusts what passes here (squares on the board, no overlaps, MAX_SIDE pieces a side). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "pyface.h"

PyTypeObject *MoveType, *PositionType;
unsigned long main_thread;
int searches_running;

/* -- positions and moves -------------------------------------------------------------- */

int bits(PyObject *o, Bitboard *out, const char *what)
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

int to_pos(PyObject *o, Pos *p)
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
    /* the move lists, a capture's path and the referee's lists hold no more */
    int nw = popcount(p->white), nb = popcount(p->black);
    if (nw > MAX_SIDE || nb > MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "not a position: %s has %d pieces; at most %d",
                     nw > MAX_SIDE ? "white" : "black", nw > MAX_SIDE ? nw : nb, MAX_SIDE);
        return 0;
    }
    p->side = (int)side;
    return 1;
}

int small(PyObject *o, long lo, long hi, long *out)
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
int to_move(PyObject *o, Move *m)
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
    if (!IS_SQUARE[start] || !IS_SQUARE[end]) {
        PyErr_SetString(PyExc_ValueError, "a move's square off the board");
        return 0;
    }
    crowned = PyObject_IsTrue(PyTuple_GET_ITEM(o, 4));
    if (crowned < 0)
        return 0;
    m->start = (uint8_t)start;
    m->end = (uint8_t)end;
    m->crowned = (uint8_t)crowned;
    m->npath = 0;
    return 1;
}

static int same_move(const Move *a, const Move *b)
{
    return a->start == b->start && a->end == b->end && a->captured == b->captured
           && a->crowned == b->crowned;
}

/* Whether p can make m: from one of its pieces to an empty square (or back to the start), taking
 * only the other side's pieces; what play() makes of it is then a position to_pos accepts. */
int playable(const Pos *p, const Move *m)
{
    Bitboard own = p->side ? p->black : p->white, opp = p->side ? p->white : p->black;
    Bitboard free = (BB_BOARD & ~(p->white | p->black)) | 1ULL << m->start;
    return (own >> m->start & 1) && (free >> m->end & 1) && !(m->captured & ~opp);
}

/* A tuple of o's items: what C reads is then fixed, whatever the items' __index__ or __float__
 * do to o (a list can be emptied under the reader). */
PyObject *tuple_copy(PyObject *o, const char *what)
{
    PyObject *t = PySequence_Tuple(o);
    if (!t && PyErr_ExceptionMatches(PyExc_TypeError) && !PySequence_Check(o)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a sequence", what);
    }
    return t;
}

/* A sequence of pos's legal moves as C moves, 1 to MAX_MOVES of them: each the generated twin
 * of the one given (the search trusts their squares and what they take); NULL with an
 * exception. */
Move *to_moves(PyObject *seq, const Pos *pos, Py_ssize_t *n)
{
    PyObject *moves = tuple_copy(seq, "moves");
    if (!moves)
        return NULL;
    *n = PyTuple_GET_SIZE(moves);
    Move *out = NULL;
    MoveList *legal = NULL;
    int ok = *n >= 1 && *n <= MAX_MOVES;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "1 to 512 moves are needed");
    else if (!(out = PyMem_Malloc(sizeof(Move) * (size_t)*n))
             || !(legal = PyMem_Malloc(sizeof(MoveList))))
        ok = (PyErr_NoMemory(), 0);
    if (ok)
        gen_legal(pos, legal);
    for (Py_ssize_t i = 0; ok && i < *n; i++) {
        ok = to_move(PyTuple_GET_ITEM(moves, i), &out[i]);
        int k = 0;
        while (ok && k < legal->n && !same_move(&legal->moves[k], &out[i]))
            k++;
        if (ok && k == legal->n) {
            PyErr_SetString(PyExc_ValueError, "not a legal move of the position");
            ok = 0;
        } else if (ok) {
            out[i] = legal->moves[k];
        }
    }
    Py_DECREF(moves);
    PyMem_Free(legal);
    if (!ok)
        PyMem_Free(out);
    return ok ? out : NULL;
}

/* A sequence of at most ``most`` positions as C positions (PyMem_Free them); NULL with an
 * exception. */
Pos *to_positions(PyObject *seq, Py_ssize_t most, Py_ssize_t *n)
{
    PyObject *t = tuple_copy(seq, "positions");
    if (!t)
        return NULL;
    *n = PyTuple_GET_SIZE(t);
    Pos *out = NULL;
    int ok = *n <= most;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "at most %zd positions", most);
    else if (!(out = PyMem_Malloc(sizeof(Pos) * (size_t)(*n + 1))))
        ok = (PyErr_NoMemory(), 0);
    for (Py_ssize_t i = 0; ok && i < *n; i++)
        ok = to_pos(PyTuple_GET_ITEM(t, i), &out[i]);
    Py_DECREF(t);
    if (!ok)
        PyMem_Free(out);
    return ok ? out : NULL;
}

/* A tuple subclass filled in place, as tuple.__new__(cls, items) does. */
PyObject *new_tuple(PyTypeObject *type, Py_ssize_t n)
{
    return type->tp_alloc(type, n);
}

PyObject *from_move(const Move *m)
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

PyObject *from_pos(const Pos *p)
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

PyObject *from_list(const MoveList *l)
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

int ready(void)
{
    if (!MoveType || !PositionType) {
        PyErr_SetString(PyExc_RuntimeError, "kbdraughts._core.init(Move, Position) first");
        return 0;
    }
    return 1;
}

