#!/usr/bin/env bash
# Builds, once per set of versions (scripts/cluster/versions.sh), the binaries of the real
# control plane that `npm run test:cluster` runs, and prints the directory that holds them:
#
#   <cache>/bin/   etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok
#                  agent-sandbox-controller, and agent-sandbox-controller-<previous version>
#   <cache>/share/ kwok's stages, as published in its module
#
# <cache> is ~/.cache/berth-cluster/<versions> (BERTH_CLUSTER_CACHE moves the parent). Everything
# comes from the Go module proxy: there is no download site to reach. Each binary is built to a
# temporary name and renamed, so an interrupted build never leaves a broken binary behind.
# Progress and timings go to stderr; stdout is only the directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.sh
source "$here/versions.sh"
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

key="kubernetes-$KUBERNETES_VERSION.etcd-$ETCD_VERSION.kwok-$KWOK_VERSION.agent-sandbox-$AGENT_SANDBOX_VERSION"
parent="${BERTH_CLUSTER_CACHE:-$HOME/.cache/berth-cluster}"
root="$parent/$key"
bin="$root/bin"
share="$root/share"
mkdir -p "$bin" "$share"

say() { echo "build-control-plane: $*" >&2; }

# The wrapper modules pin their versions in go.mod; refuse to build something other than what
# versions.sh says rather than cache it under the wrong name.
require_pinned() {
  local module_dir=$1 module=$2 version=$3
  if ! grep -qE "^(require )?[[:space:]]*$module $version( |$)" "$module_dir/go.mod"; then
    say "$module_dir/go.mod does not require $module $version (versions.sh says so): update the wrapper module with go get"
    exit 1
  fi
}

built() {
  local name=$1 started=$2
  say "built $name in $(( $(date +%s) - started )) s"
}

# A binary already built for the same version of its component, under another set of versions,
# is copied rather than built again: moving one component to a new version rebuilds only it.
reuse() {
  local name=$1 pattern=$2 other
  [ -x "$bin/$name" ] && return 0
  for other in "$parent"/$pattern/bin/"$name"; do
    [ -x "$other" ] || continue
    cp "$other" "$bin/.$name.tmp" && mv "$bin/.$name.tmp" "$bin/$name"
    say "reused $name from $(basename "$(dirname "$(dirname "$other")")")"
    return 0
  done
}

kubernetes_commands=(kube-apiserver kube-controller-manager kube-scheduler kubectl)
for command in "${kubernetes_commands[@]}"; do reuse "$command" "kubernetes-$KUBERNETES_VERSION.*"; done
reuse etcd "*.etcd-$ETCD_VERSION.*"
reuse kwok "*.kwok-$KWOK_VERSION.*"
reuse agent-sandbox-controller "*.agent-sandbox-$AGENT_SANDBOX_VERSION"
missing=()
for command in "${kubernetes_commands[@]}"; do [ -x "$bin/$command" ] || missing+=("$command"); done
if [ ${#missing[@]} -gt 0 ]; then
  require_pinned "$here/modules/kubernetes" k8s.io/kubernetes "$KUBERNETES_VERSION"
  minor=$(echo "$KUBERNETES_VERSION" | cut -d. -f2)
  # Without these the binaries call themselves v0.0.0-master, and kubectl and Helm's
  # kubeVersion checks see a cluster older than any release.
  ldflags="-s -w"
  for package in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $package.gitVersion=$KUBERNETES_VERSION -X $package.gitMajor=1 -X $package.gitMinor=$minor -X $package.gitTreeState=clean"
  done
  started=$(date +%s)
  say "building ${missing[*]} from k8s.io/kubernetes $KUBERNETES_VERSION (cold: tens of minutes on 2 cores)"
  tmp=$(mktemp -d "$bin/.build.XXXXXX")
  packages=()
  for command in "${missing[@]}"; do packages+=("k8s.io/kubernetes/cmd/$command"); done
  (cd "$here/modules/kubernetes" && go build -trimpath -ldflags "$ldflags" -o "$tmp/" "${packages[@]}")
  for command in "${missing[@]}"; do mv "$tmp/$command" "$bin/$command"; done
  rmdir "$tmp"
  built "${missing[*]}" "$started"
fi

if [ ! -x "$bin/etcd" ]; then
  require_pinned "$here/modules/etcd" go.etcd.io/etcd/server/v3 "$ETCD_VERSION"
  started=$(date +%s)
  say "building etcd $ETCD_VERSION"
  (cd "$here/modules/etcd" && go build -trimpath -ldflags "-s -w" -o "$bin/.etcd.tmp" .)
  mv "$bin/.etcd.tmp" "$bin/etcd"
  built etcd "$started"
fi

# The agent-sandbox controllers, from their wrapper modules (see the comment in each go.mod):
# the release Berth follows, and the oldest it supports, named by its version.
build_agent_sandbox() {
  local name=$1 module_dir=$2 version=$3 started
  [ -x "$bin/$name" ] && return 0
  require_pinned "$module_dir" sigs.k8s.io/agent-sandbox "$version"
  started=$(date +%s)
  say "building $name (agent-sandbox $version)"
  (cd "$module_dir" && go build -trimpath -ldflags "-s -w" -o "$bin/.$name.tmp" sigs.k8s.io/agent-sandbox/cmd/agent-sandbox-controller)
  mv "$bin/.$name.tmp" "$bin/$name"
  built "$name" "$started"
}
previous_controller="agent-sandbox-controller-$AGENT_SANDBOX_PREVIOUS_VERSION"
reuse "$previous_controller" "*"
build_agent_sandbox agent-sandbox-controller "$here/modules/agent-sandbox" "$AGENT_SANDBOX_VERSION"
build_agent_sandbox "$previous_controller" "$here/modules/agent-sandbox-previous" "$AGENT_SANDBOX_PREVIOUS_VERSION"

# kwok builds from its own go.mod, as released.
install_released() {
  local name=$1 package=$2 version=$3
  [ -x "$bin/$name" ] && return 0
  local started tmp
  started=$(date +%s)
  say "building $name from $package@$version"
  tmp=$(mktemp -d "$bin/.build.XXXXXX")
  GOBIN="$tmp" go install -trimpath -ldflags "-s -w" "$package@$version"
  mv "$tmp/$name" "$bin/$name"
  rmdir "$tmp"
  built "$name" "$started"
}
install_released kwok sigs.k8s.io/kwok/cmd/kwok "$KWOK_VERSION"

# The published manifests the control plane applies, read from the same module versions.
module_dir() { (cd "$root" && go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'); }
if [ ! -f "$share/kwok-stages.yaml" ]; then
  stages="$(module_dir sigs.k8s.io/kwok "$KWOK_VERSION")/kustomize/stage"
  # Nodes become Ready and keep a lease; pods go through kwok's general lifecycle (created,
  # init containers, running and Ready, deleted once their deletion is requested).
  for file in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
    pod/general/pod-create.yaml pod/general/pod-init-container-running.yaml pod/general/pod-init-container-completed.yaml \
    pod/general/pod-ready.yaml pod/general/pod-complete.yaml pod/general/pod-delete.yaml; do
    echo "---"
    cat "$stages/$file"
  done > "$share/.kwok-stages.yaml"
  mv "$share/.kwok-stages.yaml" "$share/kwok-stages.yaml"
fi

echo "$root"
