import { discoverSandboxApi } from "../kube/cluster-connection.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import type { ActionDeps } from "../sandboxes/sandbox-actions.ts";
import { ClusterUnavailableError } from "./api-route.ts";
import type { Runtime } from "./runtime.ts";

// What the lifecycle service needs from the runtime. The served Sandbox version is discovered
// once it can be, and again while the cluster has none (CRDs may be installed later).

const cachedDeps = new WeakMap<Runtime, Promise<ActionDeps>>();

export function sandboxServiceDeps(runtime: Runtime): Promise<ActionDeps> {
  let deps = cachedDeps.get(runtime);
  if (!deps) {
    deps = (async () => {
      const discovery = await discoverSandboxApi(runtime.cluster.connection);
      if (!discovery.ok) throw new ClusterUnavailableError(discovery.message);
      return {
        store: runtime.store,
        connection: runtime.cluster.connection,
        resources: sandboxResources(runtime.cluster.connection, discovery.version),
        sandboxApiVersion: discovery.version,
        defaults: runtime.config.gateway,
        inFlight: runtime.inFlight,
        live: runtime.live,
        checkpointing: runtime.checkpointing,
      };
    })();
    deps.catch(() => cachedDeps.delete(runtime));
    cachedDeps.set(runtime, deps);
  }
  return deps;
}
