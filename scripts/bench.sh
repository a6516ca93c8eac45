#!/usr/bin/env bash
# `npm run bench`: starts the same real services as the tests, then runs the benchmarks in
# bench/ side by side (ratios against a baseline measured in the same run). Writes the results
# to stdout; docs/performance.md records them.
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"
[[ "$(node -v)" == v24.* ]] || die "run through npm (npm run bench) so Node 24 is used"
if [[ "${1:-}" == --scale ]]; then
  # The embedded default (SQLite in-process); with --mongo also the MongoDB adapter on a
  # FerretDB-PostgreSQL of this run.
  shift
  if [[ " $* " == *" --mongo "* ]]; then source scripts/infra/run-services.sh; fi
  node --import tsx bench/scale.ts "$@"
  exit
fi
if [[ "${1:-}" == --threads ]]; then
  # Thread pages and replies on the embedded default, with a large replies collection.
  shift
  exec node --import tsx bench/threads.ts "$@"
fi
if [[ "${1:-}" == --federation ]]; then
  # Fan-out to 1,000 follower inboxes on 100 fake peers, and the inbox's accepted activities per
  # second, against the embedded default (SQLite in-process, no other service needed).
  shift
  exec node --import tsx bench/federation.ts "$@"
fi
source scripts/infra/run-services.sh
if [[ "${1:-}" == --cluster ]]; then
  # The cluster of `npm run cluster` beside standalone in one run: POST /outbox and a circle
  # timeline at the same connections (this run's Redis, RabbitMQ and S3 for the cluster).
  node --import tsx bench/cluster.ts "$@"
  exit
fi
node --import tsx bench/run.ts "$@"
