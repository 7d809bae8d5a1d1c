// etcd for the test control plane. Debian's etcd (3.4) is too old for a current kube-apiserver
// and etcd publishes no module with a main package, so this calls the server's own entry point.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
