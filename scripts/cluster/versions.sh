# The real control plane `npm run test:cluster` builds from the Go module proxy. One place for
# the versions: the build cache is keyed by all of them; a binary of a component whose version did
# not change is copied from the cache of the set it was built for, so only what changed is rebuilt.
KUBERNETES_VERSION=v1.36.3   # kube-apiserver, kube-controller-manager, kube-scheduler, kubectl
ETCD_VERSION=v3.6.16         # the 3.6 line the apiserver of that release is tested with
KWOK_VERSION=v0.8.0          # simulated nodes and pod lifecycle (no kubelet, no containers)
AGENT_SANDBOX_VERSION=v0.5.6 # the Sandbox CRDs and their controller
AGENT_SANDBOX_PREVIOUS_VERSION=v0.5.3 # the oldest release Berth supports: the driver suite runs against it too
EXTERNAL_SNAPSHOTTER_VERSION=v8.7.0 # the CSI snapshot CRDs the embedded cluster serves
