# serve_port.sh - sourced: served_port FILE waits up to 10 s for `lit serve`
# to print "serving on http://127.0.0.1:PORT/" into FILE and prints PORT
# (nothing when it never does).
served_port() {
  local _
  for _ in $(seq 100); do
    grep -q "^serving on" "$1" && break
    sleep 0.1
  done
  sed -n 's|^serving on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$1"
}
