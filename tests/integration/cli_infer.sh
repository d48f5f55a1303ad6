#!/usr/bin/env bash
# cli_infer.sh LIT SOURCE_DIR - `lit infer`: the scoresheet of a seat's view
# and of the public view, against golden files, and its errors.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

run 0 "$lit" infer tests/data/example.lit --seat 1 --after 4
same "seat 1 after 4" tests/data/example_seat1_after4.infer "$tmp/out"
run 0 "$lit" infer tests/data/example.lit --public --after 6 --json
same "public after 6, JSON" tests/data/example_public_after6.json "$tmp/out"

# A record with no deal: the public view works, a seat's view cannot.
run 0 "$lit" infer tests/data/no_deal.lit --public
grep -q '^the public view after ' "$tmp/out" || fail "no_deal.lit --public: $(head -1 "$tmp/out")"
run 2 "$lit" infer tests/data/no_deal.lit --seat 2
same_text "no deal, --seat: stderr" \
  "lit: tests/data/no_deal.lit: the record has no deal: only --public can be taken" "$tmp/err"

# A history no deal fits is reported, not refused.
run 0 "$lit" infer tests/data/inconsistent.lit --public
same_text "inconsistent: first line" \
  "the public view after 2 of 2 actions: no deal fits this history" <(head -n 1 "$tmp/out")
run 0 "$lit" infer tests/data/inconsistent.lit --public --json
grep -q '"consistent":false' "$tmp/out" || fail "inconsistent --json: not consistent:false"

# Usage errors.
run 2 "$lit" infer tests/data/example.lit
run 2 "$lit" infer tests/data/example.lit --seat 1 --public
run 2 "$lit" infer tests/data/example.lit --seat 7
same_text "seat 7: stderr" "lit: --seat 7: the game has 6 seats" "$tmp/err"
run 2 "$lit" infer tests/data/example.lit --seat 0
run 1 "$lit" infer tests/data/bad_card.lit --public
grep -q '^tests/data/bad_card.lit:8: bad_card: ' "$tmp/err" || fail "bad_card.lit: $(cat "$tmp/err")"
run 0 "$lit" infer --help
[ "$(head -n 1 "$tmp/out")" = "usage: lit infer FILE (--seat N | --public) [--after K] [--json]" ] ||
  fail "--help: $(head -n 1 "$tmp/out")"

finish cli_infer
