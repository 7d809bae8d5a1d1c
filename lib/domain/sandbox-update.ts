import { z } from "zod";
import { sandboxRecordSchema } from "./sandbox-record.ts";

/**
 * The event stream's `sandbox` message: a sandbox as it stands, sent just before each live
 * timeline event about it, so that a console replaces its row from the stream instead of
 * asking again. `record` is null once the sandbox is no longer live (deleted, or never made).
 */
export const sandboxUpdateSchema = z.object({ id: z.uuid(), record: sandboxRecordSchema.nullable() });
export type SandboxUpdate = z.infer<typeof sandboxUpdateSchema>;
