#!/usr/bin/env bash
# The interop matrix (`make interop`; not part of `make check`): files written by DuckDB and
# Polars under a grid of writer options, read by pqt and by the writers themselves, compared
# with tests/golden/compare.py. See tests/interop/README.md.
#
#   bash tests/interop/run.sh [PQT] [interop.mjs options: --only REGEX --jobs N --regen]
#
# PQT defaults to $PQT, else build/pqt (the Makefile's build). Files are cached in
# $PQT_INTEROP_DIR (default /tmp/pqt-interop), outside git. Needs node (>= 20), npm and python3.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

pqt=${PQT:-$root/build/pqt}
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then pqt=$1; shift; fi

for tool in node npm python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "interop: $tool not found (the matrix needs node >= 20, npm and python3)" >&2
        exit 2
    fi
done
if [ ! -x "$pqt" ]; then
    echo "interop: $pqt is not an executable pqt (build first, or pass its path)" >&2
    exit 2
fi

# The writers and readers, at the versions package-lock.json pins; node_modules is git-ignored.
if [ ! -d "$here/node_modules/@duckdb/node-api" ] || [ ! -d "$here/node_modules/nodejs-polars-linux-x64-gnu" ]; then
    echo "interop: installing DuckDB and Polars (npm ci in tests/interop)"
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

rc=0
node "$here/interop.mjs" --pqt "$pqt" --dir "${PQT_INTEROP_DIR:-/tmp/pqt-interop}" "$@" || rc=$?
# the other direction: files pqt writes, read by DuckDB and Polars (written.mjs)
node "$here/written.mjs" --pqt "$pqt" --dir "${PQT_INTEROP_DIR:-/tmp/pqt-interop}" || rc=$?
# and filtered reads of them: the readers prune on pqt's statistics (written_pruning.mjs)
node "$here/written_pruning.mjs" --pqt "$pqt" --dir "${PQT_INTEROP_DIR:-/tmp/pqt-interop}" || rc=$?
# a copy keeps the source's types, as DuckDB and Polars see them (types.mjs)
node "$here/types.mjs" --pqt "$pqt" --dir "${PQT_INTEROP_DIR:-/tmp/pqt-interop}" || rc=$?
# and struct columns stay structs, nulls at every level kept (structs.mjs)
node "$here/structs.mjs" --pqt "$pqt" --dir "${PQT_INTEROP_DIR:-/tmp/pqt-interop}" || rc=$?
exit $rc
