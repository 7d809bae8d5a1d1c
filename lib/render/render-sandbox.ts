import type { GatewayDefaults } from "../domain/gateway-defaults.ts";
import { sandboxSecretName, secretValues } from "../domain/env.ts";
import { isLabelValue, sandboxLabels } from "../domain/labels.ts";
import { InvalidSandboxSpecError } from "../domain/problems.ts";
import { containerFor } from "../domain/profiles.ts";
import type { ResolvedWorkspace } from "../domain/resolve-workspace.ts";
import { SANDBOX_API_GROUP, SANDBOX_KIND, type SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { SandboxSpec } from "../domain/sandbox-spec.ts";
import { checkSandboxSpec } from "../domain/validate-sandbox-spec.ts";
import { WORKSPACE_VOLUME_NAME } from "../domain/workspace.ts";
import { type ClaimPlan, claimSpec, planClaims } from "./claims.ts";
import type {
  Container,
  EnvVar,
  SecretManifest,
  PodDisruptionBudgetManifest,
  ResourceList,
  SandboxBlueprint,
  SandboxManifest,
  Volume,
  VolumeClaimTemplate,
  VolumeMount,
} from "./manifests.ts";
import { renderPodDisruptionBudget } from "./pod-disruption-budget.ts";
import { containerSecurityContext, podSecurityContext } from "./pod-security.ts";
import { workspaceInitContainer } from "./workspace-init.ts";

// Every object below is written key by key in Kubernetes' conventional order, and every list
// follows the spec's order, so the same input always renders to the same bytes.

export const AGENT_CONTAINER_NAME = "agent";

export interface RenderInput {
  spec: SandboxSpec;
  defaults: GatewayDefaults;
  /** Berth's id for the sandbox; it becomes a label value, so at most 63 label-safe characters. */
  sandboxId: string;
  apiVersion: SandboxApiVersion;
}

export interface RenderResult {
  sandbox: SandboxManifest;
  /** Claims outside the Sandbox's templates, with what Berth must do about each. */
  claims: ClaimPlan[];
  /** Present when the disruption policy asks for eviction protection. */
  podDisruptionBudget?: PodDisruptionBudgetManifest;
  /** Present when the spec holds secret values (as a create submits them; a stored spec has none). */
  secret?: SecretManifest;
}

function resourceList(list: { cpu?: string | undefined; memory?: string | undefined } | undefined): ResourceList | undefined {
  if (list === undefined) return undefined;
  const rendered: ResourceList = {
    ...(list.cpu === undefined ? {} : { cpu: list.cpu }),
    ...(list.memory === undefined ? {} : { memory: list.memory }),
  };
  return Object.keys(rendered).length > 0 ? rendered : undefined;
}

function agentResources(spec: SandboxSpec): Container["resources"] {
  const requests = resourceList(spec.resources?.requests);
  const limits = resourceList(spec.resources?.limits);
  if (requests === undefined && limits === undefined) return undefined;
  return { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) };
}

/**
 * The pod volume for each extra claim. Mounts of one claim (say, two subPaths of a dataset)
 * share one pod volume named after the first of them, so the pod refers to each claim once
 * and the kubelet attaches it once, however many places it is mounted.
 */
function claimVolumes(spec: SandboxSpec): Map<string, { name: string; readOnly: boolean }> {
  const byClaim = new Map<string, { name: string; readOnly: boolean }>();
  for (const volume of spec.volumes) {
    const known = byClaim.get(volume.pvc.claimName);
    // The claim is mounted read-only at the volume level only when every mount of it is.
    if (known) known.readOnly &&= volume.readOnly;
    else byClaim.set(volume.pvc.claimName, { name: volume.name, readOnly: volume.readOnly });
  }
  return byClaim;
}

/** A variable as the pod gets it: a secret value by reference to the sandbox's own Secret. */
function containerEnv(variable: SandboxSpec["env"][number], sandboxSecret: string): EnvVar {
  if (variable.valueFrom) return { name: variable.name, valueFrom: { secretKeyRef: { name: variable.valueFrom.secretKeyRef.name, key: variable.valueFrom.secretKeyRef.key } } };
  if (variable.secret) return { name: variable.name, valueFrom: { secretKeyRef: { name: sandboxSecret, key: variable.name } } };
  return { name: variable.name, value: variable.value ?? "" };
}

function agentContainer(
  spec: SandboxSpec,
  sandboxSecret: string,
  image: string,
  command: string[] | undefined,
  workspace: ResolvedWorkspace,
  byClaim: Map<string, { name: string }>,
): Container {
  const resources = agentResources(spec);
  const mounts: VolumeMount[] = [
    { name: WORKSPACE_VOLUME_NAME, mountPath: workspace.mountPath },
    ...spec.volumes.map((volume) => ({
      name: byClaim.get(volume.pvc.claimName)?.name ?? volume.name,
      mountPath: volume.mountPath,
      ...(volume.readOnly ? { readOnly: true } : {}),
      ...(volume.subPath === undefined ? {} : { subPath: volume.subPath }),
    })),
  ];
  return {
    name: AGENT_CONTAINER_NAME,
    image,
    ...(command === undefined ? {} : { command: [...command] }),
    ...(spec.env.length > 0 ? { env: spec.env.map((variable) => containerEnv(variable, sandboxSecret)) } : {}),
    ...(resources === undefined ? {} : { resources }),
    securityContext: containerSecurityContext(),
    volumeMounts: mounts,
  };
}

function podVolumes(workspace: ResolvedWorkspace, byClaim: Map<string, { name: string; readOnly: boolean }>): Volume[] {
  const volumes: Volume[] = [];
  if (workspace.backend === "ephemeral") {
    volumes.push({ name: WORKSPACE_VOLUME_NAME, emptyDir: {} });
  } else if (workspace.claim.ownership !== "template") {
    volumes.push({ name: WORKSPACE_VOLUME_NAME, persistentVolumeClaim: { claimName: workspace.claim.claimName } });
  }
  // A template workspace gets no pod volume here: the controller adds one per
  // volumeClaimTemplates entry, and a second volume of the same name would make the pod invalid.
  for (const [claimName, volume] of byClaim) {
    volumes.push({ name: volume.name, persistentVolumeClaim: { claimName, ...(volume.readOnly ? { readOnly: true } : {}) } });
  }
  return volumes;
}

function volumeClaimTemplates(workspace: ResolvedWorkspace): VolumeClaimTemplate[] | undefined {
  if (workspace.backend !== "pvc" || workspace.claim.ownership !== "template") return undefined;
  const { claim } = workspace;
  // Exactly OpenShell's default_workspace_volume_claim_templates: the template is named like
  // the volume, so the controller creates claim workspace-<sandbox> and mounts it as `workspace`.
  return [{ metadata: { name: WORKSPACE_VOLUME_NAME }, spec: claimSpec(claim.size, claim.accessModes, claim.storageClass) }];
}

/**
 * What agent-sandbox calls a sandbox's blueprint — its pod template and claim templates — for a
 * checked spec: shared by a Sandbox and by a SandboxTemplate that makes many of them.
 */
export function renderBlueprint(spec: SandboxSpec, workspace: ResolvedWorkspace, labels: Record<string, string>): SandboxBlueprint {
  const { image, command } = containerFor(spec);
  if (image === undefined) {
    throw new InvalidSandboxSpecError([{ code: "profile.custom-needs-image", path: ["image"], message: "profile custom needs an image" }]);
  }
  const byClaim = claimVolumes(spec);
  const volumes = podVolumes(workspace, byClaim);
  const templates = volumeClaimTemplates(workspace);
  return {
    podTemplate: {
      metadata: { labels: { ...labels } },
      spec: {
        automountServiceAccountToken: false,
        enableServiceLinks: false,
        securityContext: podSecurityContext(),
        terminationGracePeriodSeconds: spec.disruptionPolicy.terminationGracePeriodSeconds,
        initContainers: [workspaceInitContainer(image, workspace.mountPath)],
        containers: [agentContainer(spec, sandboxSecretName(spec.name), image, command, workspace, byClaim)],
        ...(volumes.length > 0 ? { volumes } : {}),
      },
    },
    ...(templates === undefined ? {} : { volumeClaimTemplates: templates }),
  };
}

/**
 * The Kubernetes objects for one sandbox: the Sandbox custom resource, the claims Berth itself
 * manages, and the PodDisruptionBudget. Pure: the same input gives the same bytes.
 *
 * Throws InvalidSandboxSpecError when the spec breaks a rule that depends on the gateway
 * defaults; callers that validated with validateSandboxSpec against the same defaults never see it.
 */
export function renderSandbox({ spec, defaults, sandboxId, apiVersion }: RenderInput): RenderResult {
  if (!isLabelValue(sandboxId) || sandboxId === "") {
    throw new RangeError(`sandboxId ${JSON.stringify(sandboxId)} cannot be a label value: use at most 63 letters, digits, '-', '_' or '.'`);
  }
  const checked = checkSandboxSpec(spec, defaults);
  if (!checked.ok) throw new InvalidSandboxSpecError(checked.problems);
  const { workspace } = checked;

  const namespace = spec.namespace ?? defaults.sandboxNamespace;
  const labels = sandboxLabels(defaults.labelPrefix, sandboxId);
  // The person's labels go on the Sandbox and its pod (kubectl -l finds both); Berth's stay its own.
  const labelled = { ...spec.labels, ...labels };
  const blueprint = renderBlueprint(spec, workspace, labelled);

  const sandbox: SandboxManifest = {
    apiVersion: `${SANDBOX_API_GROUP}/${apiVersion}`,
    kind: SANDBOX_KIND,
    metadata: { name: spec.name, namespace, labels: labelled },
    spec: {
      ...(apiVersion === "v1beta1" ? { operatingMode: "Running" as const } : { replicas: 1 as const }),
      ...blueprint,
    },
  };

  const claimContext = { namespace, sandbox: { id: sandboxId, name: spec.name }, labelPrefix: defaults.labelPrefix };
  const claims = planClaims(claimContext, workspace, spec.volumes, defaults);
  const podDisruptionBudget = spec.disruptionPolicy.evictionProtection
    ? renderPodDisruptionBudget({ sandboxName: spec.name, namespace, sandboxId, labelPrefix: defaults.labelPrefix })
    : undefined;

  const values = secretValues(spec.env);
  const secret: SecretManifest | undefined =
    Object.keys(values).length > 0 ? { apiVersion: "v1", kind: "Secret", metadata: { name: sandboxSecretName(spec.name), namespace, labels: { ...labels } }, type: "Opaque", stringData: values } : undefined;

  return { sandbox, claims, ...(podDisruptionBudget ? { podDisruptionBudget } : {}), ...(secret ? { secret } : {}) };
}

/** What a dry run shows: the manifests as they would be made, with each secret value replaced by "(set)". */
export function withSecretValuesHidden(rendered: RenderResult): RenderResult {
  if (!rendered.secret) return rendered;
  const hidden = Object.fromEntries(Object.keys(rendered.secret.stringData).map((key) => [key, "(set)"]));
  return { ...rendered, secret: { ...rendered.secret, stringData: hidden } };
}

