import type { Actor } from "../domain/audit.ts";
import type { GatewayDefaults } from "../domain/gateway-defaults.ts";
import type { GatewayLimits } from "../domain/gateway-limits.ts";
import { problemsFromZodError } from "../domain/problems.ts";
import type { SandboxApiVersion } from "../domain/sandbox-api.ts";
import { claimViewOf, sandboxClaimRequestSchema, type SandboxClaimView } from "../domain/sandbox-claim.ts";
import { validateSandboxTemplate, type SandboxTemplateSpec } from "../domain/sandbox-template.ts";
import { templateView, type TemplateView } from "../domain/template-view.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import type { StoredExtensionObject, TemplateResources } from "../kube/template-resources.ts";
import { renderSandboxClaim, renderSandboxTemplate } from "../render/render-template.ts";
import type { Store } from "../store/index.ts";
import { auditedChange } from "./audited-change.ts";
import { notManagedProblem } from "./create-sandbox.ts";
import { ClaimNotFoundError, RequestRejectedError, TemplateConflictError, TemplateNotFoundError } from "./lifecycle-errors.ts";

// Templates through Berth: a platform admin's SandboxTemplate and its SandboxWarmPool, created,
// changed and deleted as the person asking (Kubernetes' RBAC on sandboxtemplates and
// sandboxwarmpools decides), as one thing; and a developer's sandbox from a template, a
// SandboxClaim on its pool. A template is never left half-made: both objects are dry-run first,
// so a person refused the pool has nothing made; a pool create that fails even so takes its
// template back; an edit whose pool change fails puts the template back as it was. Every change
// is audited, refusals included (by the API's edge).

export interface TemplateDeps {
  store: Pick<Store, "audit">;
  /** As the person asking. */
  resources: TemplateResources;
  /** The extensions version the cluster serves. */
  apiVersion: SandboxApiVersion;
  defaults: GatewayDefaults;
  limits: GatewayLimits;
  /** The namespaces a template may be made in; absent: every namespace. */
  managedNamespaces?: () => Promise<{ names: string[]; howToAdd: string }>;
}

async function validated(deps: TemplateDeps, input: unknown): Promise<SandboxTemplateSpec & { namespace: string }> {
  const result = validateSandboxTemplate(input, deps.defaults, deps.limits);
  if (!result.ok) throw new RequestRejectedError(result.problems, "invalid-template");
  const namespace = result.template.namespace ?? deps.defaults.sandboxNamespace;
  const unmanaged = notManagedProblem(namespace, await deps.managedNamespaces?.());
  if (unmanaged) throw new RequestRejectedError([unmanaged], "invalid-template");
  return { ...result.template, namespace };
}

function viewOf(deps: TemplateDeps, template: StoredExtensionObject, pool: StoredExtensionObject | null): TemplateView {
  const view = templateView(template, pool ?? undefined, deps.defaults.labelPrefix);
  if (!view) throw new Error(`the API server answered a SandboxTemplate that does not read as one: ${template.metadata.namespace}/${template.metadata.name}`);
  return view;
}

/** Undoes what a failed change made, keeping the failure as the error to report. */
async function undoing<T>(act: () => Promise<T>, undo: () => Promise<unknown>): Promise<T> {
  try {
    return await act();
  } catch (error) {
    await undo().catch(() => {
      // The failure that matters is the first: the person sees it, and what is left shows on the page.
    });
    throw error;
  }
}

/** Creates the template (and its warm pool), as the person; 409 when the name is taken. */
export async function createTemplate(deps: TemplateDeps, input: unknown, actor: Actor): Promise<TemplateView> {
  const template = await validated(deps, input);
  return auditedChange(deps.store.audit, { actor, action: "template.create", targetKind: "SandboxTemplate", namespace: template.namespace, name: template.name, details: { warmPool: template.warmPool ?? null } }, async () => {
    const { sandboxTemplate, warmPool: pool } = renderSandboxTemplate({ template, defaults: deps.defaults, apiVersion: deps.apiVersion });
    const nameTaken = (error: unknown) =>
      error instanceof KubeApiError && error.alreadyExists ? new TemplateConflictError(`Namespace ${template.namespace} already has a template named ${template.name}: choose another name, or edit that one.`, ["name"]) : error;
    // Both asked first, stored nowhere: a person who may create templates but not pools is
    // refused before anything is made, rather than undone after.
    await Promise.all([deps.resources.createTemplate(sandboxTemplate, { dryRun: true }), pool ? deps.resources.createWarmPool(pool, { dryRun: true }) : null]).catch((error: unknown) => {
      throw nameTaken(error);
    });
    const made = await deps.resources.createTemplate(sandboxTemplate).catch((error: unknown) => {
      throw nameTaken(error);
    });
    const madePool = pool ? await undoing(() => deps.resources.createWarmPool(pool), () => deps.resources.deleteTemplate(template.namespace, template.name, made.metadata.uid)) : null;
    return viewOf(deps, made, madePool);
  });
}

async function existing(deps: TemplateDeps, namespace: string, name: string) {
  const [template, pool] = await Promise.all([deps.resources.readTemplate(namespace, name), deps.resources.readWarmPool(namespace, name)]);
  if (!template) throw new TemplateNotFoundError(namespace, name);
  return { template, pool };
}

/** One template, read as the person. */
export async function getTemplate(deps: TemplateDeps, namespace: string, name: string): Promise<TemplateView> {
  const { template, pool } = await existing(deps, namespace, name);
  return viewOf(deps, template, pool);
}

/**
 * Replaces the template with the one given (the whole of it, as the create form sends it): its
 * SandboxTemplate, and its pool made, changed or removed to match. The pool's controller applies
 * the change to ready members by the pool's update strategy. Two edits at once: the last wins,
 * each whole (a template is small and edited by few; its controllers' own writes never fail one).
 */
export async function updateTemplate(deps: TemplateDeps, namespace: string, name: string, input: unknown, actor: Actor): Promise<TemplateView> {
  const given = typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  for (const [field, value] of [["name", name], ["namespace", namespace]] as const) {
    if (given[field] !== undefined && given[field] !== value) {
      throw new RequestRejectedError([{ code: `${field}.immutable`, path: [field], message: `a template's ${field} cannot change (it is ${value}): create a new template instead` }], "invalid-template");
    }
  }
  const template = await validated(deps, { ...given, name, namespace });
  return auditedChange(deps.store.audit, { actor, action: "template.update", targetKind: "SandboxTemplate", namespace, name, details: { warmPool: template.warmPool ?? null } }, async () => {
    const { template: current, pool: currentPool } = await existing(deps, namespace, name);
    const before = templateView(current, currentPool ?? undefined, deps.defaults.labelPrefix);
    if (!before?.managedByBerth) throw new TemplateConflictError(`Template ${namespace}/${name} was not made through Berth: change it where it was made (Berth would overwrite what it cannot read).`, []);
    const { sandboxTemplate, warmPool: pool } = renderSandboxTemplate({ template, defaults: deps.defaults, apiVersion: deps.apiVersion });
    const changePool = async (options: { dryRun?: boolean } = {}) => {
      if (pool && currentPool) return deps.resources.writeWarmPool(pool, options);
      if (pool) return deps.resources.createWarmPool(pool, options);
      if (currentPool && !options.dryRun) await deps.resources.deleteWarmPool(namespace, name, currentPool.metadata.uid);
      return null;
    };
    await Promise.all([deps.resources.writeTemplate(sandboxTemplate, { dryRun: true }), changePool({ dryRun: true })]);
    const replaced = await deps.resources.writeTemplate(sandboxTemplate);
    const changedPool = await undoing(() => changePool(), () => deps.resources.writeTemplate(current));
    return viewOf(deps, replaced, changedPool);
  });
}

/**
 * Deletes the template: its pool first (the pool's sandboxes go with it, by their owner
 * reference), then the SandboxTemplate. Sandboxes already handed out stay: they are their
 * claims'.
 */
export async function deleteTemplate(deps: TemplateDeps, namespace: string, name: string, actor: Actor): Promise<{ namespace: string; name: string; warmPoolDeleted: boolean }> {
  return auditedChange(deps.store.audit, { actor, action: "template.delete", targetKind: "SandboxTemplate", namespace, name }, async () => {
    const { template, pool } = await existing(deps, namespace, name);
    if (pool) await deps.resources.deleteWarmPool(namespace, name, pool.metadata.uid);
    await deps.resources.deleteTemplate(namespace, name, template.metadata.uid);
    return { namespace, name, warmPoolDeleted: pool !== null };
  });
}

/** Every template of the given namespaces (all, without), with its pool, by namespace then name. */
export async function listTemplates(deps: Pick<TemplateDeps, "resources" | "defaults">, namespace?: string): Promise<TemplateView[]> {
  const [templates, pools] = await Promise.all([deps.resources.listTemplates(namespace), deps.resources.listWarmPools(namespace)]);
  const poolOf = new Map(pools.map((pool) => [`${pool.metadata.namespace}/${pool.metadata.name}`, pool]));
  return templates
    .map((template) => templateView(template, poolOf.get(`${template.metadata.namespace}/${template.metadata.name}`), deps.defaults.labelPrefix))
    .filter((view) => view !== null)
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

type ClaimState = Omit<SandboxClaimView, "sandboxId" | "launchType">;

function claimStateOf(claim: StoredExtensionObject): ClaimState {
  const view = claimViewOf(claim);
  if (!view) throw new Error(`the API server answered a SandboxClaim that does not read as one: ${claim.metadata.namespace}/${claim.metadata.name}`);
  return view;
}

/**
 * A sandbox from a template, as the person: a SandboxClaim on the template's warm pool. The
 * pool's controller hands it a ready member (a warm start) or starts one named like the claim (a
 * cold start); Berth follows the Sandbox as any other, its timeline saying which it was.
 */
export async function claimSandbox(deps: TemplateDeps, namespace: string, input: unknown, actor: Actor): Promise<ClaimState> {
  const parsed = sandboxClaimRequestSchema.safeParse(input);
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error));
  const { name, template } = parsed.data;
  const { template: found, pool } = await existing(deps, namespace, template);
  if (!pool) {
    throw new TemplateConflictError(`Template ${namespace}/${template} has no warm pool, and agent-sandbox hands out sandboxes only through one: give it a warm pool (size 0 starts every sandbox cold).`, []);
  }
  return auditedChange(deps.store.audit, { actor, action: "sandbox.claim", targetKind: "SandboxClaim", namespace, name, details: { template: found.metadata.name } }, async () => {
    const manifest = renderSandboxClaim({ namespace, name, template, labelPrefix: deps.defaults.labelPrefix, apiVersion: deps.apiVersion });
    try {
      return claimStateOf(await deps.resources.createClaim(manifest));
    } catch (error) {
      if (error instanceof KubeApiError && error.alreadyExists) throw new TemplateConflictError(`Namespace ${namespace} already has a sandbox claim named ${name}: choose another name.`, ["name"]);
      throw error;
    }
  });
}

/** How a claim stands, read as the person. */
export async function getClaim(deps: TemplateDeps, namespace: string, name: string): Promise<ClaimState> {
  const claim = await deps.resources.readClaim(namespace, name);
  if (!claim) throw new ClaimNotFoundError(namespace, name);
  return claimStateOf(claim);
}
