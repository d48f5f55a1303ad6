#!/usr/bin/env bash
# `lit serve --db`: rooms and games kept across restarts. The command line's
# refusals; kill -9 at random moments of games, with nothing any client was
# sent lost (restart_client.mjs: Node.js with npm's ws, from
# scripts/test_tools.sh); `lit games` and `lit backup` while the server runs.
# The long run (100 kills and more) is in docs/RELIABILITY.md.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh
scripts/test_tools.sh ||
  { fail "scripts/test_tools.sh failed: no node or no ws for the client"; finish cli_restart; }
kills=${LIT_RESTART_KILLS:-30}
seed=${LIT_RESTART_SEED:-$(date +%s)}

# refusals of the command line
run 2 "$lit" serve --db-max-mb 5
grep -qx "lit: --db-max-mb: give --db FILE too" "$tmp/err" || fail "--db-max-mb alone: $(cat "$tmp/err")"
run 2 "$lit" serve --keep-games 5
grep -qx "lit: --keep-games: give --db FILE too" "$tmp/err" || fail "--keep-games alone: $(cat "$tmp/err")"
run 2 "$lit" serve --db "$tmp/k.db" --keep-games -1
grep -qx "lit: --keep-games: not a number from 0 to 100000000: '-1'" "$tmp/err" ||
  fail "--keep-games -1: $(cat "$tmp/err")"
run 2 "$lit" serve --db "$tmp/k.db" --keep-days 36501
grep -qx "lit: --keep-days: not a number from 0 to 36500: '36501'" "$tmp/err" ||
  fail "--keep-days 36501: $(cat "$tmp/err")"
run 1 "$lit" serve --db /nonexistent/dir/lit.db
grep -qx "lit: /nonexistent/dir/lit.db: No such file or directory" "$tmp/err" ||
  fail "--db in no directory: $(cat "$tmp/err")"
printf '[Rules "classic"]\n%0200d\n' 0 >"$tmp/record.lit"
run 1 "$lit" serve --db "$tmp/record.lit"
grep -qx "lit: $tmp/record.lit: file is not a database" "$tmp/err" || fail "--db a record: $(cat "$tmp/err")"
run 2 "$lit" games
grep -qx "lit: games: give --db FILE" "$tmp/err" || fail "games: $(cat "$tmp/err")"
run 1 "$lit" games --db "$tmp/none.db"
grep -qx "lit: $tmp/none.db: No such file or directory" "$tmp/err" || fail "games --db none: $(cat "$tmp/err")"
run 1 "$lit" games --db "$tmp"
grep -qx "lit: $tmp: a folder, not a store's file" "$tmp/err" || fail "games --db a folder: $(cat "$tmp/err")"
run 1 "$lit" games --db /dev/zero
grep -qx "lit: /dev/zero: not a regular file" "$tmp/err" || fail "games --db /dev/zero: $(cat "$tmp/err")"
run 1 "$lit" serve --port 0 --db "$tmp"
grep -qx "lit: $tmp: a folder, not a store's file" "$tmp/err" || fail "serve --db a folder: $(cat "$tmp/err")"
run 2 "$lit" backup --db "$tmp/x.db"
grep -qx "lit: backup: give --db FILE and --to NEW" "$tmp/err" || fail "backup: $(cat "$tmp/err")"

# kill -9 at random moments; every game goes on with its whole history
echo "cli_restart: $kills kills, seed $seed" >&2
timeout 600 node tests/integration/restart_client.mjs "$lit" "$tmp/lit.db" "$kills" "$seed" \
  >"$tmp/client.out" 2>&1 || fail "restarts (seed $seed): $(tail -5 "$tmp/client.out")"
grep -q "^ok: " "$tmp/client.out" || fail "restarts: $(tail -3 "$tmp/client.out")"
grep -q "not taken up" "$tmp/lit.db.log" && fail "a room was not taken up: $(grep "not taken up" "$tmp/lit.db.log")"

# the games, listed and downloaded, while a server runs on the file
"$lit" serve --port 0 --db "$tmp/lit.db" >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
served_port "$tmp/serve.out" >/dev/null
grep -q "^serve: 1 rooms taken up from the store$" "$tmp/serve.err" || fail "taken up: $(cat "$tmp/serve.err")"
run 0 "$lit" games --db "$tmp/lit.db"
head -1 "$tmp/out" | grep -q "^id  *room  *game  *started  *finished  *result  *score  *actions$" ||
  fail "games header: $(head -1 "$tmp/out")"
finished=$(awk 'NR > 1 && $NF > 0 && $0 !~ /playing/' "$tmp/out" | wc -l)
games=$(sed -n 's/^ok: \([0-9]*\) games.*/\1/p' "$tmp/client.out")
[ "$finished" = "$games" ] || fail "games listed finished: $finished, played: $games"
id=$(awk 'NR == 2 {print $1}' "$tmp/out")
run 0 "$lit" games --db "$tmp/lit.db" --record "$id"
"$lit" replay "$tmp/out" >/dev/null 2>"$tmp/replay.err" || fail "the record does not replay: $(cat "$tmp/replay.err")"
run 1 "$lit" games --db "$tmp/lit.db" --record NOSUCHGAME
grep -qx "lit: $tmp/lit.db: no game NOSUCHGAME" "$tmp/err" || fail "no game: $(cat "$tmp/err")"
run 0 "$lit" backup --db "$tmp/lit.db" --to "$tmp/copy.db"
run 0 "$lit" games --db "$tmp/copy.db"
[ "$(awk 'NR > 1' "$tmp/out" | wc -l)" -ge "$games" ] || fail "the backup's games: $(cat "$tmp/out")"
run 1 "$lit" backup --db "$tmp/lit.db" --to "$tmp/copy.db"
grep -qx "lit: $tmp/copy.db: exists: the backup goes to a new file" "$tmp/err" || fail "backup over a file: $(cat "$tmp/err")"
# names SQLite takes for no file: refused, not "backed up" to nothing
for to in "" ":memory:" "file:x.db?mode=memory"; do
  run 1 "$lit" backup --db "$tmp/lit.db" --to "$to"
  want="lit: backup to '$to': SQLite writes no file of that name: give a path, say ./${to:-copy.db}"
  grep -qxF "$want" "$tmp/err" || fail "backup --to '$to': $(cat "$tmp/err")"
done
# a backup to a folder's name, or through a link to nothing: refused
run 1 "$lit" backup --db "$tmp/lit.db" --to "$tmp/newdir/"
grep -qx "lit: backup to $tmp/newdir/: a file's name, not a folder's" "$tmp/err" ||
  fail "backup --to a folder's name: $(cat "$tmp/err")"
ln -s "$tmp/nowhere.db" "$tmp/dangling"
run 1 "$lit" backup --db "$tmp/lit.db" --to "$tmp/dangling"
grep -qx "lit: $tmp/dangling: exists: the backup goes to a new file" "$tmp/err" ||
  fail "backup --to a dangling link: $(cat "$tmp/err")"
# one that fails (a size limit) leaves nothing at NEW, nor beside it
(trap '' XFSZ; ulimit -f 40; exec "$lit" backup --db "$tmp/lit.db" --to "$tmp/cut.db") \
  >"$tmp/out" 2>"$tmp/err" && fail "a backup over the size limit succeeded"
grep -q "^lit: backup to $tmp/cut.db: " "$tmp/err" || fail "backup over a limit: $(cat "$tmp/err")"
[ -z "$(find "$tmp" -name 'cut.db*')" ] || fail "a failed backup left $(find "$tmp" -name 'cut.db*')"
# a second server on the store: refused, the first one's rooms untouched
run 1 "$lit" serve --port 0 --db "$tmp/lit.db"
grep -qx "lit: $tmp/lit.db: in use by another lit serve: a store has one server" "$tmp/err" ||
  fail "a second server on the store: $(cat "$tmp/err")"
kill -TERM "$pid"
wait "$pid" || fail "exit status after SIGTERM: $?"
grep -q "Ann\|token\|Hand" "$tmp/lit.db.log" "$tmp/serve.err" && fail "the log holds names, tokens or hands"
# a store in memory is no store; one that cannot be written is refused at
# the start, not at the first save (as another user: root writes anyway)
for db in "" ":memory:"; do
  run 1 "$lit" serve --port 0 --db "$db"
  grep -qxF "lit: $db: SQLite writes no file of that name: give a path, say ./lit.db" "$tmp/err" ||
    fail "serve --db '$db': $(cat "$tmp/err")"
done
run 1 "$lit" serve --port 0 --db "file:$tmp/lit.db?mode=ro"
grep -qxF "lit: file:$tmp/lit.db?mode=ro: a URI, which may keep the store in memory or read-only: give the file's path" \
  "$tmp/err" || fail "serve --db a URI: $(cat "$tmp/err")"
ro=$(mktemp -d /tmp/lit-ro.XXXXXX)
cp "$tmp/lit.db" "$ro/ro.db"
chmod 755 "$ro"
chmod 444 "$ro/ro.db"
as=()
[ "$(id -u)" = 0 ] && as=(runuser -u nobody --)
if [ ${#as[@]} = 0 ] || { command -v runuser >/dev/null && id nobody >/dev/null 2>&1; }; then
  # the file read-only in a folder the server may write, then the folder
  # read-only too (where SQLite cannot make the WAL's -shm file)
  [ ${#as[@]} = 0 ] || chown nobody "$ro"
  for what in file folder; do
    [ "$what" = folder ] && chmod 555 "$ro"
    run 1 "${as[@]}" "$lit" serve --port 0 --db "$ro/ro.db"
    grep -qx "lit: $ro/ro.db: cannot be written (the file, its folder or its disk is read-only)" \
      "$tmp/err" || fail "serve --db, a read-only $what: $(cat "$tmp/err")"
  done
  # reading it there, a store in WAL mode needs its -shm file made: why
  # it cannot, where SQLite said "attempt to write a readonly database"
  run 1 "${as[@]}" "$lit" games --db "$ro/ro.db"
  grep -qx "lit: $ro/ro.db: cannot be read here: a store in WAL mode is read with its -shm file, which its folder must let be made (or copy the store with its -wal and -shm files)" \
    "$tmp/err" || fail "games --db in a read-only folder: $(cat "$tmp/err")"
else
  echo "cli_restart: a read-only store not tried: root, and no runuser or no user nobody" >&2
fi
chmod 755 "$ro"
rm -rf "$ro"
finish cli_restart
