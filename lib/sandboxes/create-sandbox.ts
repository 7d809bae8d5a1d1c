import type { Actor } from "../domain/audit.ts";
import { randomUUID } from "node:crypto";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import type { GatewayDefaults } from "../domain/gateway-defaults.ts";
import { DEFAULT_GATEWAY_LIMITS, type GatewayLimits, limitSetting } from "../domain/gateway-limits.ts";
import type { V1PersistentVolumeClaim } from "@kubernetes/client-node";
import { withoutSecretValues } from "../domain/env.ts";
import { berthLabelKeys, claimLabels, MANAGED_BY_BERTH } from "../domain/labels.ts";
import type { SpecProblem } from "../domain/problems.ts";
import type { SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxSpec } from "../domain/sandbox-spec.ts";
import { validateSandboxSpec } from "../domain/validate-sandbox-spec.ts";
import type { SandboxResources } from "../kube/sandbox-resources.ts";
import type { ClaimPlan } from "../render/claims.ts";
import type { SecretManifest } from "../render/manifests.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import { withOwner } from "../render/owner-reference.ts";
import { renderSandbox, type RenderResult } from "../render/render-sandbox.ts";
import type { Store } from "../store/index.ts";
import type { LiveSandboxes } from "./live-sandboxes.ts";
import { untracked, type OperationsInFlight } from "./operations-in-flight.ts";
import { QuotaExceededError, SandboxConflictError, SpecRejectedError } from "./lifecycle-errors.ts";

// Creating a sandbox: validate → record (which reserves the name) → render → the claims Berth
// manages → the Sandbox → the claims' owner references and the budget. Whatever fails, what was
// made is undone, so no claim, Sandbox, budget or record is left half-made.

export interface CreateSandboxDeps {
  store: Store;
  resources: SandboxResources;
  sandboxApiVersion: SandboxApiVersion;
  defaults: GatewayDefaults;
  /** The most one sandbox may ask for, and sandboxes per namespace. Absent: the built-in defaults. */
  limits?: GatewayLimits;
  /** This process's running creates and deletes, shared with the reconciler so it leaves them alone. */
  inFlight?: Pick<OperationsInFlight, "run">;
  /** The in-memory live list, told of each sandbox as its create finishes (read your writes). */
  live?: Pick<LiveSandboxes, "put" | "remove">;
  /**
   * The namespaces Berth manages, and how one becomes managed; a sandbox goes nowhere else.
   * Absent: every namespace (Berth's own tests of the lifecycle).
   */
  managedNamespaces?: () => Promise<{ names: string[]; howToAdd: string }>;
  now?: () => Date;
}

export interface CreatedSandbox {
  record: SandboxRecord;
  rendered: RenderResult;
}

export interface DryRunSandbox {
  rendered: RenderResult;
}

/** Where a claim plan's name sits in the submitted spec, for a problem to point at. */
function claimField(spec: SandboxSpec, plan: ClaimPlan): (string | number)[] {
  const volume = plan.mountedBy.find((name) => name !== "workspace");
  if (plan.mountedBy.includes("workspace") || volume === undefined) return ["workspace", "claim", "claimName"];
  return ["volumes", spec.volumes.findIndex((one) => one.name === volume), "pvc", "claimName"];
}

/** The problem of a namespace Berth does not manage (sandboxes and templates live only in those it does); null when it does. */
export function notManagedProblem(namespace: string, managed: { names: string[]; howToAdd: string } | undefined): SpecProblem | null {
  if (!managed || managed.names.includes(namespace)) return null;
  const choices = managed.names.length > 0 ? `choose one of ${managed.names.join(", ")}` : "Berth manages no namespace yet";
  return { code: "namespace.not-managed", path: ["namespace"], message: `namespace ${namespace} is not one Berth manages: ${choices}; ${managed.howToAdd}` };
}

async function validated(deps: CreateSandboxDeps, input: unknown) {
  const result = validateSandboxSpec(input, deps.defaults, deps.limits ?? DEFAULT_GATEWAY_LIMITS);
  if (!result.ok) throw new SpecRejectedError(result.problems);
  const unsetSecrets = result.spec.env.flatMap((variable, index) => (variable.secret && variable.value === undefined ? [index] : []));
  if (unsetSecrets.length > 0) {
    throw new SpecRejectedError(unsetSecrets.map((index) => ({ code: "env.secret-without-value", path: ["env", index, "value"], message: `env ${result.spec.env[index]!.name} is marked secret but has no value: give the value when creating the sandbox` })));
  }
  const namespace = result.spec.namespace ?? deps.defaults.sandboxNamespace;
  const unmanaged = notManagedProblem(namespace, await deps.managedNamespaces?.());
  if (unmanaged) throw new SpecRejectedError([unmanaged]);
  return { ...result, namespace };
}

/**
 * What the create would do, decided as the create decides it — the same claim decisions, the
 * same refusals — with the cluster validating every object it would make (server-side dry run)
 * and nothing made. A claim the create would reuse is answered without a manifest, as the
 * create makes none.
 */
export async function dryRunCreateSandbox(deps: CreateSandboxDeps, input: unknown): Promise<DryRunSandbox> {
  const { spec, namespace } = await validated(deps, input);
  await withinQuota(deps, namespace, false);
  const id = randomUUID();
  const rendered = renderSandbox({ spec, defaults: deps.defaults, sandboxId: id, apiVersion: deps.sandboxApiVersion });
  const claims = await decideClaims(deps, spec, rendered, id);
  for (const plan of claims) if (plan.manifest) await deps.resources.createClaim(plan.manifest, { dryRun: true });
  if (rendered.secret) await deps.resources.createSecret(rendered.secret, { dryRun: true });
  await deps.resources.createSandbox(rendered.sandbox, { dryRun: true });
  if (rendered.podDisruptionBudget) await deps.resources.createBudget(rendered.podDisruptionBudget, { dryRun: true });
  return { rendered: { ...rendered, claims } };
}

export async function createSandbox(deps: CreateSandboxDeps, input: unknown, actor: Actor): Promise<CreatedSandbox> {
  const now = deps.now ?? (() => new Date());
  const { spec, workspace, namespace } = await validated(deps, input);
  const id = randomUUID();
  return (deps.inFlight ?? untracked).run(id, () => createRecordedSandbox(deps, { id, spec, workspace, namespace }, actor, now));
}

/**
 * A create counts after its own record is written (`recorded`), so that two creates racing for
 * the last place cannot both see room: at least one of them counts the other and gives its
 * place back. A dry run counts the place it would take.
 */
async function withinQuota(deps: CreateSandboxDeps, namespace: string, recorded: boolean): Promise<void> {
  const max = (deps.limits ?? DEFAULT_GATEWAY_LIMITS).maxSandboxesPerNamespace;
  const count = (await deps.store.sandboxes.countLiveIn(namespace)) + (recorded ? 0 : 1);
  if (count <= max) return;
  throw new QuotaExceededError(`${max} sandboxes per namespace`, [
    {
      code: "limit.too-many",
      path: ["namespace"],
      message: `namespace ${namespace} already has ${count - 1} sandboxes, the most this gateway allows in one namespace (${max}); delete one first, choose another namespace, or have the platform team raise ${limitSetting("maxSandboxesPerNamespace")}`,
    },
  ]);
}

async function createRecordedSandbox(
  deps: CreateSandboxDeps,
  { id, spec, workspace, namespace }: { id: string; spec: SandboxSpec; workspace: { backend: SandboxRecord["workspaceBackend"] }; namespace: string },
  actor: Actor,
  now: () => Date,
): Promise<CreatedSandbox> {
  // The record never holds a secret value: it is in the sandbox's Secret only.
  const stored = { ...spec, env: withoutSecretValues(spec.env) };
  await deps.store.sandboxes.recordSandbox({ id, name: spec.name, namespace, spec: stored as unknown as Record<string, unknown>, workspaceBackend: workspace.backend });
  const undo: (() => Promise<void>)[] = [];
  try {
    await withinQuota(deps, namespace, true);
    const rendered = renderSandbox({ spec, defaults: deps.defaults, sandboxId: id, apiVersion: deps.sandboxApiVersion });
    const claims = await decideClaims(deps, spec, rendered, id);
    const keys = berthLabelKeys(deps.defaults.labelPrefix);
    for (const plan of claims) {
      if (plan.manifest) {
        await deps.resources.createClaim(plan.manifest);
        undo.push(() => deps.resources.deleteClaim(namespace, plan.name));
      } else if (plan.ownership === "retain") {
        // A retained claim taken up again is this sandbox's now: its delete keeps it, by name.
        const before = (await deps.resources.readClaim(namespace, plan.name))?.metadata?.labels ?? {};
        await deps.resources.labelClaim(namespace, plan.name, claimLabels(deps.defaults.labelPrefix, { id, name: spec.name }, "retain"));
        undo.push(async () => void (await deps.resources.labelClaim(namespace, plan.name, { [keys.sandboxId]: before[keys.sandboxId] ?? null, [keys.sandboxName]: before[keys.sandboxName] ?? null })));
      }
    }
    // Before the Sandbox, so that its pod finds the values when it starts.
    if (rendered.secret) {
      await createSandboxSecret(deps, rendered.secret);
      undo.push(() => deps.resources.deleteSecret(namespace, rendered.secret!.metadata.name!));
    }
    const sandbox = await deps.resources.createSandbox(rendered.sandbox);
    undo.push(() => deps.resources.deleteSandbox(namespace, spec.name));
    if (rendered.secret) await deps.resources.setSecretOwner(namespace, rendered.secret.metadata.name!, sandbox);
    for (const plan of claims) {
      if (plan.ownership === "delete") await deps.resources.addClaimOwner(namespace, plan.name, sandbox);
    }
    if (rendered.podDisruptionBudget) {
      await deps.resources.createBudget(withOwner(rendered.podDisruptionBudget, sandbox));
      undo.push(() => deps.resources.deleteBudget(namespace, rendered.podDisruptionBudget!.metadata.name!));
    }
    const record = await deps.store.sandboxes.markProvisioned(id, now());
    deps.live?.put(record);
    await recordTimelineEvent(deps.store.timeline, {
      sandboxId: id,
      type: "Lifecycle",
      reason: "Created",
      message: `Sandbox ${namespace}/${spec.name} created by ${actor.username} with a ${workspace.backend} workspace`,
      occurredAt: now(),
      data: { claims: claims.map((plan) => ({ name: plan.name, ownership: plan.ownership })), sandboxUid: sandbox.metadata.uid, by: actor.username },
    }, { about: record });
    await deps.store.audit.recordChange({ actor, action: "sandbox.create", targetKind: "Sandbox", targetId: id, outcome: "Succeeded", details: { namespace, name: spec.name } });
    return { record, rendered: { ...rendered, claims } };
  } catch (error) {
    // Undo in reverse order; an undo that fails must not hide why the create failed.
    for (const step of undo.reverse()) await step().catch(() => {});
    await deps.store.sandboxes.discardUncreated(id);
    deps.live?.remove(id);
    // The API's edge records the failure in the audit log, with the request it came with.
    throw error;
  }
}

/** A Secret of that name already there is not ours to overwrite (a leftover, or someone's own). */
async function createSandboxSecret(deps: CreateSandboxDeps, secret: SecretManifest): Promise<void> {
  try {
    await deps.resources.createSecret(secret);
  } catch (error) {
    if (!(error instanceof KubeApiError && error.alreadyExists)) throw error;
    const where = `${secret.metadata.namespace}/${secret.metadata.name}`;
    throw new SandboxConflictError([
      { code: "env.secret-exists", path: ["name"], message: `Secret ${where}, where this sandbox's secret values would go, already exists; delete it if it is a leftover, or choose another sandbox name` },
    ]);
  }
}

/**
 * Why an existing claim cannot be taken with the plan's ownership, or null when it can. Berth
 * never deletes, and never makes deletable, a claim it did not create: `existing` mounts it as
 * it is; `retain` reuses only a claim Berth made (an earlier sandbox's: resuming a session);
 * `delete` is for a claim this create makes, since it would take whatever data is there with it.
 */
function takenClaimProblem(existing: V1PersistentVolumeClaim, plan: ClaimPlan, labelPrefix: string): string | null {
  const where = `${existing.metadata?.namespace}/${plan.name}`;
  if (plan.ownership === "delete") {
    return `claim ${where} already exists: ownership delete would delete it, and the data on it, with this sandbox. Mount it with ownership existing (it is never changed or deleted), or choose a name no claim has`;
  }
  const madeByBerth = existing.metadata?.labels?.[berthLabelKeys(labelPrefix).managedBy] === MANAGED_BY_BERTH;
  if (plan.ownership === "retain" && !madeByBerth) {
    return `claim ${where} exists and Berth did not make it: mount it with ownership existing (it is never changed or deleted), or choose a name no claim has`;
  }
  return null;
}

/**
 * What the create does with each claim, decided from what the cluster has now, writing nothing:
 * an `existing` claim must be there; a claim Berth would create is reused when Berth made it and
 * it is free (a retained claim from an earlier sandbox: resuming a session), and refused when
 * another live sandbox manages it or when it is not Berth's to take (takenClaimProblem). The
 * plans come back in order, each with the manifest to create, or none when it is used as it is.
 */
async function decideClaims(deps: CreateSandboxDeps, spec: SandboxSpec, rendered: RenderResult, id: string): Promise<ClaimPlan[]> {
  const namespace = rendered.sandbox.metadata.namespace!;
  const keys = berthLabelKeys(deps.defaults.labelPrefix);
  const prepared: ClaimPlan[] = [];
  const missing: SpecProblem[] = [];
  const conflicts: SpecProblem[] = [];
  for (const plan of rendered.claims) {
    const existing = await deps.resources.readClaim(namespace, plan.name);
    if (existing) {
      const taken = takenClaimProblem(existing, plan, deps.defaults.labelPrefix);
      if (taken) {
        conflicts.push({ code: "claim.exists", path: claimField(spec, plan), message: taken });
        continue;
      }
      const managerId = existing.metadata?.labels?.[keys.sandboxId];
      const manager = managerId && managerId !== id ? await deps.store.sandboxes.getSandbox(managerId).catch(() => null) : null;
      if (manager && !manager.deletedAt) {
        conflicts.push({
          code: "claim.in-use",
          path: claimField(spec, plan),
          message: `claim ${plan.name} belongs to the live sandbox ${manager.namespace}/${manager.name}: delete that sandbox first, or choose another claim`,
        });
        continue;
      }
      const { manifest: _notCreated, ...used } = plan;
      prepared.push(used);
      continue;
    }
    if (!plan.manifest) {
      missing.push({
        code: "claim.not-found",
        path: claimField(spec, plan),
        message: `claim ${plan.name} does not exist in namespace ${namespace}: create it first, or let Berth create one (ownership retain or delete)`,
      });
      continue;
    }
    prepared.push(plan);
  }
  if (conflicts.length > 0) throw new SandboxConflictError(conflicts);
  if (missing.length > 0) throw new SpecRejectedError(missing);
  return prepared;
}
