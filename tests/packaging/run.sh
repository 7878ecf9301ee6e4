#!/usr/bin/env bash
# tests/packaging/run.sh - install pqt to a prefix and build consumers against it, the way a
# user would: C, C++ and Fortran programs (examples/find_package*), each
#   - with CMake: find_package(pqt) in a project whose only language is that one, linking the
#     shared (pqt::pqt) and the static (pqt::pqt_static) library;
#   - with pkg-config: a dynamic link (`pkg-config --cflags --libs pqt`) and a fully static one
#     (`-static` with `pkg-config --static --libs pqt`, which fails on any missing Libs.private);
# and a program using module parquet (fortran/examples/find_package: pkg-config pqt-fortran,
# find_package(pqt-fortran)); with MPI (mpiexec on the PATH), a C consumer of pqt-mpi and a
# Fortran one of pqt-fortran-mpi (tests/packaging/mpi_c, mpi_fortran: pkg-config and CMake),
# run under mpiexec -n 2, and libpqt / libpqt-fortran must not need MPI; it runs every program on examples/catalogue.parquet (1000 rows,
# 11 columns: written by DuckDB, examples/make_catalogue.mjs). The library is built in its own
# directory with a multiarch libdir (lib/x86_64-linux-gnu: pqt.pc sits three levels below the
# prefix), and the prefix is moved after installing, so every path an installed file holds
# must be relative.
# The installed tool must run from the moved prefix with no LD_LIBRARY_PATH; its man page,
# shell completions and the documentation are installed under share/.
#
#   bash tests/packaging/run.sh [BUILD_DIR]     (default build-pkg; run from anywhere)
# Needs cmake, cc, c++, gfortran, pkg-config (scripts/install-deps test). CI runs it (.ci/run).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD=${1:-build-pkg}
LIBDIR=lib/x86_64-linux-gnu
DATA=$ROOT/examples/catalogue.parquet
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
unset LD_LIBRARY_PATH

npass=0
nfail=0
pass() { npass=$((npass + 1)); echo "ok: $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL: $*" >&2; }
# quiet CMD...: run CMD with its output in $TMP/log, shown only when it fails.
quiet() { "$@" >"$TMP/log" 2>&1 || { cat "$TMP/log" >&2; return 1; }; }

# The version every consumer must print: the header's, which the library reports.
major=$(sed -n 's/^#define PQT_VERSION_MAJOR \([0-9]*\)$/\1/p' include/pqt.h)
minor=$(sed -n 's/^#define PQT_VERSION_MINOR \([0-9]*\)$/\1/p' include/pqt.h)
patch=$(sed -n 's/^#define PQT_VERSION_PATCH \([0-9]*\)$/\1/p' include/pqt.h)
VERSION_LINE="pqt_version_number $((major * 10000 + minor * 100 + patch))"
SIZE_LINE="$DATA: 1000 rows, 11 columns"

# check NAME EXE: run EXE on the catalogue; it must print the version and the file's size.
check() {
    local name=$1 exe=$2 out
    if ! out=$("$exe" "$DATA" 2>&1); then
        fail "$name: exited non-zero: $out"
    elif ! grep -qxF "$VERSION_LINE" <<<"$out" || ! grep -qxF "$SIZE_LINE" <<<"$out"; then
        fail "$name: expected '$VERSION_LINE' and '$SIZE_LINE', got: $out"
    else
        pass "$name"
    fi
}

# not_needed NAME EXE LIB: EXE has no dynamic dependency on LIB (it was linked statically).
not_needed() {
    if readelf -d "$2" | grep -q "NEEDED.*\[$3"; then fail "$1: still needs $3"; else pass "$1: no $3"; fi
}

# ---- build and install the library and the tool ----
echo "building pqt in $BUILD (libdir $LIBDIR)..."
quiet cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DPQT_WERROR=ON -DCMAKE_INSTALL_LIBDIR=$LIBDIR \
    -DPQT_BUILD_TESTS=OFF -DPQT_BUILD_BENCH=OFF
quiet cmake --build "$BUILD" -j 2
quiet cmake --install "$BUILD" --prefix "$TMP/staged"
mv "$TMP/staged" "$TMP/prefix" # nothing installed may remember where it was installed
P=$TMP/prefix
for f in include/pqt.h include/pqt_file.h $LIBDIR/libpqt.so $LIBDIR/libpqt.a $LIBDIR/pkgconfig/pqt.pc \
    $LIBDIR/cmake/pqt/pqtConfig.cmake bin/pqt; do
    if [ -e "$P/$f" ]; then pass "installed $f"; else fail "not installed: $f"; fi
done
if grep -rqF "$TMP/staged" "$P/$LIBDIR/pkgconfig" "$P/$LIBDIR/cmake"; then
    fail "an installed package file names the install prefix"
else
    pass "package files hold no absolute install path"
fi

# the tool, from the moved prefix, through its RPATH ($ORIGIN/../lib/x86_64-linux-gnu)
if out=$("$P/bin/pqt" schema "$DATA" 2>&1) && grep -qF "$DATA: 1000 rows, 2 row groups, 11 columns" <<<"$out"; then
    pass "installed pqt runs from its prefix"
else
    fail "installed pqt: $out"
fi

# the tool's man page, shell completions and the documentation
for f in share/man/man1/pqt.1 share/bash-completion/completions/pqt share/zsh/site-functions/_pqt \
    share/doc/pqt/README.md share/doc/pqt/LICENSE share/doc/pqt/docs/reading.md \
    share/doc/pqt/docs/filters.md; do
    if [ -s "$P/$f" ]; then pass "installed $f"; else fail "not installed: $f"; fi
done
if command -v man >/dev/null; then
    if out=$(MANPATH="$P/share/man" man -w pqt 2>&1) && [ "$out" = "$P/share/man/man1/pqt.1" ]; then
        pass "man finds pqt(1) under the prefix's share/man"
    else
        fail "man -w pqt with MANPATH=$P/share/man: $out"
    fi
fi
if out=$(bash -c 'source "$1"; COMP_WORDS=(pqt ca); COMP_CWORD=1; _pqt; echo "${COMPREPLY[*]}"' \
    _ "$P/share/bash-completion/completions/pqt" 2>&1) && [ "$out" = "cat" ]; then
    pass "the installed bash completion completes 'pqt ca' to 'cat'"
else
    fail "bash completion of 'pqt ca': $out"
fi

# ---- pkg-config ----
export PKG_CONFIG_PATH=$P/$LIBDIR/pkgconfig
PC_DYN=$(pkg-config --cflags --libs pqt)
PC_STATIC=$(pkg-config --cflags --static --libs pqt)
libdir=$(pkg-config --variable=libdir pqt)
if [ "$(cd "$libdir" && pwd)" = "$(cd "$P/$LIBDIR" && pwd)" ]; then
    pass "pqt.pc libdir is the installed libdir"
else
    fail "pqt.pc libdir $libdir is not $P/$LIBDIR"
fi
for lib in -lzstd -lsnappy -lz -llz4 -lbrotlidec -lxxhash -lyaml -lgomp -lm -lpthread -ldl; do
    grep -qw -- "$lib" <<<"$PC_STATIC" || fail "pkg-config --static --libs pqt lacks $lib: $PC_STATIC"
done
# libcurl is loaded on the first URL (issue 35): neither the library nor pqt.pc names it.
if grep -q curl <<<"$PC_STATIC"; then fail "pkg-config --static --libs pqt names curl: $PC_STATIC"
else pass "pqt.pc names no curl"; fi
not_needed "installed libpqt.so" "$P/$LIBDIR/libpqt.so" libcurl

# Both headers declare everything extern "C" and compile as strict C++.
for h in pqt.h pqt_file.h; do
    if grep -q 'extern "C"' include/$h &&
        quiet c++ -std=c++11 -Wall -Wextra -Werror -pedantic -fsyntax-only -x c++ $(pkg-config --cflags pqt) - <<<"#include <$h>"; then
        pass "$h is C++-clean with extern \"C\" guards"
    else
        fail "$h in C++"
    fi
done

# pqt.pc's Libs carry -Wl,-rpath,${libdir}: a program built with `pkg-config --libs pqt` finds
# libpqt.so.0 where pkg-config found the package, with no LD_LIBRARY_PATH (unset above). The
# .pc computes ${libdir} from its own place (${pcfiledir}) when it is queried, so the rpath
# names the moved prefix, not the staging directory it was installed to.
if grep -qF -- "-Wl,-rpath,$libdir" <<<"$PC_DYN"; then
    pass "pkg-config --libs pqt has the rpath of the moved libdir"
else
    fail "pkg-config --libs pqt lacks -Wl,-rpath,$libdir: $PC_DYN"
fi

# build_pc LANG DRIVER SRC [FLAGS]: the dynamic (no rpath but pqt.pc's, run with no
# LD_LIBRARY_PATH) and the fully static program of one language
# (STATIC_EXTRA: more flags for the static link).
build_pc() {
    local lang=$1 driver=$2 src=$3
    shift 3
    if quiet "$driver" "$@" "$src" -o "$TMP/pc_$lang" $PC_DYN; then
        check "pkg-config $lang dynamic" "$TMP/pc_$lang"
    else
        fail "pkg-config $lang dynamic: link failed"
    fi
    if quiet "$driver" "$@" -static "$src" -o "$TMP/pc_${lang}_static" $PC_STATIC ${STATIC_EXTRA:-}; then
        check "pkg-config --static $lang" "$TMP/pc_${lang}_static"
        not_needed "pkg-config --static $lang" "$TMP/pc_${lang}_static" libpqt
    else
        fail "pkg-config --static $lang: link failed"
    fi
}
build_pc c cc examples/find_package/example.c -std=c11 -Wall -Wextra -Werror
build_pc cxx c++ examples/find_package_cxx/example.cpp -std=c++11 -Wall -Wextra -Werror -pedantic
# A fully static gfortran program whose libraries pull in threads (libgomp does) crashes at
# exit in libgfortran's unit closing: it calls pthread_mutex_destroy through a weak reference
# that nothing else pulls out of glibc 2.34+'s libc.a. A toolchain matter, not pqt's: -u pulls it.
STATIC_EXTRA=-Wl,-u,pthread_mutex_destroy \
    build_pc fortran gfortran examples/find_package_fortran/example.f90 -Wall -Werror

# ---- CMake: find_package(pqt) in a project of one language ----
# cmake_one DIR LANG EXE: configure and build examples/DIR against the moved prefix, check that
# the project enabled no other language, run the shared and the static program.
cmake_one() {
    local dir=$1 lang=$2 exe=$3 b=$TMP/cmake_$1
    if ! quiet cmake -S "examples/$dir" -B "$b" -DCMAKE_PREFIX_PATH="$P" ||
        ! quiet cmake --build "$b"; then
        fail "CMake $lang ($dir): configure or build failed"
        return
    fi
    local other
    for other in C CXX Fortran; do
        if [ "$other" != "$lang" ] && grep -q "^CMAKE_${other}_COMPILER:" "$b/CMakeCache.txt"; then
            fail "CMake $lang: the project also enabled $other"
        fi
    done
    check "CMake $lang pqt::pqt" "$b/$exe"
    check "CMake $lang pqt::pqt_static" "$b/${exe}_static"
    not_needed "CMake $lang pqt::pqt_static" "$b/${exe}_static" libpqt
}
cmake_one find_package C pqt_example
cmake_one find_package_cxx CXX pqt_example_cxx
cmake_one find_package_fortran Fortran pqt_example_fortran

# ---- module parquet (pqt-fortran): pkg-config and CMake consumers of the .mod files ----
# (a dynamic link only: pqt-fortran is installed as a shared library)
for f in $LIBDIR/libpqt-fortran.so include/pqt-fortran/parquet.mod \
    include/pqt-fortran/parquet_tables.mod $LIBDIR/pkgconfig/pqt-fortran.pc \
    $LIBDIR/cmake/pqt-fortran/pqt-fortranConfig.cmake; do
    if [ -e "$P/$f" ]; then pass "installed $f"; else fail "not installed: $f"; fi
done
# check_module NAME EXE: the program must print the catalogue's size through module parquet.
check_module() {
    local out
    if out=$("$2" "$DATA" 2>&1) && grep -qxF "$SIZE_LINE" <<<"$out"; then
        pass "$1"
    else
        fail "$1: expected '$SIZE_LINE', got: $out"
    fi
}
if quiet gfortran -Wall -Werror fortran/examples/find_package/example.f90 -o "$TMP/pc_fmod" \
    $(pkg-config --cflags --libs pqt-fortran); then
    check_module "pkg-config module parquet" "$TMP/pc_fmod"
else
    fail "pkg-config module parquet: build failed"
fi
b=$TMP/cmake_fmod
if quiet cmake -S fortran/examples/find_package -B "$b" -DCMAKE_PREFIX_PATH="$P" &&
    quiet cmake --build "$b"; then
    check_module "CMake module parquet pqt::pqt_fortran" "$b/pqt_fortran_example"
    if grep -qE "^CMAKE_(C|CXX)_COMPILER:" "$b/CMakeCache.txt"; then
        fail "CMake module parquet: the project also enabled C or C++"
    fi
else
    fail "CMake module parquet: configure or build failed"
fi

# ---- the MPI component: pqt-mpi (C) and pqt-fortran-mpi (module parquet_mpi) ----
# check_mpi NAME EXE [VERSION]: EXE under mpiexec -n 2 on the catalogue (2 row groups, one per
# rank): rank 0 prints the rows of both ranks and the ranks' count, each rank its rows.
MPIEXEC=$(command -v mpiexec || true)
MPIFLAGS=()
if [ -n "$MPIEXEC" ] && "$MPIEXEC" --version 2>&1 | grep -qE "Open MPI|OpenRTE"; then
    # Open MPI refuses to run as root without these, and more ranks than cores without
    # --oversubscribe
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    MPIFLAGS=(--oversubscribe)
fi
check_mpi() {
    local name=$1 exe=$2 out
    if ! out=$("$MPIEXEC" -n 2 "${MPIFLAGS[@]}" "$exe" "$DATA" 2>&1); then
        fail "$name: mpiexec -n 2 exited non-zero: $out"
    elif ! grep -qxF "$SIZE_LINE" <<<"$out" || ! grep -qx "ranks: 2" <<<"$out" ||
        ! grep -qE "^rank 0: rows 1\.\.[0-9]+$" <<<"$out" ||
        ! grep -qE "^rank 1: rows [0-9]+\.\.1000$" <<<"$out" ||
        { [ -n "${3:-}" ] && ! grep -qxF "$VERSION_LINE" <<<"$out"; }; then
        fail "$name: expected '$SIZE_LINE', 'ranks: 2' and both ranks' rows, got: $out"
    else
        pass "$name"
    fi
}
if [ -z "$MPIEXEC" ]; then
    echo "note: no mpiexec: the MPI component is not checked"
else
    for f in include/pqt_mpi.h $LIBDIR/libpqt_mpi.so $LIBDIR/pkgconfig/pqt-mpi.pc \
        $LIBDIR/cmake/pqt-mpi/pqt-mpiConfig.cmake $LIBDIR/libpqt-fortran-mpi.so \
        include/pqt-fortran/parquet_mpi.mod $LIBDIR/pkgconfig/pqt-fortran-mpi.pc \
        $LIBDIR/cmake/pqt-fortran-mpi/pqt-fortran-mpiConfig.cmake; do
        if [ -e "$P/$f" ]; then pass "installed $f"; else fail "not installed: $f"; fi
    done
    # the core libraries never depend on MPI
    for lib in libpqt.so libpqt-fortran.so; do
        if readelf -d "$P/$LIBDIR/$lib" | grep -q "NEEDED.*mpi"; then
            fail "$lib needs an MPI library"
        else
            pass "$lib needs no MPI library"
        fi
    done
    # pkg-config (the MPI flags are in the .pc files: a plain cc or gfortran builds them)
    if quiet cc -std=c11 -Wall -Wextra -Werror tests/packaging/mpi_c/example_mpi.c \
        -o "$TMP/pc_mpi_c" $(pkg-config --cflags --libs pqt-mpi); then
        check_mpi "pkg-config pqt-mpi (C)" "$TMP/pc_mpi_c" version
    else
        fail "pkg-config pqt-mpi (C): build failed"
    fi
    if quiet gfortran -Wall -Werror tests/packaging/mpi_fortran/example_mpi.f90 \
        -o "$TMP/pc_mpi_f" $(pkg-config --cflags --libs pqt-fortran-mpi); then
        check_mpi "pkg-config pqt-fortran-mpi (module parquet_mpi)" "$TMP/pc_mpi_f"
    else
        fail "pkg-config pqt-fortran-mpi: build failed"
    fi
    # CMake packages
    for d in mpi_c:pqt_mpi_example:"CMake pqt::pqt_mpi (C)" \
        mpi_fortran:pqt_fortran_mpi_example:"CMake pqt::pqt_fortran_mpi (module parquet_mpi)"; do
        IFS=: read -r dir exe name <<<"$d"
        b=$TMP/cmake_$dir
        if quiet cmake -S tests/packaging/$dir -B "$b" -DCMAKE_PREFIX_PATH="$P" &&
            quiet cmake --build "$b"; then
            check_mpi "$name" "$b/$exe" $([ "$dir" = mpi_c ] && echo version)
            # module parquet_mpi needs MPI for Fortran only: no C in a Fortran project
            if [ "$dir" = mpi_fortran ] && grep -qE "^CMAKE_(C|CXX)_COMPILER:" "$b/CMakeCache.txt"; then
                fail "$name: the project also enabled C or C++"
            fi
        else
            fail "$name: configure or build failed"
        fi
    done
fi

echo "packaging: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
