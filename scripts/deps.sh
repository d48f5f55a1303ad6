#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, and only those
# that are missing (checked with dpkg-query). Nothing else is downloaded.
# scripts/deps.sh --only PKG... does the same for the packages named.
set -euo pipefail

packages=(cmake ninja-build gcc clang libclang-rt-14-dev pkg-config binutils
          libcriterion-dev libjansson-dev libncurses-dev libwebsockets-dev libsqlite3-dev python3
          libev-dev libwebsockets-evlib-ev
          iproute2 tmux valgrind)
if [ "${1:-}" = "--only" ]; then # deps.sh --only PKG...: those packages instead
  shift
  packages=("$@")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
