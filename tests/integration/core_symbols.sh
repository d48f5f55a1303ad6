#!/usr/bin/env bash
# The core library needs nothing from the C library but memory and string
# primitives: no allocation, no I/O, no clock, no randomness, no exit.
# Fails naming any symbol the archive needs from outside that is not allowed.
set -euo pipefail
lib=$1
allowed='^(memcpy|memset|memmove|memcmp|bcmp|memchr|strlen|strcmp|__assert_fail|__stack_chk_fail|__popcountdi2|__asan_.*|__ubsan_.*|__sanitizer_.*|_GLOBAL_OFFSET_TABLE_)$'
defined=$(nm --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u)
needed=$(nm -u "$lib" | awk 'NF == 2 && $1 == "U" { print $2 }' | sort -u | comm -23 - <(echo "$defined"))
bad=$(echo "$needed" | grep -Ev "$allowed" | grep . || true)
if [ -n "$bad" ]; then
  echo "core_symbols: the core library uses:" $bad
  exit 1
fi
for must_not in malloc calloc realloc free printf fprintf puts time clock_gettime rand random exit; do
  if echo "$needed" | grep -qx "$must_not"; then
    echo "core_symbols: the core library uses $must_not"
    exit 1
  fi
done
echo "core_symbols: ok; needs only:" $needed
