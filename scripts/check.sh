#!/usr/bin/env bash
# The static checks CI runs before any test (`npm test` calls this first; `npm run check` alone).
# Cheapest first so a formatting slip fails in seconds: Prettier, generated docs, the type
# check, then ESLint (type-aware, the slowest). Any failure stops the run.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '[check] %s\n' "$*" >&2; }

step "prettier --check"
npx prettier --check --log-level warn .
step "generated docs are current (docs/configuration.md)"
npx tsx scripts/gen-config-docs.ts --check
step "generated API types are current (web/src/api/schema.d.ts from GET /openapi.json)"
npx tsx scripts/gen-api-types.ts --check
step "Kubernetes manifests render and validate offline (deploy/k8s)"
bash scripts/infra/kustomize.sh
npx tsx scripts/check-manifests.ts
step "type-checking (tsc)"
npx tsc -p tsconfig.json --noEmit
npx tsc -p web/tsconfig.json --noEmit
step "eslint"
npx eslint --max-warnings 0 .
step "static checks passed"
