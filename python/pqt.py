# SPDX-License-Identifier: Apache-2.0
"""pqt from Python without building anything: the installed libpqt through ctypes.

    import pqt, pyarrow
    t = pqt.read("catalogue.parquet", columns=["ra", "dec"], where="mag < 20", limit=1000)
    pyarrow.table(t)          # or polars.DataFrame(t), duckdb.from_arrow(t)

`read` opens a lazy table (only the footer is read); a consumer that takes the Arrow PyCapsule
stream (`__arrow_c_stream__`) pulls it batch by batch, and columns already read are handed over
without a copy (docs/arrow.md). Only the standard library is used. The library is found through
the PQT_LIBRARY environment variable (a path), then the system's search (ctypes.util), then
"libpqt.so.0" and "libpqt.so".
"""

import ctypes
import ctypes.util
import os

__all__ = ["read", "Table", "PqtError", "library"]

# The option numbers of include/pqt.h (pqt_opt); append-only there, so stable here.
_OPT_THREADS = 1
_OPT_FILTER = 7
_OPT_LIMIT = 13
_OPT_SAMPLE_FRACTION = 14
_OPT_SAMPLE_SEED = 15
_OPT_SORT = 17


class PqtError(Exception):
    """A pqt call failed; the message is pqt's (it names the file, column or rows)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_void_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream),
                                    ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream),
                                  ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))),
    ("private_data", ctypes.c_void_p),
]

_lib = None


def library():
    """The loaded libpqt (ctypes.CDLL), loaded on first use."""
    global _lib
    if _lib is not None:
        return _lib
    names = []
    if os.environ.get("PQT_LIBRARY"):
        names.append(os.environ["PQT_LIBRARY"])
    found = ctypes.util.find_library("pqt")
    if found:
        names.append(found)
    names += ["libpqt.so.0", "libpqt.so"]
    errors = []
    for name in names:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError as e:
            errors.append(f"{name}: {e}")
    else:
        raise OSError("pqt: libpqt not found (set PQT_LIBRARY to its path): " + "; ".join(errors))
    vp, cp, i64, i32 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int64, ctypes.c_int
    sigs = {
        "pqt_errmsg": (cp, []),
        "pqt_opts_new": (i32, [ctypes.POINTER(vp)]),
        "pqt_opts_free": (None, [vp]),
        "pqt_opts_set_int": (i32, [vp, i32, i64]),
        "pqt_opts_set_str": (i32, [vp, i32, cp]),
        "pqt_opts_set_double": (i32, [vp, i32, ctypes.c_double]),
        "pqt_table_open": (i32, [cp, vp, ctypes.POINTER(vp)]),
        "pqt_table_close": (None, [vp]),
        "pqt_table_nrows": (i64, [vp]),
        "pqt_table_ncols": (i32, [vp]),
        "pqt_table_column_name": (cp, [vp, i32]),
        "pqt_table_export_arrow_stream": (i32, [vp, ctypes.POINTER(cp), i32, i64,
                                                ctypes.POINTER(ArrowArrayStream)]),
        "pqt_table_export_arrow_schema": (i32, [vp, ctypes.POINTER(cp), i32,
                                                ctypes.POINTER(ArrowSchema)]),
    }
    for fname, (res, args) in sigs.items():
        fn = getattr(lib, fname)
        fn.restype, fn.argtypes = res, args
    _lib = lib
    return lib


def _check(status):
    if status != 0:
        msg = library().pqt_errmsg()
        raise PqtError(status, msg.decode("utf-8", "replace") if msg else f"pqt status {status}")


# PyCapsule calls from the interpreter's C API; the destructor takes the capsule as a plain
# pointer (the capsule is being freed: wrapping it in a Python object would revive it).


def _capi(name, restype, argtypes):
    """A private handle on a Python C API call: indexing (not attribute access) makes a new
    function object, so other code setting argtypes on ctypes.pythonapi cannot change ours."""
    fn = ctypes.pythonapi[name]
    fn.restype, fn.argtypes = restype, argtypes
    return fn


class _api:
    PyCapsule_New = _capi("PyCapsule_New", ctypes.py_object,
                          [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p])
    PyCapsule_GetPointer = _capi("PyCapsule_GetPointer", ctypes.c_void_p,
                                 [ctypes.c_void_p, ctypes.c_char_p])
    PyMem_RawMalloc = _capi("PyMem_RawMalloc", ctypes.c_void_p, [ctypes.c_size_t])
    PyMem_RawFree = _capi("PyMem_RawFree", None, [ctypes.c_void_p])


_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_STREAM_NAME = b"arrow_array_stream"
_SCHEMA_NAME = b"arrow_schema"


def _capsule_destructor(struct_type, name):
    """A destructor for capsules `name` holding a malloc'd struct_type: release it unless a
    consumer moved it out (the protocol: a consumer that takes it sets release to NULL), then
    free it."""

    def destroy(capsule):
        ptr = _api.PyCapsule_GetPointer(capsule, name)
        if ptr:
            obj = struct_type.from_address(ptr)
            if obj.release:
                obj.release(ctypes.cast(ptr, ctypes.POINTER(struct_type)))
            _api.PyMem_RawFree(ptr)

    return _DESTRUCTOR(destroy)


_stream_destructor = _capsule_destructor(ArrowArrayStream, _STREAM_NAME)
_schema_destructor = _capsule_destructor(ArrowSchema, _SCHEMA_NAME)


# A stream reads its table while it is pulled, and a consumer moves the stream out of the
# capsule (pyarrow does at once) and pulls it later: so the table must live as long as the
# stream, not the capsule. pqt's stream is wrapped in one whose private_data is a key into
# _live, holding the table and pqt's stream until the consumer releases the wrapper. Moves
# are bitwise, so the key travels with the struct. Each call into pqt releases the GIL.
_live = {}
_next_key = [1]


def _inner(stream_ptr):
    return _live[stream_ptr.contents.private_data][1]


def _w_get_schema(sp, out):
    inner = _inner(sp)
    return inner.get_schema(ctypes.byref(inner), out)


def _w_get_next(sp, out):
    inner = _inner(sp)
    return inner.get_next(ctypes.byref(inner), out)


def _w_get_last_error(sp):
    inner = _inner(sp)
    return inner.get_last_error(ctypes.byref(inner))


def _w_release(sp):
    _table, inner = _live.pop(sp.contents.private_data)
    if inner.release:
        inner.release(ctypes.byref(inner))
    sp.contents.release = _NULL_RELEASE


_W_GET_SCHEMA = ArrowArrayStream._fields_[0][1](_w_get_schema)
_W_GET_NEXT = ArrowArrayStream._fields_[1][1](_w_get_next)
_W_GET_LAST_ERROR = ArrowArrayStream._fields_[2][1](_w_get_last_error)
_W_RELEASE = ArrowArrayStream._fields_[3][1](_w_release)
_NULL_RELEASE = ctypes.cast(None, ArrowArrayStream._fields_[3][1])


def _new_struct(struct_type):
    ptr = _api.PyMem_RawMalloc(ctypes.sizeof(struct_type))
    if not ptr:
        raise MemoryError("pqt: no memory for an Arrow struct")
    ctypes.memset(ptr, 0, ctypes.sizeof(struct_type))
    return ptr


def _stream_capsule(table, fill):
    inner = ArrowArrayStream()
    fill(ctypes.byref(inner))
    ptr = _new_struct(ArrowArrayStream)
    key = _next_key[0]
    _next_key[0] += 1
    _live[key] = (table, inner)
    outer = ArrowArrayStream.from_address(ptr)
    outer.get_schema, outer.get_next = _W_GET_SCHEMA, _W_GET_NEXT
    outer.get_last_error, outer.release = _W_GET_LAST_ERROR, _W_RELEASE
    outer.private_data = key
    return _api.PyCapsule_New(ptr, _STREAM_NAME, ctypes.cast(_stream_destructor, ctypes.c_void_p))


def _schema_capsule(fill):
    ptr = _new_struct(ArrowSchema)
    try:
        fill(ctypes.cast(ptr, ctypes.POINTER(ArrowSchema)))
    except BaseException:
        _api.PyMem_RawFree(ptr)
        raise
    return _api.PyCapsule_New(ptr, _SCHEMA_NAME, ctypes.cast(_schema_destructor, ctypes.c_void_p))


class Table:
    """A table opened by pqt: lazy until a consumer pulls it. Columns are exported in file
    order, or as named by `columns`."""

    def __init__(self, handle, columns):
        self._t = handle
        self._columns = list(columns) if columns is not None else None

    def __del__(self):
        self.close()

    def close(self):
        """Close the table now (streams already handed out keep it until released)."""
        if getattr(self, "_t", None):
            library().pqt_table_close(self._t)
            self._t = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _open(self):
        if not self._t:
            raise PqtError(-1, "pqt: the table is closed")
        return self._t

    @property
    def num_rows(self):
        return library().pqt_table_nrows(self._open())

    @property
    def column_names(self):
        if self._columns is not None:
            return list(self._columns)
        lib, t = library(), self._open()
        return [lib.pqt_table_column_name(t, i).decode() for i in range(lib.pqt_table_ncols(t))]

    def _names(self):
        if self._columns is None:
            return None, 0
        arr = (ctypes.c_char_p * len(self._columns))(*[c.encode() for c in self._columns])
        return arr, len(self._columns)

    def arrow_stream(self, batch_rows=0):
        """A PyCapsule "arrow_array_stream" of the rows as record batches (batch_rows 0: one
        batch per row group)."""
        names, n = self._names()
        t = self._open()
        return _stream_capsule(self, lambda p: _check(library().pqt_table_export_arrow_stream(
            t, names, n, batch_rows, p)))

    def __arrow_c_stream__(self, requested_schema=None):
        # requested_schema is a request a producer may ignore (the PyCapsule protocol): the
        # stream is always pqt's own mapping (docs/arrow.md).
        return self.arrow_stream()

    def __arrow_c_schema__(self):
        names, n = self._names()
        t = self._open()
        return _schema_capsule(
            lambda p: _check(library().pqt_table_export_arrow_schema(t, names, n, p)))


def read(path, columns=None, where=None, sort=None, limit=None, sample=None, seed=None,
         threads=0):
    """Open path (a file, directory, glob or HATS catalogue) as a Table.

    columns: names to export (default: every column); where: a filter (docs/filters.md), a
    string or a list of strings AND-ed; sort: keys ("survey, -mass"); limit: at most this many
    rows (after the sort: a top-n); sample: a fraction of rows kept (seed: its seed);
    threads: 0 = all cores."""
    lib = library()
    opts = ctypes.c_void_p()
    _check(lib.pqt_opts_new(ctypes.byref(opts)))
    try:
        _check(lib.pqt_opts_set_int(opts, _OPT_THREADS, int(threads)))
        for rule in ([where] if isinstance(where, str) else (where or [])):
            _check(lib.pqt_opts_set_str(opts, _OPT_FILTER, rule.encode()))
        if sort:
            _check(lib.pqt_opts_set_str(opts, _OPT_SORT, sort.encode()))
        if limit is not None:
            _check(lib.pqt_opts_set_int(opts, _OPT_LIMIT, int(limit)))
        if sample is not None:
            _check(lib.pqt_opts_set_double(opts, _OPT_SAMPLE_FRACTION, float(sample)))
        if seed is not None:
            _check(lib.pqt_opts_set_int(opts, _OPT_SAMPLE_SEED, int(seed)))
        t = ctypes.c_void_p()
        _check(lib.pqt_table_open(os.fsencode(path), opts, ctypes.byref(t)))
    finally:
        lib.pqt_opts_free(opts)
    table = Table(t.value, columns)
    if columns is not None:
        table._names()  # encodable names, checked now rather than at the first pull
    return table
