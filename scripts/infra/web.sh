#!/usr/bin/env bash
# Builds the web app (web/ → web/dist) when its output is missing or older than any of its
# sources, so `npm start` and `npm test` on a fresh clone serve the real app. Fails when the
# first-load JS budget (web/build/budget.ts) is exceeded. NODE_ENV is forced: under jest it is
# `test`, which would bundle React's development build.
source "$(dirname "$0")/common.sh"
cd "$ROOT"
out=web/dist/index.html
sources=(web/src web/public web/index.html web/vite.config.ts web/build web/package.json web/tsconfig.json package-lock.json)
if [[ -f "$out" && -z "$(find "${sources[@]}" -newer "$out" -print -quit 2>/dev/null)" ]]; then
  exit 0
fi
log "building the web app (web/ → web/dist)"
(cd web && NODE_ENV=production VITE_CONFIG_NATIVE_IGNORE_WARNING=true "$ROOT/node_modules/.bin/vite" build --logLevel warn) || die "the web build failed"
