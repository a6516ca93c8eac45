#!/bin/sh
# Entry point of the Agora image: one image, every process. Which one runs is chosen by the first
# argument (Docker CMD, compose `command:`, Kubernetes `args:`) or, when there is none, by the
# SERVICE environment variable; with neither, standalone mode runs.
#
#   docker run agora gateway          # dist/gateway.js (built from services/gateway/src/main.ts)
#   docker run -e SERVICE=social agora
#   docker run -v agora-data:/app/data -p 8080:8080 agora    # standalone (everything in one process)
#   docker run --env-file cluster.env agora ensure-bucket     # one-shot: create S3_BUCKET, exit
#   docker run --env-file cluster.env agora backup-now        # one-shot: a backup, exit 0 when done
#
# Further arguments are passed to the entry file. The image runs the compiled JavaScript of
# dist/ (scripts/build.ts, built in the image's build stage), with source maps for stack traces.
set -eu

if [ "$#" -gt 0 ]; then
  service=$1
  shift
else
  service=${SERVICE:-standalone}
fi

case "$service" in
  gateway | social | admin | federation | notifications | backup | standalone | ensure-bucket | backup-now) ;;
  *)
    echo "docker-entrypoint: unknown service '$service'" >&2
    echo "expected one of: gateway social admin federation notifications backup standalone ensure-bucket backup-now" >&2
    exit 64
    ;;
esac

cd "$(dirname "$0")/.."
# As scripts/start.sh: small young generation, old generation grown by half, two malloc
# arenas with fixed trim and mmap thresholds (docs/performance.md).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-131072}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
exec node --max-semi-space-size=8 --heap-growing-percent=50 "dist/$service.js" "$@"
