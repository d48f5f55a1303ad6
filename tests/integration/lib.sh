# lib.sh - what the integration scripts share. Sourced by a script called as
# SCRIPT LIT SOURCE_DIR: sets $lit (absolute), $src, a scratch $tmp removed on
# exit, and moves to $src. Failures are counted; `finish NAME` reports them.

lit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
cd "$src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
# The python3 that scripts/deps.sh installs (Debian's), for the test clients
# and bots: a version manager's shim first on PATH (pyenv's, seen on the
# project's machines) costs a third of a second every start, and a test
# starts hundreds.
if [ -x /usr/bin/python3 ]; then python3=/usr/bin/python3; else python3=python3; fi

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run WANT_STATUS COMMAND...: stdout in $tmp/out, stderr in $tmp/err.
run() {
  local want=$1 rc=0
  shift
  "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ "$rc" != "$want" ]; then
    fail "$*: exit status $rc, want $want"
    sed 's/^/    stderr: /' "$tmp/err" >&2
  fi
}

# same LABEL EXPECTED_FILE ACTUAL_FILE: byte for byte; prints the lines that
# differ (coreutils and awk only).
same() {
  cat "$2" >"$tmp/same.want"
  cat "$3" >"$tmp/same.got"
  if [ "$(cksum <"$tmp/same.want")" = "$(cksum <"$tmp/same.got")" ]; then
    return 0
  fi
  fail "$1: differs from what is expected"
  awk -v W="$tmp/same.want" -v G="$tmp/same.got" 'BEGIN {
    n = 0
    for (line = 1; ; line++) {
      a = (getline x < W); b = (getline y < G)
      if (a <= 0 && b <= 0) break
      if (a <= 0) x = "(no line)"
      if (b <= 0) y = "(no line)"
      if (x != y) {
        printf "    line %d\n      expected: %s\n      actual:   %s\n", line, x, y
        if (++n == 10) { print "    ..."; break }
      }
    }
    if (n == 0) print "    the lines are the same; the bytes differ (line ends or the final newline)"
  }' >&2
}

# same_text LABEL EXPECTED_TEXT ACTUAL_FILE (the text gets a final newline;
# an empty text stands for an empty file)
same_text() {
  if [ -z "$2" ]; then : >"$tmp/expected"; else printf '%s\n' "$2" >"$tmp/expected"; fi
  same "$1" "$tmp/expected" "$3"
}

# finish NAME: exit 1 if anything failed, else say ok.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$1: $failures failure(s)" >&2
    exit 1
  fi
  echo "$1: ok"
}
