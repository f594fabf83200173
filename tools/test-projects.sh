#!/usr/bin/env bash
# Every project's own suites (unit, component, integration; the viewer's browser tests), all but the five-process e2e
# suite: `npm test` (tools/test.sh) on the pinned Node 24, and .ci/run's pass on Node 26 (its binary as $1; the apps'
# component, integration and browser suites left out there by TEST_PATH_IGNORE).
# Each project in a jest of its own (its own isolation, as `nx test <project>` runs it), TEST_PARALLEL of them at a
# time (default 3: most suites wait on PostgreSQL, RabbitMQ and timers more than they compute), the longest projects
# first (below), so that none of them finishes alone at the end. jest is
# started directly, not through nx run-many: on this 2-core machine nx's task runner cost about 85 s of the phase
# (265 s started directly against 350 s through nx, on a fresh clone). Each project's output is printed whole when it
# ends; the exit status is 1 when any project failed. TEST_PROJECTS overrides the list (paths with a jest.config.cjs);
# TEST_PATH_IGNORE, a regular expression, leaves out the suites whose paths match it (jest's --testPathIgnorePatterns).
set -uo pipefail
cd "$(dirname "$0")/.."
node_bin=${1:-node}
parallel=${TEST_PARALLEL:-3}
projects=${TEST_PROJECTS:-$(ls -d libs/*/ apps/*/ | sed 's:/$::' | grep -v '^apps/e2e$')}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The projects that take longest start first, whatever their number of files: on the quiet CI run of 1 December the
# viewer (21 files, but six headless-Chromium suites: 304 s) started only after five projects with more files and ended
# the phase alone. Then the rest, the most test files first.
longest="apps/datafile-service apps/viewer apps/simulation-service apps/gateway"
ordered=$( (for project in $longest; do for p in $projects; do [ "$p" = "$project" ] && echo "$project"; done; done
  for project in $projects; do
    case " $longest " in *" $project "*) continue ;; esac
    [ -f "$project/jest.config.cjs" ] && echo "$(find "$project" -name '*.test.ts' -not -path '*/node_modules/*' | wc -l) $project"
  done | sort -k1,1nr -k2 | cut -d' ' -f2) | grep .)

status=0
running=0
# `times`'s children line (`0m12.345s 0m1.234s`) as whole seconds: "13 s user, 1 s system".
cpu_of() {
  local user system
  read -r user system < <(tail -1 "$out/${1//\//_}.cpu" 2>/dev/null) && [ -n "$system" ] || { echo "unknown"; return; }
  seconds() { local m=${1%%m*} s=${1#*m}; s=${s%s}; echo $(( 10#$m * 60 + 10#${s%.*} )); }
  echo "$(seconds "$user") s user, $(seconds "$system") s system"
}
finish_one() {
  wait -n -p done_pid
  local code=$?
  local project=${pids[$done_pid]}
  cat "$out/${project//\//_}.log"
  # Each project's wall time (where the phase's minutes go; three run at once, so they add up to more than the phase).
  echo "[test] $project: $((SECONDS - ${started[$done_pid]})) s (CPU $(cpu_of "$project"))"
  [ "$code" -eq 0 ] || { status=1; echo "[test] $project failed (exit $code)"; }
  running=$((running - 1))
}
declare -A pids started
for project in $ordered; do
  [ "$running" -ge "$parallel" ] && finish_one
  # In a subshell whose `times` (its children's user and system CPU: jest, its workers and every process they waited
  # for, not the servers' own) ends the log: the phase is bound by CPU, so what a project costs is its CPU, not its wall time.
  (
    "$node_bin" node_modules/jest/bin/jest.js -c "$project/jest.config.cjs" --ci ${TEST_PATH_IGNORE:+--testPathIgnorePatterns "$TEST_PATH_IGNORE"}
    code=$?
    times > "$out/${project//\//_}.cpu"
    exit "$code"
  ) > "$out/${project//\//_}.log" 2>&1 &
  pids[$!]=$project
  started[$!]=$SECONDS
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do finish_one; done
exit "$status"
