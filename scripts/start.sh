#!/usr/bin/env bash
# `npm start`: standalone mode, everything in one process on PORT (default 8080), data in ./data.
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"
[[ "$(node -v)" == v24.* ]] || die "expected Node 24 from node_modules/.bin (run through npm: npm start); got $(node -v)"
if [[ -z "${MONGO_URL:-}" ]]; then bash scripts/infra/ferretdb.sh; fi
export FERRETDB_BIN="${FERRETDB_BIN:-$TOOLS/bin/ferretdb}"
exec node --import tsx standalone/src/main.ts
