#!/usr/bin/env bash
# cli_browser.sh LIT SOURCE_DIR PART... - the browser table (web/) in
# Debian's chromium headless shell (LIT_CHROMIUM=PATH: another chromium),
# driven by playwright-core through clicks and keys only:
# the tests of tests/browser/PART.test.mjs for each PART, one file after
# the other (two chromiums at once are slower here than one after the
# other), each file a server and a chromium of its own:
#   play    a game against bots to its end in a match, a spectator, a
#           reload, a stalled connection found by a ping, creating a room
#           while the page connects, six browsers at one table, leaving
#           mid-game asked first;
#   people  the lobby and the chat between browsers, a timed turn with
#           waits and hand sizes on request, a friend's link, a bot's seat
#           taken and a seat asked of the host, the host through a reload
#           and the tone's lock, a claim dialog open while the turn runs out;
#   review  the live scoresheet and its likeliest placement in the claim
#           dialog, the rules' truth, the hint, a finished game's review
#           stepped through (by its link, too, from a phone in no room),
#           its marks on a phone, the next game told over it;
#   page    the page alone: the claim dialog on a phone, a game by the
#           keyboard alone, a whole game at 390x844 and at 1366x800 with
#           every turn's controls inside the viewport, dark theme and
#           reduced motion, every claimed set in view at 6, 8 and 12
#           players, a 32-letter name on a phone.
# The suite runs each part once: play, people and review in the sanitizer
# build, page in the normal one (tests/CMakeLists.txt says why).
# Screenshots at phone and desktop sizes, in both themes, are kept in
# BUILD_DIR/browser-artifacts; each part's are checked to be made.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
shift 2
[ $# -gt 0 ] || { fail "no part named: play, people, review or page"; finish cli_browser; }
artifacts=$(dirname "$lit")/browser-artifacts

shots=""
files=()
for part in "$@"; do
  case $part in
    play) shots+=" table-desktop over-desktop spectator-phone over-phone leave-phone stalled-phone" ;;
    people) shots+=" lobby-phone chat-phone wait-desktop waiting-desktop claim-moved-phone" ;;
    review) shots+=" claim-likely-desktop hint-desktop review-desktop review-phone
                     review-next-phone" ;;
    page) shots+=" table-phone claim-phone claimed-phone keyboard-desktop keyboard-claim-desktop
                   turn-phone turn-laptop table-phone-dark table-desktop-dark table-phone-light
                   table-desktop-light piles-phone-8 piles-phone-6 piles-laptop-12
                   long-name-phone seat-clock-phone-8 seat-clock-phone-12" ;;
    *) fail "no such part: $part"; finish cli_browser ;;
  esac
  files+=("tests/browser/$part.test.mjs")
done

scripts/test_tools.sh --browser >"$tmp/tools.out" 2>&1 ||
  { fail "test tools: $(cat "$tmp/tools.out")"; finish cli_browser; }

# each screenshot checked below is this run's
for name in $shots; do rm -f "$artifacts/$name.png"; done
LIT="$lit" ARTIFACTS="$artifacts" timeout 900 node --test --test-concurrency=1 "${files[@]}" \
  >"$tmp/browser.out" 2>&1 || fail "browser tests: $(grep -m4 -A14 'not ok' "$tmp/browser.out")"
grep "^# \(pass\|fail\)" "$tmp/browser.out"
for name in $shots; do
  [ -s "$artifacts/$name.png" ] || fail "no screenshot $name.png in $artifacts"
done
finish cli_browser
