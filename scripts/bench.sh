#!/usr/bin/env bash
# `npm run bench`: starts the same real services as the tests, then runs the benchmarks in
# bench/ side by side (ratios against a baseline measured in the same run). Writes the results
# to stdout; docs/performance.md records them.
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"
[[ "$(node -v)" == v24.* ]] || die "run through npm (npm run bench) so Node 24 is used"
if [[ "${1:-}" == --scale ]]; then
  # The embedded default only: the standalone process keeps SQLite in-process.
  shift
  exec node --import tsx bench/scale.ts "$@"
fi
if [[ "${1:-}" == --threads ]]; then
  # Thread pages and replies on the embedded default, with a large replies collection.
  shift
  exec node --import tsx bench/threads.ts "$@"
fi
source scripts/infra/run-services.sh
node --import tsx bench/run.ts "$@"
