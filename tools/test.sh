#!/usr/bin/env bash
# The one test command (README, .ci/run): typecheck + bundle, lint, then every project's tests,
# ending with one summary line over all projects: "N passed, N failed".
set -uo pipefail
export NX_NO_CLOUD=true NX_DAEMON=false NX_TUI=false
# Each phase's wall time, printed as it ends and again in the summary (where CI's minutes go), with how busy the
# machine's cores were meanwhile (/proc/stat, every process: the servers too). A phase near 100 % is bound by CPU, and
# only less work shortens it; one well under has idle cores that running more at once would use.
phases=""
phase_start=$SECONDS
# The machine's jiffies: "busy total" (idle and I/O wait are the not busy).
cpu_jiffies() { awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat 2>/dev/null; }
phase_cpu=$(cpu_jiffies)
phase_done() {
  local took=$((SECONDS - phase_start)) now busy=""
  now=$(cpu_jiffies)
  if [ -n "$now" ] && [ -n "$phase_cpu" ]; then
    busy=$(echo "$phase_cpu $now" | awk '{ d = $4 - $2; if (d > 0) printf " (cores %d %% busy)", 100 * ($3 - $1) / d }')
  fi
  echo "[test] $1: ${took} s$busy"
  phases="$phases $1 ${took}s$busy,"
  phase_start=$SECONDS
  phase_cpu=$now
}
# What the tests need beyond npm, installed here so that `npm ci && npm test` passes on a fresh machine (.ci/run too).
bash tools/test-prerequisites.sh || exit 1
phase_done prerequisites
# The whole repository type-checked in one program per set of compiler options and every app bundled (tools/build-all.mjs):
# the same checks as every project's typecheck target, without re-checking each library once per project that imports it.
# Lint runs beside the build: each is mostly one process on one core, so together they take little more than the
# longer one (47 to 55 s on 1 December's machine, against 63 s one after the other); ESLint's findings are printed once
# the build has ended.
lint_log=$(mktemp)
bash tools/lint.sh > "$lint_log" 2>&1 &
lint_pid=$!
node tools/build-all.mjs || { kill "$lint_pid" 2>/dev/null; rm -f "$lint_log"; exit 1; }
wait "$lint_pid"
lint_status=$?
cat "$lint_log"
rm -f "$lint_log"
[ "$lint_status" -eq 0 ] || exit 1
phase_done "build and lint"
log=$(mktemp)
# Every project's own suites, three projects at a time (tools/test-projects.sh), each isolated by its own database, bus
# prefix and key prefix. Then the five-process e2e suite alone, as its kill -9 and scale-out tests start whole stacks.
# The bundles the viewer and e2e tests run were built above.
bash tools/test-projects.sh 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
phase_done projects
node node_modules/jest/bin/jest.js -c apps/e2e/jest.config.cjs --ci 2>&1 | tee -a "$log"
e2e_status=${PIPESTATUS[0]}
phase_done e2e
[ "$status" -eq 0 ] && status=$e2e_status
sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '
  /^Tests:/ { for (i = 2; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^skipped/) s += $i } }
  END { printf "\nsummary: %d passed, %d failed, %d skipped\n", p, f, s }'
echo "phases:${phases%,}"
rm -f "$log"
exit "$status"
