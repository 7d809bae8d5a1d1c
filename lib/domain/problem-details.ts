import { z } from "zod";

/** An error as application/problem+json (RFC 9457), with Berth's stable `code` and, for input problems, each field. */
export const problemDetailsSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })).optional(),
  /** The request's id, as in its X-Request-Id header and the server's log: what to quote when asking why. */
  requestId: z.string().optional(),
});
export type ProblemDetails = z.infer<typeof problemDetailsSchema>;
