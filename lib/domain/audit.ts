import { z } from "zod";
import { pageRequestSchema } from "./sandbox-record.ts";

/** One change made through Berth: who did what to which object, and how it ended. */
export const auditEntrySchema = z.object({
  id: z.string().regex(/^\d+$/),
  at: z.date(),
  actor: z.string().min(1),
  /** Dotted verb, such as sandbox.create or settings.update. */
  action: z.string().regex(/^[a-z]+(\.[a-z-]+)+$/, "action must look like sandbox.create"),
  targetKind: z.string().min(1),
  targetId: z.string().min(1),
  outcome: z.enum(["Succeeded", "Failed"]),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const newAuditEntrySchema = auditEntrySchema.omit({ id: true, at: true }).extend({
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
  decision: z.enum(["Allowed", "Denied"]).optional(),
  since: z.iso.datetime({ message: "since must be an RFC 3339 time, such as 2026-12-01T00:00:00Z" }).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
