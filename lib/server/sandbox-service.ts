import { discoverSandboxApi, type ClusterConnection } from "../kube/cluster-connection.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import { effectiveGatewayDefaults } from "../sandboxes/gateway-settings.ts";
import type { ActionDeps } from "../sandboxes/sandbox-actions.ts";
import { ClusterUnavailableError } from "./api-problems.ts";
import { namespaceChoices } from "./managed-namespaces.ts";
import type { Runtime } from "./runtime.ts";

// What the lifecycle service needs from the runtime. The served Sandbox version is discovered
// once it can be, and again while the cluster has none (CRDs may be installed later). The
// gateway defaults are read at every call: a change on the Settings page applies to the very
// next sandbox, on every replica. Kubernetes is called as `as` — the person a request is for —
// or as Berth itself for its own work.

export type ServiceRuntime = Pick<Runtime, "config" | "store" | "cluster" | "inFlight" | "live" | "checkpointing">;

const cachedDeps = new WeakMap<ServiceRuntime, Promise<Omit<ActionDeps, "defaults">>>();

function clusterDeps(runtime: ServiceRuntime): Promise<Omit<ActionDeps, "defaults">> {
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
        inFlight: runtime.inFlight,
        live: runtime.live,
        checkpointing: runtime.checkpointing,
        limits: runtime.config.limits,
        managedNamespaces: () => namespaceChoices(runtime),
      };
    })();
    deps.catch(() => cachedDeps.delete(runtime));
    cachedDeps.set(runtime, deps);
  }
  return deps;
}

export async function sandboxServiceDeps(runtime: ServiceRuntime, as: ClusterConnection = runtime.cluster.connection): Promise<ActionDeps> {
  const [deps, defaults] = await Promise.all([clusterDeps(runtime), effectiveGatewayDefaults(runtime)]);
  if (as === runtime.cluster.connection) return { ...deps, defaults };
  return { ...deps, connection: as, resources: sandboxResources(as, deps.sandboxApiVersion), defaults };
}
