#!/usr/bin/env bash
# The one test command (README, .ci/run): typecheck + bundle, lint, then every project's tests.
set -euo pipefail
export NX_NO_CLOUD=true NX_DAEMON=false NX_TUI=false
npx nx run-many -t build lint --outputStyle=static
npx nx run-many -t test --outputStyle=static --parallel=1 -- --ci
