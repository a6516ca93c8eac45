#!/usr/bin/env bash
# `npm run cluster`: the deploy/k8s cluster on this machine (docs/operations.md, "The cluster on
# one machine"): every service and the backup worker as its own process from dist/, two replicas
# of the gateway, social, federation and notifications, a balancer in front of the gateways on
# PORT (default 8080), the local Redis and RabbitMQ (started if installed and stopped), the
# gofakes3 S3 server on a free port, and one SQLite file in a temporary directory. Ctrl-C stops
# it (SIGTERM to every process, gateways first); nothing it stored is kept.
source "$(dirname "$0")/infra/common.sh"
cd "$ROOT"
[[ "$(node -v)" == v24.* ]] || die "expected Node 24 from node_modules/.bin (run through npm: npm run cluster); got $(node -v)"
bash scripts/infra/s3.sh
bash scripts/infra/services.sh redis rabbitmq
bash scripts/infra/web.sh
node --import tsx scripts/build.ts --if-stale

RUN_DIR="$(mktemp -d "$TOOLS/run/cluster-XXXXXX")"
S3_PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
"$TOOLS/bin/gofakes3" -backend memory -host "127.0.0.1:$S3_PORT" >"$RUN_DIR/s3.log" 2>&1 &
S3_PID=$!
trap 'kill "$S3_PID" 2>/dev/null || true; rm -rf "$RUN_DIR"' EXIT
wait_port 127.0.0.1 "$S3_PORT" 30 || { cat "$RUN_DIR/s3.log"; die "gofakes3 did not start"; }

export TEST_S3_ENDPOINT="http://127.0.0.1:$S3_PORT"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
node --import tsx scripts/cluster.ts
