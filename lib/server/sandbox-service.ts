import { discoverSandboxApi } from "../kube/cluster-connection.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import type { CreateSandboxDeps } from "../sandboxes/create-sandbox.ts";
import { ClusterUnavailableError } from "./api-route.ts";
import type { Runtime } from "./runtime.ts";

// What the lifecycle service needs from the runtime. The served Sandbox version is discovered
// once it can be, and again while the cluster has none (CRDs may be installed later).

const cachedVersion = new WeakMap<Runtime, Promise<CreateSandboxDeps>>();

export function sandboxServiceDeps(runtime: Runtime): Promise<CreateSandboxDeps> {
  let deps = cachedVersion.get(runtime);
  if (!deps) {
    deps = (async () => {
      const discovery = await discoverSandboxApi(runtime.cluster.connection);
      if (!discovery.ok) throw new ClusterUnavailableError(discovery.message);
      return {
        store: runtime.store,
        resources: sandboxResources(runtime.cluster.connection, discovery.version),
        sandboxApiVersion: discovery.version,
        defaults: runtime.config.gateway,
      };
    })();
    deps.catch(() => cachedVersion.delete(runtime));
    cachedVersion.set(runtime, deps);
  }
  return deps;
}
