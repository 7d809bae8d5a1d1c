import { SANDBOX_CONTROLLER_VERSION } from "./controllers/agent-sandbox-controller.ts";
import { refs } from "./k8s-objects.ts";
import type { KubeObject } from "./objects.ts";
import { namespaceObject } from "./bootstrap.ts";
import type { ObjectStore } from "./store/object-store.ts";
import { createAsApiServer } from "./controllers/create-as-api-server.ts";

// agent-sandbox as its release manifests install it (k8s/controller.yaml): the
// agent-sandbox-system namespace, the controller's ServiceAccount, and its Deployment — what a
// client checking that agent-sandbox is installed (its e2e framework, `kubectl get deploy -n
// agent-sandbox-system`) looks for. The controller itself runs inside the embedded cluster; its
// pod stands for it, scheduled, evicted and replaced like any other.

export const AGENT_SANDBOX_NAMESPACE = "agent-sandbox-system";
export const AGENT_SANDBOX_CONTROLLER = "agent-sandbox-controller";

function controllerDeployment(): KubeObject {
  const labels = { app: AGENT_SANDBOX_CONTROLLER };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: AGENT_SANDBOX_CONTROLLER, namespace: AGENT_SANDBOX_NAMESPACE, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: AGENT_SANDBOX_CONTROLLER,
          containers: [
            {
              name: AGENT_SANDBOX_CONTROLLER,
              image: `registry.k8s.io/agent-sandbox/agent-sandbox-controller:${SANDBOX_CONTROLLER_VERSION}`,
              args: ["--leader-elect=true", "--extensions"],
              ports: [
                { name: "metrics", containerPort: 8080, protocol: "TCP" },
                { name: "healthz", containerPort: 8081, protocol: "TCP" },
                { name: "webhook", containerPort: 9443, protocol: "TCP" },
              ],
            },
          ],
        },
      },
    },
  };
}

/** Puts whatever of the install is missing in place (a new cluster, or one restored from before it had them). */
export function ensureAgentSandboxInstall(store: ObjectStore): void {
  if (!store.peek(refs.namespaces, undefined, AGENT_SANDBOX_NAMESPACE)) store.create(refs.namespaces, namespaceObject(AGENT_SANDBOX_NAMESPACE));
  if (!store.peek(refs.serviceAccounts, AGENT_SANDBOX_NAMESPACE, AGENT_SANDBOX_CONTROLLER)) {
    store.create(refs.serviceAccounts, { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: AGENT_SANDBOX_CONTROLLER, namespace: AGENT_SANDBOX_NAMESPACE } });
  }
  if (!store.peek({ group: "apps", resource: "deployments" }, AGENT_SANDBOX_NAMESPACE, AGENT_SANDBOX_CONTROLLER)) {
    createAsApiServer(store, "apps", "deployments", controllerDeployment());
  }
}
