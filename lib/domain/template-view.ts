import { z } from "zod";
import { instantSchema } from "./instant.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "./labels.ts";
import { sandboxTemplateSpecSchema, WARM_POOL_UPDATE_STRATEGIES, type SandboxTemplateSpec } from "./sandbox-template.ts";

// A template as the Templates page and GET /api/v1/templates show it: read from its
// SandboxTemplate and the SandboxWarmPool of the same name. Berth keeps the template as it was
// given (its spec) in an annotation of the SandboxTemplate, so the cluster alone holds it —
// every replica reads the same, and an edit starts from what was asked, not from a pod template
// read backwards. A template someone else made has no such annotation: it is shown, not edited.

/** The annotation holding the template as given, as JSON. */
export const templateSpecAnnotation = (labelPrefix: string) => `${labelPrefix}/template-spec`;

export const warmPoolViewSchema = z.object({
  /** What the pool is asked to keep. */
  replicas: z.number().int(),
  /** Sandboxes the pool holds now, ready or not. */
  members: z.number().int(),
  ready: z.number().int(),
  updateStrategy: z.enum(WARM_POOL_UPDATE_STRATEGIES),
});
export type WarmPoolView = z.infer<typeof warmPoolViewSchema>;

export const templateViewSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  createdAt: instantSchema.nullable(),
  /** Made (and so editable) through Berth. */
  managedByBerth: z.boolean(),
  /** The template as it was given to Berth; null for one made elsewhere. */
  spec: sandboxTemplateSpecSchema.nullable(),
  description: z.string().nullable(),
  /** The agent container's image, read from the SandboxTemplate itself. */
  image: z.string().nullable(),
  warmPool: warmPoolViewSchema.nullable(),
});
export type TemplateView = z.infer<typeof templateViewSchema>;

// What is read of the cluster's objects: only these fields, each checked, since anyone with
// RBAC on the resource could have written anything into them.
const objectMeta = z.object({
  name: z.string(),
  namespace: z.string(),
  uid: z.string().default(""),
  creationTimestamp: z.union([z.string(), z.date()]).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});
const sandboxTemplateObject = z.object({
  metadata: objectMeta,
  spec: z.object({ podTemplate: z.object({ spec: z.object({ containers: z.array(z.object({ image: z.string().optional() })).optional() }).optional() }).optional() }).optional(),
});
const warmPoolObject = z.object({
  metadata: objectMeta,
  spec: z.object({ replicas: z.number().int().optional(), updateStrategy: z.object({ type: z.enum(WARM_POOL_UPDATE_STRATEGIES).optional() }).optional() }).optional(),
  status: z.object({ replicas: z.number().int().optional(), readyReplicas: z.number().int().optional() }).optional(),
});

/** The template Berth kept in the annotation, or null when there is none or it no longer reads as one. */
function keptSpec(annotations: Record<string, string> | undefined, labelPrefix: string, name: string, namespace: string): SandboxTemplateSpec | null {
  const text = annotations?.[templateSpecAnnotation(labelPrefix)];
  if (text === undefined) return null;
  let kept: unknown;
  try {
    kept = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = sandboxTemplateSpecSchema.safeParse({ ...(typeof kept === "object" && kept !== null ? kept : {}), name, namespace });
  return parsed.success ? parsed.data : null;
}

/** The view of one SandboxTemplate and its pool (when it has one); null when the object is not a readable SandboxTemplate. */
export function templateView(template: unknown, pool: unknown, labelPrefix: string): TemplateView | null {
  const read = sandboxTemplateObject.safeParse(template);
  if (!read.success) return null;
  const { metadata, spec } = read.data;
  const readPool = pool === undefined ? null : warmPoolObject.safeParse(pool);
  const kept = keptSpec(metadata.annotations, labelPrefix, metadata.name, metadata.namespace);
  const createdAt = metadata.creationTimestamp ? new Date(metadata.creationTimestamp) : null;
  return {
    namespace: metadata.namespace,
    name: metadata.name,
    uid: metadata.uid,
    createdAt: createdAt && !Number.isNaN(createdAt.getTime()) ? createdAt : null,
    managedByBerth: metadata.labels?.[berthLabelKeys(labelPrefix).managedBy] === MANAGED_BY_BERTH && kept !== null,
    spec: kept,
    description: kept?.description ?? null,
    image: spec?.podTemplate?.spec?.containers?.[0]?.image ?? null,
    warmPool:
      readPool?.success === true
        ? {
            // agent-sandbox's default when replicas is unset.
            replicas: readPool.data.spec?.replicas ?? 1,
            members: readPool.data.status?.replicas ?? 0,
            ready: readPool.data.status?.readyReplicas ?? 0,
            updateStrategy: readPool.data.spec?.updateStrategy?.type ?? "OnReplenish",
          }
        : null,
  };
}

/** A pool not yet holding its target of ready sandboxes (or holding more than it should). */
export const isFilling = (template: TemplateView): boolean => template.warmPool !== null && (template.warmPool.ready !== template.warmPool.replicas || template.warmPool.members !== template.warmPool.replicas);
