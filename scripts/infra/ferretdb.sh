#!/usr/bin/env bash
# Builds FerretDB (pinned) from the Go module proxy into .tools/bin; skipped when present.
# `go install` alone yields a binary that panics (no build/version/version.txt), so we build
# from a copy of the module source with that file written.
source "$(dirname "$0")/common.sh"
VERSION=v1.24.2
BIN="$TOOLS/bin/ferretdb"
if [[ -x "$BIN" ]] && [[ "$("$BIN" --version 2>/dev/null || true)" == *"version: $VERSION"* ]]; then exit 0; fi
command -v go >/dev/null || die "the Go toolchain is needed to build FerretDB $VERSION (apt-get install golang or put go on PATH)"
log "building FerretDB $VERSION (first run only, a few minutes)"
export GOFLAGS=-mod=mod
go mod download "github.com/FerretDB/FerretDB@$VERSION"
SRC="$(go env GOMODCACHE)/github.com/!ferret!d!b/!ferret!d!b@$VERSION"
WORK="$TOOLS/src/ferretdb-$VERSION"
rm -rf "$WORK" && mkdir -p "$(dirname "$WORK")" && cp -r "$SRC" "$WORK" && chmod -R u+w "$WORK"
echo "$VERSION" > "$WORK/build/version/version.txt"
(cd "$WORK" && go build -o "$BIN" ./cmd/ferretdb)
rm -rf "$WORK"
[[ "$("$BIN" --version 2>/dev/null || true)" == *"version: $VERSION"* ]] || die "FerretDB build did not produce $VERSION"
log "FerretDB $VERSION ready at $BIN"
