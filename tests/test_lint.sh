#!/usr/bin/env bash
# Source rules that a compiler does not check (STYLE.md, CONTRIBUTING.md):
#  1. the layer graph: each src/ folder includes only the folders below it;
#  2. no raw malloc/calloc/realloc/free in src/ outside src/util/mem.c;
#  3. tools/ uses only the public header;
#  4. the generated bit-unpack kernels and power-of-ten table match their generators;
#  5. the writer reaches tables through table/table_view.h, never the table's layout.
#   bash tests/test_lint.sh [PQT]      (from the repository root; the argument is ignored)
set -u
fail=0
err() { echo "LINT: $*"; fail=1; }

# allowed[layer] = layers it may include (besides itself and pqt.h)
declare -A allowed=(
    [util]=""
    [format]="util"
    [codec]="util format"
    [encoding]="util format"
    [column]="util format codec encoding"
    [read]="util format codec encoding column scan"
    [dataset]="util format codec encoding column scan read remote"
    [api]="util format codec encoding column scan read maml dataset remote"
    [table]="util format codec encoding column scan read api maml dataset remote"
    [maml]="util"
    [remote]="util"
    [scan]="util format codec encoding column"
    [write]="util format codec encoding column scan read api maml table dataset remote"
    [arrow]="util format codec encoding column scan read api maml table dataset write remote"
)
for dir in src/*/; do
    layer=$(basename "$dir")
    [ -n "${allowed[$layer]+x}" ] || { err "src/$layer is not in the layer graph (tests/test_lint.sh)"; continue; }
    while IFS=: read -r file line inc; do
        target=$(sed -n 's/.*#include "\([a-z_]*\)\/.*/\1/p' <<<"$inc")
        [ -z "$target" ] && continue
        [ "$target" = "$layer" ] && continue
        grep -qw "$target" <<<"${allowed[$layer]}" || err "$file:$line: $layer must not include $target/"
    done < <(grep -Hn '#include "' "$dir"*.[ch])
done

while IFS= read -r hit; do
    err "src/write/ reaches tables through table/table_view.h, not table_int.h: $hit"
done < <(grep -Hn '#include "table/table_int.h"' src/write/*.[ch])
while IFS= read -r hit; do
    err "the Arrow export reaches tables through table/table_view.h, not table_int.h: $hit"
done < <(grep -Hn '#include "table/table_int.h"' src/arrow/arrow_export*.c src/arrow/arrow_schema*.c \
    src/arrow/arrow_int.h)

while IFS= read -r hit; do
    err "raw allocation (use src/util/mem.h): $hit"
done < <(grep -rnE '(^|[^_a-z])(malloc|calloc|realloc|free)\(' src --include='*.[ch]' |
         grep -v '^src/util/mem.c' | grep -vE 'pqt_(mem_)?(malloc|calloc|realloc|free)' |
         grep -vE '^\S+:\s*(/\*|\*)')

while IFS= read -r hit; do
    err "tools/ must use only the public headers: $hit"
done < <(grep -n '#include "' tools/*.[ch] | grep -vE '"(pqt|pqt_file|tools|render|cat)\.h"|render_json\.c')

# Every hand-written C file carries the license line (generated files say who made them).
for f in src/*/*.[ch] include/*.h tools/*.[ch] tests/unit/*.[ch] tests/fuzz/*.[ch] bench/*.c; do
    case "$f" in src/encoding/unpack_gen.c | src/util/numtext_pow10.h) continue ;; esac
    head -1 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || err "$f: no SPDX license line"
done

if command -v python3 >/dev/null; then
    tmp=$(mktemp)
    python3 tools/gen_unpack.py "$tmp" >/dev/null
    cmp -s "$tmp" src/encoding/unpack_gen.c || err "src/encoding/unpack_gen.c differs from tools/gen_unpack.py output"
    python3 tools/gen_pow10.py "$tmp" >/dev/null
    cmp -s "$tmp" src/util/numtext_pow10.h || err "src/util/numtext_pow10.h differs from tools/gen_pow10.py output"
    rm -f "$tmp"
fi
# The table reaches a pqt_file through api/file_access.h, not its layout.
while IFS= read -r hit; do
    err "the table reaches pqt_file through api/file_access.h: $hit"
done < <(grep -nE '#include "api/file_int.h"|->f->' src/table/*.[ch])

[ $fail = 0 ] && echo "lint: ok"
exit $fail
