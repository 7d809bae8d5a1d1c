import { z } from "zod";

/** POST /api/v1/sandboxes/{id}/exec: a command (argv, not a shell line) and how long it may run. */
export const execRequestSchema = z.strictObject({
  command: z.array(z.string()).min(1, "command needs at least the program to run, e.g. [\"sh\", \"-c\", \"ls /sandbox\"]"),
  timeoutSeconds: z.number().int().min(1).max(600, "timeoutSeconds must be at most 600").default(30),
});
export type ExecRequest = z.infer<typeof execRequestSchema>;
