#!/usr/bin/env bash
# What the tests need beyond `npm ci`, checked before any test runs (tools/test.sh, hence `npm test` and .ci/run).
# PostgreSQL, Redis and RabbitMQ are the servers the README names (127.0.0.1); this installs the one program:
# the viewer's browser tests drive Debian's Chromium at /usr/bin/chromium (apps/viewer/test/support/browser.ts).
set -uo pipefail
CHROMIUM=/usr/bin/chromium
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "[test] $CHROMIUM is missing: installing Debian's chromium for the viewer's browser tests (apt-get)"
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && [ -x "$CHROMIUM" ]; then exit 0; fi
  echo "[test] apt-get could not install chromium; install it (apt-get install -y chromium) and run npm test again" >&2
  exit 1
fi
echo "[test] the viewer's browser tests need $CHROMIUM, which is missing: install Debian's chromium package" \
  "(sudo apt-get install -y chromium) and run npm test again; npm test installs it itself when run as root with apt-get" >&2
exit 1
