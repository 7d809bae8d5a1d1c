#!/usr/bin/env bash
# Prints the path of a helm binary, building it once from its Go module (cached by version
# outside the repo). There is no download site here: only the Go module proxy.
set -euo pipefail
VERSION=v3.22.0
DIR="${XDG_CACHE_HOME:-$HOME/.cache}/berth-tools/helm-$VERSION"
# Go lives in /usr/local/go on the machines Berth is built on; a shell may not have it on PATH.
command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"
if [ ! -x "$DIR/helm" ]; then
  mkdir -p "$DIR"
  echo "Building helm $VERSION from helm.sh/helm/v3 (once; cached in $DIR)" >&2
  GOBIN="$DIR" go install "helm.sh/helm/v3/cmd/helm@$VERSION" >&2
fi
echo "$DIR/helm"
