import { EXTENSIONS_API_GROUP } from "../domain/agent-sandbox-install.ts";
import type { GatewayDefaults } from "../domain/gateway-defaults.ts";
import { evictionProtectionAnnotation, templateLabels } from "../domain/labels.ts";
import { InvalidSandboxSpecError } from "../domain/problems.ts";
import type { SandboxApiVersion } from "../domain/sandbox-api.ts";
import { templateAsSandboxSpec, type SandboxTemplateSpec } from "../domain/sandbox-template.ts";
import { templateSpecAnnotation } from "../domain/template-view.ts";
import { checkSandboxSpec } from "../domain/validate-sandbox-spec.ts";
import type { SandboxClaimManifest, SandboxTemplateManifest, SandboxWarmPoolManifest } from "./manifests.ts";
import { renderBlueprint } from "./render-sandbox.ts";

// A template as agent-sandbox's extensions take it: a SandboxTemplate holding the blueprint a
// sandbox of it runs from (rendered exactly as a Sandbox's, so a sandbox from a template is the
// sandbox the same spec would have made), and the SandboxWarmPool of the same name when the
// template keeps some started. Pure: the same input gives the same bytes.

export interface RenderTemplateInput {
  template: SandboxTemplateSpec;
  defaults: GatewayDefaults;
  /** The version of extensions.agents.x-k8s.io the cluster serves. */
  apiVersion: SandboxApiVersion;
}

export interface RenderTemplateResult {
  sandboxTemplate: SandboxTemplateManifest;
  warmPool?: SandboxWarmPoolManifest;
}

/** The template without its name and namespace (the object's own), as stable JSON. */
function keptTemplateSpec(template: SandboxTemplateSpec): string {
  const { name: _name, namespace: _namespace, ...kept } = template;
  return JSON.stringify(kept);
}

/** Throws InvalidSandboxSpecError when the template's sandbox breaks a rule that depends on the gateway defaults. */
export function renderSandboxTemplate({ template, defaults, apiVersion }: RenderTemplateInput): RenderTemplateResult {
  const spec = templateAsSandboxSpec(template);
  const checked = checkSandboxSpec(spec, defaults);
  if (!checked.ok) throw new InvalidSandboxSpecError(checked.problems);
  const namespace = template.namespace ?? defaults.sandboxNamespace;
  const labels = templateLabels(defaults.labelPrefix, template.name);
  const metadata = {
    name: template.name,
    namespace,
    labels: { ...labels },
    // The template as given, for Berth to show and edit it from the cluster alone (lib/domain/template-view.ts).
    annotations: { [templateSpecAnnotation(defaults.labelPrefix)]: keptTemplateSpec(template) },
  };
  const blueprint = renderBlueprint(spec, checked.workspace, { ...spec.labels, ...labels });
  if (spec.disruptionPolicy.evictionProtection) {
    // A pool member waiting for a claim is not protected (a drain should take it freely): the
    // budget comes at the hand-out, from this mark on the sandbox (lib/sandboxes/handout-budget.ts).
    blueprint.podTemplate.metadata.annotations = { [evictionProtectionAnnotation(defaults.labelPrefix)]: "true" };
  }
  const sandboxTemplate: SandboxTemplateManifest = {
    apiVersion: `${EXTENSIONS_API_GROUP}/${apiVersion}`,
    kind: "SandboxTemplate",
    metadata,
    spec: { ...blueprint, networkPolicyManagement: "Unmanaged" },
  };
  if (!template.warmPool) return { sandboxTemplate };
  const warmPool: SandboxWarmPoolManifest = {
    apiVersion: `${EXTENSIONS_API_GROUP}/${apiVersion}`,
    kind: "SandboxWarmPool",
    metadata: { name: template.name, namespace, labels: { ...labels } },
    spec: { replicas: template.warmPool.replicas, sandboxTemplateRef: { name: template.name }, updateStrategy: { type: template.warmPool.updateStrategy } },
  };
  return { sandboxTemplate, warmPool };
}

/**
 * A developer's sandbox from a template: a SandboxClaim on the template's pool, which the pool's
 * controller answers with a ready member (warm) or a Sandbox started for it, named like the claim
 * (cold).
 */
export function renderSandboxClaim(input: { namespace: string; name: string; template: string; labelPrefix: string; apiVersion: SandboxApiVersion }): SandboxClaimManifest {
  return {
    apiVersion: `${EXTENSIONS_API_GROUP}/${input.apiVersion}`,
    kind: "SandboxClaim",
    metadata: { name: input.name, namespace: input.namespace, labels: templateLabels(input.labelPrefix, input.template) },
    spec: { warmPoolRef: { name: input.template } },
  };
}
