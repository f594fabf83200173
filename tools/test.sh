#!/usr/bin/env bash
# The one test command (README, .ci/run): typecheck + bundle, lint, then every project's tests,
# ending with one summary line over all projects: "N passed, N failed".
set -uo pipefail
export NX_NO_CLOUD=true NX_DAEMON=false NX_TUI=false
npx nx run-many -t build lint --outputStyle=static || exit 1
log=$(mktemp)
npx nx run-many -t test --outputStyle=static --parallel=1 -- --ci 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '
  /^Tests:/ { for (i = 2; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^skipped/) s += $i } }
  END { printf "\nsummary: %d passed, %d failed, %d skipped\n", p, f, s }'
rm -f "$log"
exit "$status"
