# Shared helpers for the infrastructure scripts. Sourced, never run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="$ROOT/.tools"
mkdir -p "$TOOLS/bin" "$TOOLS/run"

# The Go toolchain may be installed without being on PATH (e.g. /usr/local/go).
for d in /usr/local/go/bin /usr/lib/go/bin "$HOME/go/bin"; do
  [[ -x "$d/go" && ":$PATH:" != *":$d:"* ]] && PATH="$PATH:$d"
done
export PATH

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] ERROR: %s\n' "$*" >&2; exit 1; }

# wait_port HOST PORT SECONDS — poll until a TCP port accepts connections.
wait_port() {
  local host=$1 port=$2 secs=${3:-30} i
  for ((i = 0; i < secs * 10; i++)); do
    if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
