#!/usr/bin/env bash
# Makes sure the local Redis, RabbitMQ and PostgreSQL servers answer, starting installed but
# stopped ones. Fails with a message naming what is missing.
source "$(dirname "$0")/common.sh"

ensure_redis() {
  port_open 127.0.0.1 6379 && return 0
  command -v redis-server >/dev/null || die "Redis is not running on 127.0.0.1:6379 and redis-server is not installed (apt-get install redis-server)"
  log "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir "${TMPDIR:-/tmp}" --logfile "$TOOLS/run/redis.log"
  wait_port 127.0.0.1 6379 20 || die "Redis did not start (see $TOOLS/run/redis.log)"
}

ensure_rabbitmq() {
  port_open 127.0.0.1 5672 && return 0
  command -v rabbitmq-server >/dev/null || die "RabbitMQ is not running on 127.0.0.1:5672 and rabbitmq-server is not installed (apt-get install rabbitmq-server)"
  log "starting RabbitMQ"
  rabbitmq-server -detached || true
  # await_startup can return before 5672 accepts connections: poll the port.
  wait_port 127.0.0.1 5672 90 || die "RabbitMQ did not open port 5672"
}

ensure_postgres() {
  port_open 127.0.0.1 5432 && return 0
  command -v pg_ctlcluster >/dev/null || die "PostgreSQL is not running on 127.0.0.1:5432 and is not installed (apt-get install postgresql)"
  log "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  wait_port 127.0.0.1 5432 30 || die "PostgreSQL did not start"
}

for s in "$@"; do "ensure_$s"; done
