/* Positions and moves between Python (board.py's tuples) and C, checked on the way in. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "pyface.h"

PyTypeObject *MoveType, *PositionType;
unsigned long main_thread;

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

