#!/usr/bin/env bash
# Builds kustomize (pinned) from the Go module proxy into .tools/bin; skipped when present. The
# manifests check (scripts/check-manifests.ts) renders deploy/k8s with it, as `kubectl apply -k`
# would (kubectl embeds the same kustomize), so neither kubectl nor a cluster is needed.
source "$(dirname "$0")/common.sh"
VERSION=v5.5.0
BIN="$TOOLS/bin/kustomize"
if [[ -x "$BIN" ]] && [[ "$("$BIN" version 2>/dev/null || true)" == "$VERSION" ]]; then exit 0; fi
command -v go >/dev/null || die "the Go toolchain is needed to build kustomize $VERSION (apt-get install golang or put go on PATH)"
log "building kustomize $VERSION (first run only, a minute or two)"
export GOFLAGS=-mod=mod
GOBIN="$TOOLS/bin" go install \
  -ldflags "-X sigs.k8s.io/kustomize/api/provenance.version=$VERSION" \
  "sigs.k8s.io/kustomize/kustomize/v5@$VERSION"
[[ "$("$BIN" version 2>/dev/null || true)" == "$VERSION" ]] || die "kustomize build did not produce $VERSION (got: $("$BIN" version 2>&1 || true))"
log "kustomize $VERSION ready at $BIN"
