#!/usr/bin/env bash
# test_man.sh - the man page (docs/man/pqt.1) and the shell completions (contrib/completions/
# pqt.bash, _pqt) name every command 'pqt --help' lists, and every option 'pqt help COMMAND'
# lists for it (the man page in that command's section, 'head' sharing 'cat's, -h/--help
# once for all). A command or
# option added to the tool without them fails here. Also: the man page renders without
# warnings when groff is there.
#   bash tests/test_man.sh PATH_TO_PQT     (from the repository root)
set -u
PQT=${1:?usage: test_man.sh PATH_TO_PQT}
command -v python3 >/dev/null || { echo "test_man: skipped (no python3)"; exit 0; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$PQT" --help >"$TMP/help" || { echo "FAIL: pqt --help"; exit 1; }
# the commands: the first word of each line of the "commands:" block
sed -n '/^commands:/,/^$/p' "$TMP/help" | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' >"$TMP/commands"
[ -s "$TMP/commands" ] || { echo "FAIL: no commands found in pqt --help"; exit 1; }
while read -r c; do
    "$PQT" help "$c" >"$TMP/help_$c" 2>&1 || { echo "FAIL: pqt help $c"; exit 1; }
done <"$TMP/commands"
python3 - "$TMP" docs/man/pqt.1 contrib/completions/pqt.bash contrib/completions/_pqt <<'PY'
import re, sys
tmp, man_path, bash_path, zsh_path = sys.argv[1:5]
man = open(man_path).read().replace("\\-", "-")
comp = {"bash": open(bash_path).read(), "zsh": open(zsh_path).read()}
commands = open(tmp + "/commands").read().split()
# man page sections: .SS "pqt CMD ..." up to the next .SS or .SH
sections = {}
for m in re.finditer(r'^\.SS "pqt (\w+)[^\n]*\n(.*?)(?=^\.S[SH] )', man, re.M | re.S):
    sections[m.group(1)] = m.group(0)
bad = []
for c in commands:
    if c not in sections:
        bad.append(f"the man page has no section 'pqt {c}'")
    for name, text in comp.items():
        if not re.search(r"(^|[\s'\"(])" + c + r"([\s:'\")]|$)", text):
            bad.append(f"the {name} completion does not offer the command {c}")
    helptext = open(f"{tmp}/help_{c}").read()
    opts = set()
    for line in helptext.split("\n"):
        m = re.match(r"^\s{2,}((?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]*)", line)
        if m:
            opts.update(re.findall(r"--?[A-Za-z][\w-]*", m.group(1)))
    # -h/--help: every command's, described once; 'pqt help help' is the top-level text,
    # whose options (--version) the OPTIONS section holds
    sec = man if c == "help" else sections.get("cat" if c == "head" else c, "")
    for o in sorted(opts):
        pat = r"(?<![\w-])" + re.escape(o) + r"(?![\w-])"
        if sec and o not in ("-h", "--help") and not re.search(pat, sec):
            bad.append(f"the man page's 'pqt {c}' section lacks {o}")
        for name, text in comp.items():
            if not re.search(pat, text):
                bad.append(f"the {name} completion lacks {o} (pqt {c})")
for b in bad:
    print("FAIL:", b)
print(f"test_man: {len(commands)} commands checked" if not bad else f"test_man: {len(bad)} problems")
sys.exit(1 if bad else 0)
PY
status=$?
if [ $status -eq 0 ] && command -v groff >/dev/null; then
    warn=$(groff -man -Tutf8 -ww -z docs/man/pqt.1 2>&1)
    [ -z "$warn" ] || { echo "FAIL: groff warns about docs/man/pqt.1: $warn"; status=1; }
fi
exit $status
