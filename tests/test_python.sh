#!/usr/bin/env bash
# test_python.sh - python/pqt.py (ctypes, stdlib only) against the library just built:
# tests/python/test_pqt.py checks the Arrow PyCapsule stream it hands to pyarrow, Polars or
# DuckDB, through ctypes (docs/arrow.md, "From Python").
#   bash tests/test_python.sh PATH/TO/pqt     (from the repository root)
set -u
command -v python3 >/dev/null || { echo "test_python: python3 not found"; exit 1; }
PQT_LIBRARY=$(cd "$(dirname "$1")" && pwd)/libpqt.so exec python3 tests/python/test_pqt.py
