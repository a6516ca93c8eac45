#!/usr/bin/env bash
# Builds gofakes3 (pinned), the S3-compatible server used by tests and docker-less development.
# See docs/adr/0002-s3-test-server.md for why this one.
source "$(dirname "$0")/common.sh"
VERSION=v1.2.0
BIN="$TOOLS/bin/gofakes3"
STAMP="$TOOLS/bin/.gofakes3-$VERSION"
if [[ -x "$BIN" && -f "$STAMP" ]]; then exit 0; fi
command -v go >/dev/null || die "the Go toolchain is needed to build gofakes3 $VERSION"
log "building gofakes3 $VERSION"
GOBIN="$TOOLS/bin" go install "github.com/johannesboyne/gofakes3/cmd/gofakes3@$VERSION"
touch "$STAMP"
