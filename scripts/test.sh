#!/usr/bin/env bash
# `npm test`: installs/starts every tool and service the suite needs, then runs every tier.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"

[[ "$(node -v)" == v24.* ]] || die "expected Node 24 from node_modules/.bin (run through npm: npm test); got $(node -v)"

source scripts/infra/run-services.sh

log "type-checking"
npx tsc -p tsconfig.json
log "running jest"
npx jest --maxWorkers=2 "$@"
