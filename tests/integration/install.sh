#!/usr/bin/env bash
# install.sh BUILD_DIR CC - `cmake --install` puts lit, the library, the
# headers and a relocatable pkg-config file under a prefix, and a program
# builds against them with pkg-config alone.
set -euo pipefail
build=$1
cc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/lit include/literature/game.h include/literature/notation.h \
         lib/libliterature.a lib/libliterature.so lib/pkgconfig/literature.pc; do
  if [ ! -e "$tmp/prefix/$f" ] && [ ! -e "$tmp/prefix/lib64/${f#lib/}" ]; then
    echo "install: $f is missing"
    exit 1
  fi
done
pc=$(dirname "$(find "$tmp/prefix" -name literature.pc | head -1)")
cat >"$tmp/use.c" <<'C'
#include <stdio.h>
#include <literature/game.h>
#include <literature/status.h>
int main(void)
{
    LitRules r;
    LitGame g;
    lit_rules_default(&r);
    int st = lit_game_new(&g, &r, 1, 0);
    printf("%s %d\n", lit_status_name(st), g.pub.counts[0]);
    return st;
}
C
libdir=$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir literature)
# shellcheck disable=SC2046
"$cc" -std=c11 "$tmp/use.c" -o "$tmp/use" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs literature) \
  -Wl,-rpath,"$libdir"
out=$("$tmp/use")
if [ "$out" != "ok 8" ]; then
  echo "install: the program printed '$out', want 'ok 8'"
  exit 1
fi
"$tmp/prefix/bin/lit" --version
echo "install: ok"
