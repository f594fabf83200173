#!/usr/bin/env bash
# What the tests need beyond `npm ci`, checked before any test runs (tools/test.sh, hence `npm test` and .ci/run).
# PostgreSQL, Redis and RabbitMQ are the servers the README names (127.0.0.1); this installs the one program:
# the viewer's browser tests drive Debian's headless Chromium at /usr/bin/chromium-headless-shell (its package
# chromium-headless-shell; apps/viewer/test/support/browser.ts).
set -uo pipefail
CHROMIUM=/usr/bin/chromium-headless-shell
PACKAGE=chromium-headless-shell
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "[test] $CHROMIUM is missing: installing Debian's $PACKAGE for the viewer's browser tests (apt-get)"
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$PACKAGE" >/dev/null && [ -x "$CHROMIUM" ]; then exit 0; fi
  echo "[test] apt-get could not install $PACKAGE; install it (apt-get install -y $PACKAGE) and run npm test again" >&2
  exit 1
fi
echo "[test] the viewer's browser tests need $CHROMIUM, which is missing: install Debian's $PACKAGE package" \
  "(sudo apt-get install -y $PACKAGE) and run npm test again; npm test installs it itself when run as root with apt-get" >&2
exit 1
