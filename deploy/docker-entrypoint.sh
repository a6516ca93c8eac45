#!/bin/sh
# Entry point of the Agora image: one image, every process. Which one runs is chosen by the first
# argument (Docker CMD, compose `command:`, Kubernetes `args:`) or, when there is none, by the
# SERVICE environment variable; with neither, standalone mode runs.
#
#   docker run agora gateway          # services/gateway/src/main.ts
#   docker run -e SERVICE=social agora
#   docker run -v agora-data:/app/data -p 8080:8080 agora    # standalone (everything in one process)
#
# Further arguments are passed to the entry file. TypeScript runs directly through tsx (no build
# step), the same way `npm start` and the tests run it.
set -eu

if [ "$#" -gt 0 ]; then
  service=$1
  shift
else
  service=${SERVICE:-standalone}
fi

case "$service" in
  gateway | social | admin | federation | notifications | backup)
    entry="services/$service/src/main.ts"
    ;;
  standalone)
    entry="standalone/src/main.ts"
    ;;
  *)
    echo "docker-entrypoint: unknown service '$service'" >&2
    echo "expected one of: gateway social admin federation notifications backup standalone" >&2
    exit 64
    ;;
esac

cd "$(dirname "$0")/.."
exec node --import tsx "$entry" "$@"
