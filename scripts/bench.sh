#!/usr/bin/env bash
# `npm run bench`: starts the same real services as the tests, then runs the benchmarks in
# bench/ side by side (ratios against a baseline measured in the same run). Writes the results
# to stdout; docs/performance.md records them.
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"
[[ "$(node -v)" == v24.* ]] || die "run through npm (npm run bench) so Node 24 is used"
source scripts/infra/run-services.sh
node --import tsx bench/run.ts "$@"
