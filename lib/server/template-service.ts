import { discoverSandboxApi, type ClusterConnection } from "../kube/cluster-connection.ts";
import { templateResources } from "../kube/template-resources.ts";
import { effectiveGatewayDefaults } from "../sandboxes/gateway-settings.ts";
import type { Person } from "../domain/person.ts";
import type { TemplateView } from "../domain/template-view.ts";
import { listTemplates, type TemplateDeps } from "../sandboxes/templates.ts";
import { ClusterUnavailableError } from "./api-problems.ts";
import { namespaceChoices } from "./managed-namespaces.ts";
import type { Runtime } from "./runtime.ts";
import { visibleTemplateItems } from "./visibility.ts";

// What the template actions need from the runtime. The extensions group is looked up at each
// call (one discovery request): a cluster may have them installed, or half-migrated, after
// Berth started, and the templates API answers so the moment it changes.

export async function templateServiceDeps(runtime: Pick<Runtime, "config" | "store" | "cluster">, as: ClusterConnection = runtime.cluster.connection): Promise<TemplateDeps> {
  const [discovery, defaults] = await Promise.all([discoverSandboxApi(runtime.cluster.connection), effectiveGatewayDefaults(runtime)]);
  if (!discovery.ok) throw new ClusterUnavailableError(discovery.message);
  const apiVersion = discovery.install.extensionsApiVersion;
  if (!apiVersion) {
    throw new ClusterUnavailableError("The cluster does not serve extensions.agents.x-k8s.io: templates and warm pools need agent-sandbox's extensions (its extensions manifest, and the controller's --extensions flag). See GET /api/health.");
  }
  return {
    store: runtime.store,
    resources: templateResources(as, apiVersion),
    apiVersion,
    defaults,
    limits: runtime.config.limits,
    managedNamespaces: () => namespaceChoices(runtime),
  };
}

/** Every template (with its pool) of the namespaces where the person may list templates, read as Berth. */
export async function visibleTemplates(runtime: Pick<Runtime, "config" | "store" | "cluster" | "identity">, person: Person, namespace?: string): Promise<TemplateView[]> {
  return visibleTemplateItems(runtime, person, await listTemplates(await templateServiceDeps(runtime), namespace));
}
