/* The endgame tables' Python face (kbdraughts/egdb/native.py calls these): materials and
 * tables checked here, the work done in egdb.c with the GIL released. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "egdb_py.h"

/* A material (wm, wk, bm, bk) of a table: a piece on each side, at most EG_MAX in all. */
int to_material(PyObject *o, Material *m)
{
    if (!PyTuple_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a material (wm, wk, bm, bk) is needed");
        return 0;
    }
    if (!PyArg_ParseTuple(o, "iiii", &m->wm, &m->wk, &m->bm, &m->bk))
        return 0;
    int n = m->wm + m->wk + m->bm + m->bk;
    if (m->wm < 0 || m->wk < 0 || m->bm < 0 || m->bk < 0 || n > EG_MAX || !(m->wm + m->wk)
        || !(m->bm + m->bk)) {
        PyErr_SetString(PyExc_ValueError, "not the material of a table");
        return 0;
    }
    return 1;
}

/* The tables dict {material: packed values} as pointers, its buffers held in *held (as many
 * as its items, read from a copy: a material's __index__ may change the dict); ``half`` sizes
 * a table (the check brings its own index). ``own``: the table under test, which its check
 * must not read, or NULL. */
int to_tables(PyObject *dict, const Material *own, uint64_t (*half)(const Material *),
              Tables *t, Py_buffer **held, Py_ssize_t *nheld)
{
    memset(t, 0, sizeof *t);
    *held = NULL;
    *nheld = 0;
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "tables must be a dict {material: values}");
        return 0;
    }
    PyObject *items = PyDict_Items(dict);
    if (!items)
        return 0;
    Py_ssize_t n = PyList_GET_SIZE(items);
    int ok = (*held = PyMem_Calloc((size_t)n + 1, sizeof(Py_buffer))) || (PyErr_NoMemory(), 0);
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *item = PyList_GET_ITEM(items, i);
        Material m;
        Py_buffer *b = &(*held)[*nheld];
        ok = to_material(PyTuple_GET_ITEM(item, 0), &m)
             && PyObject_GetBuffer(PyTuple_GET_ITEM(item, 1), b, PyBUF_SIMPLE) == 0;
        *nheld += ok;
        if (ok && own && !memcmp(&m, own, sizeof m)) {
            PyErr_SetString(PyExc_ValueError, "the table under test is not read by its check");
            ok = 0;
        } else if (ok && (uint64_t)b->len != (2 * half(&m) + 3) / 4) {
            PyErr_SetString(PyExc_ValueError, "a table's values have the wrong length");
            ok = 0;
        }
        if (ok)
            t->values[m.wm][m.wk][m.bm][m.bk] = b->buf;
    }
    Py_DECREF(items);
    return ok;
}

void release_buffers(Py_buffer *held, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        PyBuffer_Release(&held[i]);
    PyMem_Free(held);
}

static PyObject *failed(int rc, const Material *missing)
{
    if (rc == EG_MISSING)
        return PyErr_Format(PyExc_LookupError, "the table w%dm%dk-b%dm%dk is needed first",
                            missing->wm, missing->wk, missing->bm, missing->bk);
    if (rc == EG_TOO_LONG)
        return PyErr_Format(PyExc_OverflowError, "a distance beyond 255 plies");
    return PyErr_NoMemory();
}

static PyObject *py_egdb_solve(PyObject *self, PyObject *args)
{
    PyObject *mo, *dict;
    Material m, missing;
    Tables t;
    Py_buffer *held = NULL;
    Py_ssize_t nheld = 0;
    if (!PyArg_ParseTuple(args, "OO:egdb_solve", &mo, &dict) || !to_material(mo, &m))
        return NULL;
    if (!to_tables(dict, NULL, eg_half, &t, &held, &nheld)) {
        release_buffers(held, nheld);
        return NULL;
    }
    uint64_t n = 2 * eg_half(&m);
    PyObject *values = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)((n + 3) / 4));
    PyObject *dist = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)n);
    int rc = EG_NOMEM;
    if (values && dist) {
        uint8_t *v = (uint8_t *)PyByteArray_AS_STRING(values);
        uint8_t *d = (uint8_t *)PyByteArray_AS_STRING(dist);
        memset(v, 0, (size_t)((n + 3) / 4));
        Py_BEGIN_ALLOW_THREADS
        rc = eg_solve(&m, &t, v, d, &missing);
        Py_END_ALLOW_THREADS
    }
    release_buffers(held, nheld);
    if (rc != EG_OK) {
        Py_XDECREF(values);
        Py_XDECREF(dist);
        return failed(rc, &missing);
    }
    return Py_BuildValue("(NN)", values, dist);
}

static PyObject *py_egdb_verify(PyObject *self, PyObject *args)
{
    PyObject *mo, *dict, *out = NULL;
    Py_buffer vb, db, *held = NULL;
    Py_ssize_t nheld = 0;
    Material m, missing;
    Tables t;
    if (!PyArg_ParseTuple(args, "Oy*y*O:egdb_verify", &mo, &vb, &db, &dict))
        return NULL;
    if (to_material(mo, &m) && to_tables(dict, NULL, eg_half, &t, &held, &nheld)) {
        uint64_t n = 2 * eg_half(&m);
        if ((uint64_t)vb.len != (n + 3) / 4 || (uint64_t)db.len != n) {
            PyErr_SetString(PyExc_ValueError, "the values or distances have the wrong length");
        } else {
            int64_t faults, first;
            Py_BEGIN_ALLOW_THREADS
            faults = eg_verify(&m, &t, vb.buf, db.buf, &first, &missing);
            Py_END_ALLOW_THREADS
            out = faults < 0 ? failed((int)faults, &missing)
                             : Py_BuildValue("(LL)", (long long)faults, (long long)first);
        }
    }
    release_buffers(held, nheld);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&db);
    return out;
}

static PyObject *py_egdb_index(PyObject *self, PyObject *arg)
{
    Pos p;
    if (!to_pos(arg, &p))
        return NULL;
    Material m = eg_material(&p);
    if (m.wm + m.wk + m.bm + m.bk > EG_MAX || !p.white || !p.black || !eg_covers(&p)) {
        PyErr_SetString(PyExc_ValueError, "not a position of a table");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(eg_index(&m, &p));
}

PyMethodDef EGDB_METHODS[] = {
    {"egdb_solve", py_egdb_solve, METH_VARARGS,
     "egdb_solve(material, tables) -> (values, distances): a table by retrograde analysis"},
    {"egdb_verify", py_egdb_verify, METH_VARARGS,
     "egdb_verify(material, values, distances, tables) -> (faults, first faulty index or -1)"},
    {"egdb_index", py_egdb_index, METH_O, "egdb/index.py's rank"},
    {NULL}};
