#!/usr/bin/env bash
# cli_web.sh LIT SOURCE_DIR - the page's own serving (web/): the files built
# into lit and the same files from the folder with --web, byte for byte;
# their types and the content-security-policy; no path out of web/; a
# --web that is not a folder refused. (The page in a browser:
# cli_browser.sh.)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh

command -v node >/dev/null || { fail "node is missing (scripts/test_tools.sh installs it)"; finish cli_web; }

run 2 "$lit" serve --web /nonexistent
grep -qx "lit: --web: not a folder: '/nonexistent'" "$tmp/err" || fail "--web: $(cat "$tmp/err")"

# the page from the binary, and from web/ with --web: the same bytes
"$lit" serve --port 0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
port=$(served_port "$tmp/serve.out")
# (a copy of web/ with a folder in it: a folder is no file to serve)
cp -r web "$tmp/web"
mkdir "$tmp/web/sub"
"$lit" serve --port 0 --web "$tmp/web" >"$tmp/dev.out" 2>"$tmp/dev.err" &
dev=$!
dport=$(served_port "$tmp/dev.out")
# one node process for every request (a start of node is a third of a
# second under load): prints one line for each thing that is wrong
node --input-type=module - "$port" "$dport" >"$tmp/web.out" 2>&1 <<'EOF' || fail "the checks did not run: $(cat "$tmp/web.out")"
import { readFileSync, readdirSync } from "node:fs";
const [port, dport] = process.argv.slice(2);
const get = async (p, path) => {
  const r = await fetch(`http://127.0.0.1:${p}${path}`);
  return { status: r.status, type: r.headers.get("content-type"),
           csp: r.headers.get("content-security-policy"), body: Buffer.from(await r.arrayBuffer()) };
};
for (const name of readdirSync("web")) {
  const built = await get(port, "/" + name), folder = await get(dport, "/" + name);
  if (built.status !== 200) console.log(`/${name}: ${built.status}`);
  if (!built.body.equals(readFileSync("web/" + name))) console.log(`/${name} is not web/${name}`);
  if (!built.body.equals(folder.body) || built.type !== folder.type || built.csp !== folder.csp)
    console.log(`/${name} differs between the binary and --web`);
}
const root = await get(port, "/");
if (root.status !== 200 || root.type !== "text/html; charset=utf-8" ||
    !/^default-src 'none'; script-src 'self'/.test(root.csp))
  console.log(`/: ${root.status} ${root.type} | ${root.csp}`);
const app = await get(port, "/app.js");
if (app.status !== 200 || app.type !== "text/javascript; charset=utf-8")
  console.log(`/app.js: ${app.status} ${app.type}`);
for (const path of ["/nothing.js", "/..%2fCMakeLists.txt", "/.hidden", "/%2e%2e/README.md", "/sub"]) {
  const r = await get(dport, path);
  if (r.status !== 404 || !/^text\/plain/.test(r.type)) console.log(`${path}: ${r.status} ${r.type}`);
}
EOF
[ ! -s "$tmp/web.out" ] || fail "$(cat "$tmp/web.out")"
kill -TERM "$pid" "$dev"
wait "$pid" || fail "lit serve: exit status $? on SIGTERM: $(tail -3 "$tmp/serve.err")"
wait "$dev" || fail "lit serve --web: exit status $? on SIGTERM: $(tail -3 "$tmp/dev.err")"

finish cli_web
