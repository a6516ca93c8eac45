#!/usr/bin/env bash
# `npm start`: standalone mode, everything in one process on PORT (default 8080), data in ./data.
# Runs the compiled bundle (dist/standalone.js, scripts/build.ts); rebuilds it first when it is
# missing or older than a source (a second or two), so an edit is never served stale.
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"
[[ "$(node -v)" == v24.* ]] || die "expected Node 24 from node_modules/.bin (run through npm: npm start); got $(node -v)"
bash scripts/infra/web.sh
node --import tsx scripts/build.ts --if-stale
# Memory after a burst of load (docs/performance.md, "Memory after the load"): V8's young
# generation held to 8 MB semi-spaces (it grew to 64 MB ones under load and stayed until V8's
# memory reducer ran) and glibc to two malloc arenas. deploy/ sets the same.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node --max-semi-space-size=8 dist/standalone.js
