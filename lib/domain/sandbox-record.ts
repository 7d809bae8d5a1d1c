import { z } from "zod";
import { instantSchema } from "./instant.ts";
import { workspaceBackendSchema } from "./gateway-defaults.ts";
import { sandboxStatusSchema } from "./sandbox-status.ts";

/** "berth": made through Berth. "cluster": found in the cluster, made outside Berth. */
export const sandboxOriginSchema = z.enum(["berth", "cluster"]);
export type SandboxOrigin = z.infer<typeof sandboxOriginSchema>;

/** Berth's own record of a sandbox: identity, what was asked for, and what was last observed. */
export const sandboxRecordSchema = sandboxStatusSchema.extend({
  id: z.uuid(),
  name: z.string(),
  namespace: z.string(),
  /** The validated spec as submitted; parsed again by whoever needs its fields. */
  spec: z.record(z.string(), z.unknown()),
  workspaceBackend: workspaceBackendSchema,
  origin: sandboxOriginSchema,
  /** When it was fully made in the cluster (or found there); null while its create is running. */
  provisionedAt: instantSchema.nullable(),
  createdAt: instantSchema,
  updatedAt: instantSchema,
  deletedAt: instantSchema.nullable(),
});
export type SandboxRecord = z.infer<typeof sandboxRecordSchema>;

/** One page of a list: pass `nextCursor` back as `cursor` for the next one; null at the end. */
export const pageSchema = <Item extends z.ZodType>(item: Item) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
export type Page<Item> = { items: Item[]; nextCursor: string | null };

export const pageRequestSchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().min(1).optional(),
});
export type PageRequest = z.input<typeof pageRequestSchema>;
