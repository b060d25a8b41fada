/* The native core's Python face, shared by its files: the tuple types positions and moves
 * cross as, their checked conversions, and the two object types. */
#ifndef KBD_PYFACE_H
#define KBD_PYFACE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "core.h"
#include "search.h"

extern PyTypeObject *MoveType, *PositionType; /* board.py's Move and Position */
extern unsigned long main_thread;
extern PyTypeObject EvaluatorType, SearcherType;

typedef struct {
    PyObject_HEAD
    Evaluator ev;
} EvaluatorObject;

/* convert.c: every value checked before C uses it; 0 (or NULL) with an exception set. */
int bits(PyObject *o, Bitboard *out, const char *what);
int to_pos(PyObject *o, Pos *p);
int small(PyObject *o, long lo, long hi, long *out);
int to_move(PyObject *o, Move *m);
PyObject *new_tuple(PyTypeObject *type, Py_ssize_t n);
PyObject *from_move(const Move *m);
PyObject *from_pos(const Pos *p);
PyObject *from_list(const MoveList *l);
int ready(void);

/* egdb_py.c */
int to_material(PyObject *o, Material *m);

#endif
