import { z } from "zod";
import { checkpointSchema } from "@/lib/domain/checkpoint.ts";
import { execResultSchema } from "@/lib/domain/exec-request.ts";
import { sandboxRecordSchema } from "@/lib/domain/sandbox-record.ts";
import { timelineEventSchema } from "@/lib/domain/timeline.ts";
import { problemDetailsSchema } from "@/lib/server/problem-details.ts";

// The detail page's calls to the sandbox API, read back into the domain shapes (JSON carries
// dates as strings), and its failures as the server's own problem+json words.

const date = z.coerce.date();
const sandboxJsonSchema = sandboxRecordSchema.extend({ provisionedAt: date.nullable(), createdAt: date, updatedAt: date, deletedAt: date.nullable() });
const timelineJsonSchema = z.object({ items: z.array(timelineEventSchema.extend({ occurredAt: date, recordedAt: date })), nextCursor: z.string().nullable() });
const checkpointJsonSchema = checkpointSchema.extend({ startedAt: date, finishedAt: date.nullable() });
const checkpointsJsonSchema = z.object({ items: z.array(checkpointJsonSchema) });
const deletedJsonSchema = z.object({ removedClaims: z.array(z.string()), keptClaims: z.array(z.string()) });

/** A refusal as the server put it: `title` says what failed, `detail` what to do about it. */
export class ProblemError extends Error {
  constructor(
    readonly title: string,
    readonly detail: string,
  ) {
    super(`${title}: ${detail}`);
    this.name = "ProblemError";
  }
}

async function call<Schema extends z.ZodType>(path: string, schema: Schema, init?: RequestInit): Promise<z.infer<Schema>> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ProblemError("The console cannot be reached", "Check the connection and try again.");
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = problemDetailsSchema.safeParse(body);
    throw problem.success ? new ProblemError(problem.data.title, problem.data.detail) : new ProblemError(`The server answered HTTP ${response.status}`, "It did not say why; the server log may.");
  }
  return schema.parse(body);
}

const post = (body?: unknown): RequestInit => ({
  method: "POST",
  ...(body === undefined ? {} : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
});

const base = (id: string) => `/api/v1/sandboxes/${encodeURIComponent(id)}`;

/** Every page of the timeline: a long-lived sandbox's newest events are the ones that matter most. */
async function wholeTimeline(id: string, signal: AbortSignal) {
  const events: z.infer<typeof timelineJsonSchema>["items"] = [];
  let cursor: string | null = null;
  do {
    const page: z.infer<typeof timelineJsonSchema> = await call(`${base(id)}/timeline${cursor ? `?cursor=${cursor}` : ""}`, timelineJsonSchema, { signal });
    events.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return events;
}

export const sandboxQueries = {
  record: (id: string) => ({ queryKey: ["sandbox", id], queryFn: ({ signal }: { signal: AbortSignal }) => call(base(id), sandboxJsonSchema, { signal }) }),
  timeline: (id: string) => ({ queryKey: ["sandbox", id, "timeline"], queryFn: ({ signal }: { signal: AbortSignal }) => wholeTimeline(id, signal) }),
  checkpoints: (id: string) => ({ queryKey: ["sandbox", id, "checkpoints"], queryFn: async ({ signal }: { signal: AbortSignal }) => (await call(`${base(id)}/checkpoints`, checkpointsJsonSchema, { signal })).items }),
};

export type LifecycleAction = "stop" | "start" | "recover";

export const sandboxCommands = {
  lifecycle: (id: string, action: LifecycleAction) => call(`${base(id)}/${action}`, z.unknown(), post()),
  checkpoint: (id: string) => call(`${base(id)}/checkpoint`, checkpointJsonSchema, post()),
  remove: (id: string) => call(base(id), deletedJsonSchema, { method: "DELETE" }),
  exec: (id: string, line: string, timeoutSeconds: number) => call(`${base(id)}/exec`, execResultSchema, post({ command: ["sh", "-c", line], timeoutSeconds })),
};
