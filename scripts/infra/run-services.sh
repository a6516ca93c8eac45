# Sourced by test.sh and bench.sh (after common.sh): builds the tools, makes sure Redis,
# RabbitMQ and PostgreSQL answer, starts a FerretDB on a fresh PostgreSQL database and an S3
# server for this run on free ports, exports TEST_* URLs, and stops everything on exit.
bash "$ROOT/scripts/infra/ferretdb.sh"
bash "$ROOT/scripts/infra/s3.sh"
bash "$ROOT/scripts/infra/services.sh" redis rabbitmq postgres

RUN_DIR="$TOOLS/run/test-$$"
mkdir -p "$RUN_DIR"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$RUN_DIR"
}
trap cleanup EXIT INT TERM

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# A fresh PostgreSQL database behind FerretDB for this run.
PGDB="agora_test_$$"
psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $PGDB" -c "CREATE DATABASE $PGDB" >/dev/null
cleanup_db() { psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" >/dev/null 2>&1 || true; }
trap 'cleanup; cleanup_db' EXIT INT TERM

MONGO_PORT=$(free_port)
"$TOOLS/bin/ferretdb" --handler=postgresql --postgresql-url="postgres://postgres@127.0.0.1:5432/$PGDB" \
  --listen-addr="127.0.0.1:$MONGO_PORT" --state-dir="$RUN_DIR" --debug-addr=- --telemetry=disable \
  --log-level=error >"$RUN_DIR/ferretdb.log" 2>&1 &
PIDS+=($!)
S3_PORT=$(free_port)
"$TOOLS/bin/gofakes3" -backend memory -host "127.0.0.1:$S3_PORT" >"$RUN_DIR/s3.log" 2>&1 &
PIDS+=($!)
wait_port 127.0.0.1 "$MONGO_PORT" 30 || { cat "$RUN_DIR/ferretdb.log"; die "FerretDB did not start"; }
wait_port 127.0.0.1 "$S3_PORT" 30 || { cat "$RUN_DIR/s3.log"; die "gofakes3 did not start"; }

export TEST_MONGO_URL="mongodb://127.0.0.1:$MONGO_PORT/"
export TEST_REDIS_URL="redis://127.0.0.1:6379"
export TEST_AMQP_URL="amqp://guest:guest@127.0.0.1:5672"
export TEST_S3_ENDPOINT="http://127.0.0.1:$S3_PORT"
export FERRETDB_BIN="$TOOLS/bin/ferretdb"
export PG_URL="postgres://postgres@127.0.0.1:5432"
export TEST_POSTGRES_URL="$PG_URL/$PGDB" # the database behind TEST_MONGO_URL (FerretDB's PostgreSQL handler)

