#!/usr/bin/env bash
# `npm start`: standalone mode, everything in one process on PORT (default 8080), data in ./data.
# Runs the compiled bundle (dist/standalone.js, scripts/build.ts); rebuilds it first when it is
# missing or older than a source (a second or two), so an edit is never served stale.
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"
[[ "$(node -v)" == v24.* ]] || die "expected Node 24 from node_modules/.bin (run through npm: npm start); got $(node -v)"
bash scripts/infra/web.sh
node --import tsx scripts/build.ts --if-stale
# Memory after a burst of load (docs/performance.md, "Memory after the load" and issue 22's
# 2026-11-27 evening section): V8's young generation held to 8 MB semi-spaces; its old
# generation let grow to 1.5 × what the last full collection kept (V8's default is up to 4 ×:
# under load the old space filled with garbage to about 120 MB before a collection, and the
# pages stayed committed after it); glibc held to two malloc arenas, with fixed trim and mmap
# thresholds of 128 KB (glibc raises them as large blocks are freed, and the freed memory then
# stays in the arenas). deploy/ sets the same.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-131072}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
exec node --max-semi-space-size=8 --heap-growing-percent=50 dist/standalone.js
