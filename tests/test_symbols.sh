#!/usr/bin/env bash
# test_symbols.sh - libpqt.so exports exactly the PQT_API calls of include/pqt.h,
# include/pqt_file.h and include/pqt_arrow.h, both ways (src/pqt.map, docs/stability.md): a
# call declared but not exported fails a user's link; a symbol exported but not declared
# becomes ABI by accident.
# The Fortran library (when built) exports no pqt_ C symbol of its own: it binds to libpqt.
# The MPI component (when built) exports exactly include/pqt_mpi.h's PQT_API calls, and module
# parquet_mpi's library no pqt_ C symbol (its C half is hidden).
#   bash tests/test_symbols.sh PATH/TO/pqt     (from the repository root; the library is
#                                              found next to the tool, in the build directory)
set -u
build=$(dirname "$1")
lib=$build/libpqt.so
[ -e "$lib" ] || { echo "test_symbols: no $lib (shared library not built)"; exit 1; }
command -v nm >/dev/null || { echo "test_symbols: nm not found"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# Declared: the name before '(' on every PQT_API line (a declaration's first line holds it).
sed -n 's/^PQT_API .*[ *]\(pqt_[a-z0-9_]*\)(.*/\1/p' include/pqt.h include/pqt_file.h \
    include/pqt_arrow.h | sort >"$tmp/declared"
# Exported: defined dynamic symbols of every kind (functions, data).
nm -D --defined-only "$lib" | awk '{print $NF}' | sort >"$tmp/exported"

n=$(wc -l <"$tmp/declared")
[ "$n" -gt 100 ] || { echo "test_symbols: only $n PQT_API declarations parsed"; fail=1; }
if [ -n "$(uniq -d "$tmp/declared")" ]; then
    echo "declared twice: $(uniq -d "$tmp/declared" | tr '\n' ' ')"
    fail=1
fi
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
[ -z "$missing" ] || { echo "declared PQT_API but not exported: $missing"; fail=1; }
[ -z "$extra" ] || { echo "exported but not declared PQT_API: $extra"; fail=1; }

flib=$(ls "$build"/fortran/libpqt-fortran.so 2>/dev/null)
if [ -n "$flib" ]; then
    own=$(nm -D --defined-only "$flib" | awk '{print $NF}' | grep -E '^pqt_' || true)
    [ -z "$own" ] || { echo "libpqt-fortran.so exports pqt_ C symbols of its own: $own"; fail=1; }
fi

mlib=$(ls "$build"/mpi/libpqt_mpi.so 2>/dev/null)
if [ -n "$mlib" ]; then
    sed -n 's/^PQT_API .*[ *]\(pqt_[a-z0-9_]*\)(.*/\1/p' include/pqt_mpi.h | sort >"$tmp/mdeclared"
    nm -D --defined-only "$mlib" | awk '{print $NF}' | sort >"$tmp/mexported"
    [ -s "$tmp/mdeclared" ] || { echo "test_symbols: no PQT_API declaration parsed in pqt_mpi.h"; fail=1; }
    mdiff=$(comm -3 "$tmp/mdeclared" "$tmp/mexported")
    [ -z "$mdiff" ] || { echo "libpqt_mpi.so exports differ from pqt_mpi.h: $mdiff"; fail=1; }
fi
fmlib=$(ls "$build"/fortran/libpqt-fortran-mpi.so 2>/dev/null)
if [ -n "$fmlib" ]; then
    own=$(nm -D --defined-only "$fmlib" | awk '{print $NF}' | grep -E '^pqt_' || true)
    [ -z "$own" ] || { echo "libpqt-fortran-mpi.so exports pqt_ C symbols of its own: $own"; fail=1; }
fi

[ $fail = 0 ] && echo "symbols: ok ($n exported, as declared)"
exit $fail
