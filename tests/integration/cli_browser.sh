#!/usr/bin/env bash
# The browser table (web/) in Debian's chromium, driven by playwright-core
# through clicks and keys only (tests/browser/table.test.mjs): a game against
# bots to its end in a match, a spectator, a reload, the claim dialog on a
# phone, six browsers at one table, a game by the keyboard alone, the lobby
# and the chat between browsers, a timed turn with waits and hand sizes on
# request; a whole game at 390x844 and at 1366x800 with every turn's
# controls inside the viewport, the live scoresheet and its likeliest
# placement in the claim dialog, a friend's link, a bot's seat taken and a
# seat asked of the host, the host through a reload, the tone's lock, dark
# theme and reduced motion, a finished game's review stepped through (by
# its link, too, from a phone in no room). Screenshots at phone and desktop
# sizes, in both themes, are kept in BUILD_DIR/browser-artifacts. Also the
# page's own serving: the files built into lit, their types, the
# content-security-policy, no path out of web/.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh
artifacts=$(dirname "$lit")/browser-artifacts

scripts/test_tools.sh --browser >"$tmp/tools.out" 2>&1 ||
  { fail "test tools: $(cat "$tmp/tools.out")"; finish cli_browser; }

run 2 "$lit" serve --web /nonexistent
grep -qx "lit: --web: not a folder: '/nonexistent'" "$tmp/err" || fail "--web: $(cat "$tmp/err")"

# the page from the binary, and from web/ with --web: the same bytes
"$lit" serve --port 0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
port=$(served_port "$tmp/serve.out")
"$lit" serve --port 0 --web web >"$tmp/dev.out" 2>"$tmp/dev.err" &
dev=$!
dport=$(served_port "$tmp/dev.out")
get() { # get PORT PATH: status, content type and csp on the first line, the body after
  node -e '
    const [port, path] = process.argv.slice(1);
    fetch(`http://127.0.0.1:${port}${path}`).then(async (r) => {
      console.log(r.status, r.headers.get("content-type"), "|",
                  r.headers.get("content-security-policy"));
      process.stdout.write(await r.text());
    });' "$@"
}
for f in web/*; do
  name=${f#web/}
  get "$port" "/$name" >"$tmp/built"
  get "$dport" "/$name" >"$tmp/folder"
  cmp -s "$tmp/built" "$tmp/folder" || fail "/$name differs between the binary and --web"
  tail -n +2 "$tmp/built" | cmp -s - "$f" || fail "/$name is not web/$name"
done
head1() { get "$@" >"$tmp/get"; head -1 "$tmp/get"; }
head1 "$port" / | grep -q "^200 text/html; charset=utf-8 | default-src 'none'; script-src 'self'" ||
  fail "/: $(head1 "$port" /)"
head1 "$port" /app.js | grep -q "^200 text/javascript; charset=utf-8 " || fail "app.js type"
for path in /nothing.js /..%2fCMakeLists.txt /.hidden "/%2e%2e/README.md"; do
  head1 "$dport" "$path" | grep -q "^404 text/plain" || fail "$path: $(head1 "$dport" "$path")"
done
kill -TERM "$pid" "$dev"
wait "$pid" "$dev"

rm -f "$artifacts"/*.png # each screenshot checked below is this run's
LIT="$lit" ARTIFACTS="$artifacts" timeout 600 node --test tests/browser/table.test.mjs \
  >"$tmp/browser.out" 2>&1 || fail "browser tests: $(grep -A12 '^not ok' "$tmp/browser.out")"
grep "^# \(pass\|fail\)" "$tmp/browser.out"
for name in table-phone table-desktop claim-phone claimed-phone over-phone over-desktop \
            turn-phone turn-laptop claim-likely-desktop waiting-desktop table-phone-dark \
            table-desktop-dark table-phone-light table-desktop-light review-desktop review-phone \
            keyboard-desktop keyboard-claim-desktop lobby-phone chat-phone wait-desktop \
            spectator-phone hint-desktop; do
  [ -s "$artifacts/$name.png" ] || fail "no screenshot $name.png in $artifacts"
done
finish cli_browser
