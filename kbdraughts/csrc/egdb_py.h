/* The endgame tables' Python face (egdb_py.c): materials and tables checked as they cross,
 * shared with the searcher (searcher.c) and the tables' check (egdb_check.c). */
#ifndef KBD_EGDB_PY_H
#define KBD_EGDB_PY_H

#include "egdb.h"
#include "pyface.h"

int to_material(PyObject *o, Material *m);
int to_tables(PyObject *dict, const Material *own, uint64_t (*half)(const Material *),
              Tables *t, Py_buffer **held, Py_ssize_t *nheld);
void release_buffers(Py_buffer *held, Py_ssize_t n);

#endif
