import { z } from "zod";
import { instantSchema } from "./instant.ts";
import { pageRequestSchema } from "./sandbox-record.ts";

/**
 * Who made a change: the person as Berth proved them (with their groups) and the request it came
 * with — or Berth itself, for what its own controllers do.
 */
export const actorSchema = z.object({
  username: z.string().min(1),
  groups: z.array(z.string()),
  requestId: z.string().nullable(),
});
export type Actor = z.infer<typeof actorSchema>;

/** Berth's own controllers: clean-ups, auto-recovery, a run a stopped console left behind. */
export const BERTH_ACTOR: Actor = { username: "berth", groups: [], requestId: null };

export const AUDIT_DECISIONS = ["Allowed", "Denied"] as const;

/** One change made or refused through Berth: who did what to which object, whether they might, and how it ended. */
export const auditEntrySchema = z.object({
  id: z.string().regex(/^\d+$/),
  at: instantSchema,
  actor: z.string().min(1),
  actorGroups: z.array(z.string()),
  /** Dotted verb, such as sandbox.create or settings.update. */
  action: z.string().regex(/^[a-z]+(\.[a-z-]+)+$/, "action must look like sandbox.create"),
  targetKind: z.string().min(1),
  targetId: z.string().min(1),
  decision: z.enum(AUDIT_DECISIONS),
  outcome: z.enum(["Succeeded", "Failed"]),
  requestId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** What a writer says of a change; the actor's parts go into their columns. */
export const newAuditEntrySchema = auditEntrySchema.omit({ id: true, at: true, actor: true, actorGroups: true, requestId: true }).extend({
  actor: actorSchema,
  decision: auditEntrySchema.shape.decision.default("Allowed"),
  details: auditEntrySchema.shape.details.default({}),
});
export type NewAuditEntry = z.input<typeof newAuditEntrySchema>;

/** GET /api/v1/audit: filters, all optional, and a page. */
export const auditQuerySchema = pageRequestSchema.extend({
  actor: z.string().min(1).optional(),
  action: z.string().min(1).optional(),
  targetKind: z.string().min(1).optional(),
  targetId: z.string().min(1).optional(),
  outcome: auditEntrySchema.shape.outcome.optional(),
  decision: z.enum(AUDIT_DECISIONS).optional(),
  since: z.iso.datetime({ message: "since must be an RFC 3339 time, such as 2026-12-01T00:00:00Z" }).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
