import { z } from "zod";
import { dns1123Label } from "./kubernetes-names.ts";
import { handoutSchema } from "./sandbox-handout.ts";

// A developer's request for a sandbox from a template (a SandboxClaim on the template's warm
// pool), and how it stands: waiting, or answered with a Sandbox — warm from the pool, or started
// cold for it — which Berth then follows as any sandbox.

export const sandboxClaimRequestSchema = z.strictObject({
  /** The claim's name; a cold-started sandbox is named like it. */
  name: dns1123Label("name"),
  /** The template (with its warm pool of the same name) to take the sandbox from. */
  template: dns1123Label("template"),
});
export type SandboxClaimRequest = z.infer<typeof sandboxClaimRequestSchema>;

export const sandboxClaimViewSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  /** The warm pool (and template) it takes from. */
  template: z.string(),
  /** The Sandbox handed to it; null until one is. */
  sandbox: z.string().nullable(),
  /** Berth's id of that sandbox, once Berth follows it. */
  sandboxId: z.uuid().nullable(),
  launchType: handoutSchema.shape.launchType,
  ready: z.boolean(),
  /** Why it is not ready, in the claim controller's words. */
  reason: z.string().nullable(),
  message: z.string().nullable(),
});
export type SandboxClaimView = z.infer<typeof sandboxClaimViewSchema>;

const claimObject = z.object({
  metadata: z.object({ name: z.string(), namespace: z.string() }),
  spec: z.object({ warmPoolRef: z.object({ name: z.string() }).optional() }).optional(),
  status: z
    .object({
      sandbox: z.object({ name: z.string().optional() }).optional(),
      conditions: z.array(z.object({ type: z.string(), status: z.string(), reason: z.string().optional(), message: z.string().optional() })).optional(),
    })
    .optional(),
});

/** The claim as read from the cluster, without what only Berth's records know (its sandbox's id and launch type). */
export function claimViewOf(claim: unknown): Omit<SandboxClaimView, "sandboxId" | "launchType"> | null {
  const read = claimObject.safeParse(claim);
  if (!read.success) return null;
  const { metadata, spec, status } = read.data;
  const ready = status?.conditions?.find((condition) => condition.type === "Ready");
  return {
    namespace: metadata.namespace,
    name: metadata.name,
    template: spec?.warmPoolRef?.name ?? "",
    sandbox: status?.sandbox?.name || null,
    ready: ready?.status === "True",
    reason: ready && ready.status !== "True" ? (ready.reason ?? null) : null,
    message: ready?.message ?? null,
  };
}
