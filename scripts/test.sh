#!/usr/bin/env bash
# `npm test`: installs/starts every tool and service the suite needs, then runs every tier.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"

[[ "$(node -v)" == v24.* ]] || die "expected Node 24 from node_modules/.bin (run through npm: npm test); got $(node -v)"

# Lint, formatting, generated docs and the type check fail the run before any service starts.
# SKIP_STATIC_CHECKS=1 skips them while iterating on one test file; CI never sets it.
if [[ "${SKIP_STATIC_CHECKS:-}" == 1 ]]; then
  log "static checks skipped (SKIP_STATIC_CHECKS=1)"
else
  bash scripts/check.sh
fi

if [[ "${TEST_PROVIDER:-local}" == containers ]]; then
  # MongoDB 7, Redis, RabbitMQ and S3 from testcontainers (needs a Docker engine).
  bash scripts/infra/ferretdb.sh # the DB-outage test still spawns its own FerretDB
  export FERRETDB_BIN="$TOOLS/bin/ferretdb"
  coproc CONTAINERS { node --import tsx test/harness/containers.ts; }
  trap 'kill "$CONTAINERS_PID" 2>/dev/null || true' EXIT INT TERM
  while read -r line <&"${CONTAINERS[0]}"; do
    [[ "$line" == READY ]] && break
    export "${line?}"
  done
else
  source scripts/infra/run-services.sh
fi

bash scripts/infra/chromium.sh
bash scripts/infra/kustomize.sh # test/integration/deploy renders deploy/k8s with it
bash scripts/infra/web.sh
# The processes tier runs the compiled entry points (dist/), as the image does; build them once
# here so no test file rebuilds dist/ while another one runs from it.
node --import tsx scripts/build.ts --if-stale
log "running jest"
npx jest --maxWorkers=2 "$@"
