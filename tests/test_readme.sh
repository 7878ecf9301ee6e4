#!/usr/bin/env bash
# The README stays true: its first lines are the two commands, and its C example compiles
# against the built library and prints what DuckDB computes for the same slice of
# examples/catalogue.parquet (rows 101..600: 500 rows, sum(mass) = 69164614776277.586).
#   bash tests/test_readme.sh PATH_TO_PQT     (from the repository root)
set -eu
build=$(cd "$(dirname "$1")" && pwd)
grep -q '^make demo ' README.md || { echo "README: 'make demo' line missing"; exit 1; }
grep -q '^make check ' README.md || { echo "README: 'make check' line missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n '/^```c/,/^```$/p' README.md | sed '1d;$d' > "$tmp/example.c"
# a sanitizer build of the library needs the example built the same way
san=()
if ldd "$build/libpqt.so" 2>/dev/null | grep -q libasan; then san=(-fsanitize=address,undefined); fi
cc -std=c11 -Wall -Wextra -Werror "${san[@]}" -Iinclude "$tmp/example.c" -o "$tmp/example" \
    -L"$build" -lpqt -Wl,-rpath,"$build"
out=$("$tmp/example" examples/catalogue.parquet)
[ "$out" = "500 rows, total mass 6.91646e+13" ] || { echo "README example printed: $out"; exit 1; }
echo "readme: ok"
