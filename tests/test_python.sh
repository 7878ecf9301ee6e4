#!/usr/bin/env bash
# test_python.sh - python/pqt.py (ctypes, stdlib only) against the library just built:
# tests/python/test_pqt.py checks the Arrow PyCapsule stream it hands to pyarrow, Polars or
# DuckDB, through ctypes (docs/arrow.md, "From Python").
#   bash tests/test_python.sh PATH/TO/pqt     (from the repository root)
set -u
command -v python3 >/dev/null || { echo "test_python: python3 not found"; exit 1; }
lib=$(cd "$(dirname "$1")" && pwd)/libpqt.so
# a sanitizer build of the library: its runtime must be loaded before Python's own libraries
# (the interpreter's leaks are not ours to report)
asan=$(ldd "$lib" 2>/dev/null | awk '/libasan/ {print $3}')
if [ -n "$asan" ]; then
    export LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
fi
PQT_LIBRARY=$lib exec python3 tests/python/test_pqt.py
