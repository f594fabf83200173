#!/usr/bin/env bash
# The one test command (README, .ci/run): typecheck + bundle, lint, then every project's tests,
# ending with one summary line over all projects: "N passed, N failed".
set -uo pipefail
export NX_NO_CLOUD=true NX_DAEMON=false NX_TUI=false
# Each phase's wall time, printed as it ends and again in the summary (where CI's minutes go).
phases=""
phase_start=$SECONDS
phase_done() { local took=$((SECONDS - phase_start)); echo "[test] $1: ${took} s"; phases="$phases $1 ${took}s,"; phase_start=$SECONDS; }
# What the tests need beyond npm, installed here so that `npm ci && npm test` passes on a fresh machine (.ci/run too).
bash tools/test-prerequisites.sh || exit 1
phase_done prerequisites
# The whole repository type-checked in one program per set of compiler options and every app bundled (tools/build-all.mjs):
# the same checks as every project's typecheck target, without re-checking each library once per project that imports it.
node tools/build-all.mjs || exit 1
phase_done build
bash tools/lint.sh || exit 1
phase_done lint
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
