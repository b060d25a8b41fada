/* The native core's Python face, shared by its files: the tuple types positions and moves
 * cross as, their checked conversions, and the two object types. */
#ifndef KBD_PYFACE_H
#define KBD_PYFACE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "core.h"

extern PyTypeObject *MoveType, *PositionType; /* board.py's Move and Position */
extern unsigned long main_thread;
extern int searches_running; /* searches without the GIL now: set_masks waits for none */
extern PyTypeObject EvaluatorType, SearcherType;

typedef struct {
    PyObject_HEAD
    Evaluator ev;
    int users; /* searches reading ev now: __init__ refuses while any does */
} EvaluatorObject;

/* convert.c: every value checked before C uses it; 0 (or NULL) with an exception set. */
int bits(PyObject *o, Bitboard *out, const char *what);
int to_pos(PyObject *o, Pos *p);
int small(PyObject *o, long lo, long hi, long *out);
int to_move(PyObject *o, Move *m);
int playable(const Pos *p, const Move *m);
PyObject *tuple_copy(PyObject *o, const char *what);
Move *to_moves(PyObject *seq, const Pos *pos, Py_ssize_t *n);
Pos *to_positions(PyObject *seq, Py_ssize_t most, Py_ssize_t *n);
PyObject *new_tuple(PyTypeObject *type, Py_ssize_t n);
PyObject *from_move(const Move *m);
PyObject *from_pos(const Pos *p);
PyObject *from_list(const MoveList *l);
int ready(void);

#endif
