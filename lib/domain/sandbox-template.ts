import { z } from "zod";
import { dns1123Label } from "./kubernetes-names.ts";
import type { GatewayDefaults } from "./gateway-defaults.ts";
import { type GatewayLimits, limitProblems } from "./gateway-limits.ts";
import { problemsFromZodError, reportProblem, type SpecProblem } from "./problems.ts";
import { refineSandboxSpec, sandboxSpecFields, type SandboxSpec } from "./sandbox-spec.ts";
import { checkSandboxSpec } from "./validate-sandbox-spec.ts";

// A sandbox template: what a platform admin decides once for many sandboxes of a namespace
// (profile, image, resources, workspace backend, storage class, disruption policy), and whether
// a warm pool keeps some of them started so a developer gets one in a second. Berth writes it as
// agent-sandbox's SandboxTemplate (and SandboxWarmPool); a developer's sandbox from it is a
// SandboxClaim, answered from the pool when a member is ready, cold-started otherwise.
//
// A template makes many sandboxes, each before anyone knows who will use it, so what belongs to
// one sandbox cannot be in it:
// - its workspace is either a claim of its own, made from the template for each sandbox
//   (ownership `template`, deleted with the sandbox) or ephemeral (an emptyDir). A retained, a
//   delete-on-termination or an existing claim names one claim, which every sandbox of the
//   template would share: refused. A pooled sandbox's workspace exists from the moment the pool
//   makes it, so a warm pool of a `pvc` template holds `replicas` claims at all times;
// - secret values (Berth writes them into a Secret of the sandbox's own): refused; a reference
//   to an existing Secret (`valueFrom.secretKeyRef`) is fine;
// - extra volumes must be read-only, since every sandbox of the template mounts the same claim.

/** agent-sandbox names a pool's sandboxes `<pool>-<5 random>`: the pool's name leaves room for them. */
export const MAX_POOLED_TEMPLATE_NAME = 57;
export const MAX_WARM_POOL_REPLICAS = 50;

export const WARM_POOL_UPDATE_STRATEGIES = ["OnReplenish", "Recreate"] as const;

export const warmPoolSchema = z.strictObject({
  /** Sandboxes kept started and ready; 0 keeps the pool with none (every sandbox a cold start). */
  replicas: z.number().int("warmPool.replicas must be a whole number").min(0, "warmPool.replicas cannot be negative").max(MAX_WARM_POOL_REPLICAS, `warmPool.replicas is at most ${MAX_WARM_POOL_REPLICAS}`),
  /**
   * When the template changes: OnReplenish keeps the ready ones until they are handed out (new
   * ones are made from the new template); Recreate replaces them at once.
   */
  updateStrategy: z.enum(WARM_POOL_UPDATE_STRATEGIES, { error: `warmPool.updateStrategy must be one of: ${WARM_POOL_UPDATE_STRATEGIES.join(", ")}` }).default("OnReplenish"),
});
export type WarmPool = z.infer<typeof warmPoolSchema>;

/** The sandbox part of a template: a sandbox spec without a name or namespace of its own. */
export const templateSandboxSchema = sandboxSpecFields.omit({ name: true, namespace: true }).superRefine(refineSandboxSpec);

export const sandboxTemplateSpecSchema = z
  .strictObject({
    name: dns1123Label("name"),
    /** Unset: the gateway's sandbox namespace. */
    namespace: dns1123Label("namespace").optional(),
    /** What the template is for, as the create form shows it. */
    description: z.string().max(200, "description is at most 200 characters").optional(),
    sandbox: templateSandboxSchema.prefault({}),
    warmPool: warmPoolSchema.optional(),
  })
  .superRefine((template, ctx) => {
    const ownership = template.sandbox.workspace.claim?.ownership;
    if (ownership !== undefined && ownership !== "template") {
      reportProblem(ctx, {
        code: "template.shared-claim",
        path: ["sandbox", "workspace", "claim", "ownership"],
        message: `a template makes many sandboxes, and ownership ${ownership} names one claim they would all share: use ownership template (each sandbox its own claim, deleted with it) or workspace.backend ephemeral`,
      });
    }
    template.sandbox.env.forEach((variable, index) => {
      if (variable.secret) {
        reportProblem(ctx, {
          code: "template.secret-value",
          path: ["sandbox", "env", index, "secret"],
          message: `${variable.name} is a secret value, and a template holds none (each sandbox would need a Secret of its own): reference an existing Secret with valueFrom.secretKeyRef`,
        });
      }
    });
    template.sandbox.volumes.forEach((volume, index) => {
      if (!volume.readOnly) {
        reportProblem(ctx, {
          code: "template.writable-volume",
          path: ["sandbox", "volumes", index, "readOnly"],
          message: `every sandbox of the template would mount claim ${volume.pvc.claimName} read-write: set readOnly, or leave the volume out of the template`,
        });
      }
    });
    if (template.warmPool && template.name.length > MAX_POOLED_TEMPLATE_NAME) {
      reportProblem(ctx, {
        code: "template.name-too-long-for-pool",
        path: ["name"],
        message: `a pooled template's name is at most ${MAX_POOLED_TEMPLATE_NAME} characters (its sandboxes are named <template>-<5 characters>); shorten it`,
      });
    }
  });

export type SandboxTemplateSpec = z.infer<typeof sandboxTemplateSpecSchema>;
export type SandboxTemplateSpecInput = z.input<typeof sandboxTemplateSpecSchema>;

/** The sandbox spec a template stands for, named as its SandboxTemplate: what the renderer and the workspace rules check. */
export function templateAsSandboxSpec(template: SandboxTemplateSpec): SandboxSpec {
  return { ...template.sandbox, name: template.name, ...(template.namespace === undefined ? {} : { namespace: template.namespace }) };
}

/** A problem of the template's sandbox, pointed at the template's field: `workspace.claim` is `sandbox.workspace.claim`. */
const inTemplate = (problem: SpecProblem): SpecProblem => (problem.path[0] === "name" || problem.path[0] === "namespace" ? problem : { ...problem, path: ["sandbox", ...problem.path] });

/**
 * The one validation a template's create and edit run: the schema, then the rules a sandbox of
 * it would meet at create (the workspace against the gateway defaults, the gateway's limits) —
 * so that no template can make sandboxes a create would refuse.
 */
export function validateSandboxTemplate(input: unknown, defaults: GatewayDefaults, limits: GatewayLimits): { ok: true; template: SandboxTemplateSpec } | { ok: false; problems: SpecProblem[] } {
  const parsed = sandboxTemplateSpecSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: problemsFromZodError(parsed.error) };
  const spec = templateAsSandboxSpec(parsed.data);
  const checked = checkSandboxSpec(spec, defaults);
  if (!checked.ok) return { ok: false, problems: checked.problems.map(inTemplate) };
  const overLimits = limitProblems(spec, checked.workspace, limits);
  if (overLimits.length > 0) return { ok: false, problems: overLimits.map(inTemplate) };
  return { ok: true, template: parsed.data };
}
