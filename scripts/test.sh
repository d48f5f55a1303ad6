#!/usr/bin/env bash
# Every test: installs what is missing (scripts/deps.sh; the npm test tools
# and chromium, scripts/test_tools.sh), then
#   1. the normal build and its CTest suite;
#   2. the sanitizer build (ASan + UBSan, -fno-sanitize-recover=all) and the
#      same suite, with leak detection and halt on error;
#   3. the canary: a deliberately leaking test must make the sanitizer suite
#      fail, or the sanitizer setup is not working;
#   4. the ThreadSanitizer build of `lit` and the tests of the server's
#      threads (the event loop and its workers: cli_serve plays a game of
#      experts and asks for reviews; hubs_threads runs two hubs sharing
#      their counts on two threads; cli_loops a server of two event loops;
#      cli_threads the exact count on two threads),
#      halting at the first race;
#   5. the libFuzzer targets, each for a bounded time (FUZZ_SECONDS, default 12).
# The builds of steps 2 to 5 run in the background at the lowest priority
# while the tests before them run (the sanitizer build during the normal
# suite, the others during the sanitizer suite): they take the cores the
# tests leave idle while they wait on sockets, processes and a browser,
# and the tests keep the cores they use (docs/BENCHMARKS.md "The test
# suite"). A build's output is in build/<name>.log, shown when it fails.
# The fuzz targets run beside the ThreadSanitizer tests.
# Prints "N passed, N failed" at the end and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh && scripts/test_tools.sh --browser || exit 1

passed=0
failed=0
step() {
  local name=$1
  shift
  echo "== $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "!! $name FAILED"
    failed=$((failed + 1))
  fi
}

export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
jobs=$(nproc 2>/dev/null || echo 2)

# Background builds: later NAME CMD... starts CMD at the lowest priority,
# its output in build/NAME.log; built NAME waits for it (or, when it was
# never started, runs it now) and fails, showing the log, when it failed.
declare -A later_pid
later() {
  local name=$1
  shift
  mkdir -p build
  (renice -n 19 -p "$BASHPID" >/dev/null && "$@") >"build/$name.log" 2>&1 &
  later_pid[$name]=$!
}
built() {
  local name=$1 rc=0
  shift
  if [ -n "${later_pid[$name]:-}" ]; then
    wait "${later_pid[$name]}" || rc=$?
    unset "later_pid[$name]"
  else
    "$@" >"build/$name.log" 2>&1 || rc=$?
  fi
  [ "$rc" -eq 0 ] || { cat "build/$name.log"; echo "$name: the build failed"; }
  return "$rc"
}

build_sanitized() {
  scripts/build.sh build/asan -DCMAKE_BUILD_TYPE=Debug -DLIT_SANITIZE=ON -DLIT_TESTS=ON
}
build_canary() {
  cmake -S . -B build/canary -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLIT_SANITIZE=ON -DLIT_TESTS=ON \
    -DLIT_CANARY=ON && cmake --build build/canary --target test_canary
}
build_threads() {
  cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIT_SANITIZE_THREAD=ON \
    -DLIT_TESTS=ON && cmake --build build/tsan --target lit hubs_threads
}
build_fuzz() {
  CC=clang cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIT_FUZZ=ON &&
    cmake --build build/fuzz --target fuzz_notation fuzz_actions fuzz_infer fuzz_hub fuzz_botline
}

normal() {
  scripts/build.sh build/release -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIT_TESTS=ON || return 1
  later sanitized build_sanitized
  ctest --test-dir build/release --output-on-failure -j "$jobs"
}

sanitized() {
  built sanitized build_sanitized || return 1
  later canary build_canary
  later threads build_threads
  later fuzz build_fuzz
  ctest --test-dir build/asan --output-on-failure -j "$jobs"
}

canary() {
  built canary build_canary || return 1
  if ctest --test-dir build/canary -R '^test_canary$' >/dev/null 2>&1; then
    echo "canary: a leaking test passed: the sanitizer setup does not catch leaks"
    return 1
  fi
  echo "canary: the deliberate leak failed the sanitizer suite, as it must"
}

# The fuzz targets run (for a fixed time, a core each) beside the
# ThreadSanitizer tests, which mostly wait on sockets: started here, their
# report in build/fuzzing.log, shown by the fuzz step.
fuzzing_pid=""
threads() {
  built fuzz build_fuzz && { scripts/fuzz.sh build/fuzz "${FUZZ_SECONDS:-12}" \
    >build/fuzzing.log 2>&1 & fuzzing_pid=$!; }
  built threads build_threads || return 1
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir build/tsan --output-on-failure -R '^(cli_serve|hubs_threads|cli_loops|cli_threads)$'
}

fuzz() {
  [ -n "$fuzzing_pid" ] || { echo "fuzz: the build failed (its log is above)"; return 1; }
  local rc=0
  wait "$fuzzing_pid" || rc=$?
  cat build/fuzzing.log
  return "$rc"
}

step "normal build and tests" normal
step "sanitizer build and tests" sanitized
step "sanitizer canary" canary
step "thread sanitizer: the server's threads" threads
step "fuzz targets" fuzz

echo
echo "test steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
