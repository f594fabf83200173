#!/usr/bin/env bash
# Lints every project in one ESLint process (npm run lint, npm test): each file under its own project's
# eslint.config.mjs (the config lookup ESLint 10 makes the default), the same files and findings as nx's lint target
# per project, without starting ESLint 28 times (85 s on a fresh clone here, against 18 s).
# @nx/enforce-module-boundaries reads nx's cached project graph and skips itself, with a warning only, when there is
# none (a fresh clone): the graph is computed first.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_NO_CLOUD=true NX_DAEMON=false
npx nx show projects > /dev/null
exec npx eslint --flag v10_config_lookup_from_file apps libs "$@"
