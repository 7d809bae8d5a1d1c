import { z } from "zod";

/** POST /api/v1/sandboxes/{id}/exec: a command (argv, not a shell line) and how long it may run. */
export const execRequestSchema = z.strictObject({
  command: z.array(z.string()).min(1, "command needs at least the program to run, e.g. [\"sh\", \"-c\", \"ls /sandbox\"]"),
  timeoutSeconds: z.number().int().min(1).max(600, "timeoutSeconds must be at most 600").default(30),
});
export type ExecRequest = z.infer<typeof execRequestSchema>;

/** What POST /api/v1/sandboxes/{id}/exec answers: the command ran (whatever its exit code). */
export const execResultSchema = z.object({
  exitCode: z.number().int(),
  stdout: z.string(),
  stderr: z.string(),
});
export type ExecResultBody = z.infer<typeof execResultSchema>;
