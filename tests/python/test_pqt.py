# SPDX-License-Identifier: Apache-2.0
"""python/pqt.py through ctypes only (no pyarrow here): the PyCapsule's name, the stream's
schema and values, the move rule, the table's lifetime, errors. The truth is the literal
values tests/data/make_exact_values.mjs gave DuckDB to write tests/data/exact_values.parquet.
  PQT_LIBRARY=build/libpqt.so python3 tests/python/test_pqt.py   (from the repository root)"""

import ctypes
import gc
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import pqt  # noqa: E402

FILE = "tests/data/exact_values.parquet"
api = ctypes.pythonapi
api.PyCapsule_GetName.restype = ctypes.c_char_p
api.PyCapsule_GetName.argtypes = [ctypes.py_object]
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def stream_of(capsule):
    check(api.PyCapsule_GetName(capsule) == b"arrow_array_stream", "capsule name")
    ptr = api.PyCapsule_GetPointer(capsule, b"arrow_array_stream")
    return ctypes.cast(ptr, ctypes.POINTER(pqt.ArrowArrayStream))


def valid(arr, i):
    bits = arr.buffers[0]
    if not bits:
        return True
    j = arr.offset + i
    return (ctypes.cast(bits, ctypes.POINTER(ctypes.c_uint8))[j >> 3] >> (j & 7)) & 1 == 1


def values(fmt, arr):
    """The values of a primitive child array as Python numbers (None for null)."""
    size, code = {"i": (4, "<i"), "l": (8, "<q"), "L": (8, "<Q"), "g": (8, "<d")}.get(
        fmt, (16, None))
    data = ctypes.string_at(arr.buffers[1], (arr.offset + arr.length) * size)
    out = []
    for i in range(arr.length):
        raw = data[(arr.offset + i) * size:(arr.offset + i + 1) * size]
        if not valid(arr, i):
            out.append(None)
        elif code:
            out.append(struct.unpack(code, raw)[0])
        else:  # decimal128: little-endian two's complement
            out.append(int.from_bytes(raw, "little", signed=True))
    return out


def pull(capsule):
    """Every batch of the stream: (formats, names, {name: values}); releases what it takes."""
    s = stream_of(capsule)
    sch = pqt.ArrowSchema()
    check(s.contents.get_schema(s, ctypes.byref(sch)) == 0, "get_schema")
    check(sch.format == b"+s", "schema is a struct")
    names = [sch.children[i].contents.name.decode() for i in range(sch.n_children)]
    fmts = [sch.children[i].contents.format.decode() for i in range(sch.n_children)]
    sch.release(ctypes.byref(sch))
    cols = {n: [] for n in names}
    while True:
        arr = pqt.ArrowArray()
        rc = s.contents.get_next(s, ctypes.byref(arr))
        check(rc == 0, f"get_next returned {rc}")
        if rc != 0 or not arr.release:
            break
        check(arr.n_children == len(names), "batch has one child per column")
        for i, n in enumerate(names):
            cols[n] += values(fmts[i], arr.children[i].contents)
        arr.release(ctypes.byref(arr))
        check(not arr.release, "release marks the array released")
    return fmts, names, cols


U64 = [0, 1, 2**63 - 1, 2**63, 2**64 - 1, None]
D18 = [12345, -12345, 999999999999999999, -5, 0, None]
F64 = [0.1, 12.345, 1e21, 1e-7, 5e-324, None]

# The stream's schema and values, every row.
t = pqt.read(FILE, columns=["u64", "d18", "f64"], threads=1)
check(t.num_rows == 6, f"num_rows {t.num_rows}")
fmts, names, cols = pull(t.__arrow_c_stream__())
check(names == ["u64", "d18", "f64"], f"names {names}")
check(fmts == ["L", "d:18,3", "g"], f"formats {fmts}")
check(cols["u64"] == U64, f"u64 {cols['u64']}")
check(cols["d18"] == D18, f"d18 {cols['d18']}")
check(cols["f64"] == F64, f"f64 {cols['f64']}")

# A filter, a sort and a limit at open travel into the stream.
t2 = pqt.read(FILE, columns=["u64"], where="u64 > 1", sort="-u64", limit=2)
_, _, cols = pull(t2.__arrow_c_stream__())
check(cols["u64"] == [2**64 - 1, 2**63], f"filtered, sorted, limited u64 {cols['u64']}")

# The capsule keeps the table alive: the table object is gone before the pull.
cap = pqt.read(FILE, columns=["f64"]).__arrow_c_stream__()
gc.collect()
_, _, cols = pull(cap)
check(cols["f64"] == F64, "a stream outlives its Table object")
del cap

# A consumer that moves the stream out (bitwise copy, release set to NULL in the capsule)
# owns it: the capsule's destructor must not release it again.
cap = pqt.read(FILE, columns=["u64"]).__arrow_c_stream__()
moved = pqt.ArrowArrayStream()
src = stream_of(cap)
ctypes.memmove(ctypes.byref(moved), src, ctypes.sizeof(moved))
src.contents.release = ctypes.cast(None, type(src.contents.release))
del cap
gc.collect()
arr = pqt.ArrowArray()
check(moved.get_next(ctypes.byref(moved), ctypes.byref(arr)) == 0 and arr.length == 6,
      "a moved stream is still whole")
arr.release(ctypes.byref(arr))
moved.release(ctypes.byref(moved))
check(not moved.release, "stream release marks it released")

# The schema capsule.
sc = pqt.read(FILE, columns=["d18"]).__arrow_c_schema__()
check(api.PyCapsule_GetName(sc) == b"arrow_schema", "schema capsule name")
sp = ctypes.cast(api.PyCapsule_GetPointer(sc, b"arrow_schema"), ctypes.POINTER(pqt.ArrowSchema))
check(sp.contents.children[0].contents.format == b"d:18,3", "schema capsule's field")
del sc

# Errors carry pqt's message, naming the thing.
try:
    pqt.read("tests/data/no_such_file.parquet")
    check(False, "a missing file raises")
except pqt.PqtError as e:
    check("no_such_file.parquet" in str(e), f"missing file message: {e}")
try:
    pqt.read(FILE, columns=["nope"]).__arrow_c_stream__()
    check(False, "a missing column raises")
except pqt.PqtError as e:
    check("nope" in str(e), f"missing column message: {e}")
try:
    pqt.read(FILE, where="u64 >")
    check(False, "a bad filter raises")
except pqt.PqtError as e:
    check("u64" in str(e), f"bad filter message: {e}")

# A consumer pulling on a thread of its own (pyarrow's readers do).
import threading  # noqa: E402
box = {}
cap = pqt.read(FILE, columns=["u64"]).__arrow_c_stream__()
th = threading.Thread(target=lambda: box.update(r=pull(cap)))
th.start()
th.join()
check(box.get("r") and box["r"][2]["u64"] == U64, "a stream pulled on another thread")
del cap

gc.collect()
check(len(pqt._live) == 0, f"streams still held after every release: {len(pqt._live)}")
if failures:
    print(f"test_pqt.py: {len(failures)} failure(s)")
    sys.exit(1)
print("test_pqt.py: ok")
