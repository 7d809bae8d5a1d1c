import { z } from "zod";
import { checkpointSchema } from "@/lib/domain/checkpoint.ts";
import { execResultSchema } from "@/lib/domain/exec-request.ts";
import { sandboxRecordSchema } from "@/lib/domain/sandbox-record.ts";
import { storedEventFields, timelineEventSchemaWith } from "@/lib/domain/timeline.ts";
import { callApi } from "@/app/(console)/_components/api-client.ts";

// The detail page's calls to the sandbox API, read back into the domain shapes (JSON carries
// dates as strings), and its failures as the server's own problem+json words.

const date = z.coerce.date();
const sandboxJsonSchema = sandboxRecordSchema.extend({ provisionedAt: date.nullable(), createdAt: date, updatedAt: date, deletedAt: date.nullable() });
const timelineJsonSchema = z.object({ items: z.array(timelineEventSchemaWith({ ...storedEventFields, occurredAt: date, recordedAt: date })), nextCursor: z.string().nullable() });
const checkpointJsonSchema = checkpointSchema.extend({ startedAt: date, finishedAt: date.nullable() });
const checkpointsJsonSchema = z.object({ items: z.array(checkpointJsonSchema) });
const deletedJsonSchema = z.object({ removedClaims: z.array(z.string()), keptClaims: z.array(z.string()) });

const base = (id: string) => `/api/v1/sandboxes/${encodeURIComponent(id)}`;

/** Every page of the timeline: a long-lived sandbox's newest events are the ones that matter most. */
async function wholeTimeline(id: string, signal: AbortSignal) {
  const events: z.infer<typeof timelineJsonSchema>["items"] = [];
  let cursor: string | null = null;
  do {
    const page: z.infer<typeof timelineJsonSchema> = await callApi(`${base(id)}/timeline${cursor ? `?cursor=${cursor}` : ""}`, timelineJsonSchema, { signal });
    events.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return events;
}

export const sandboxQueries = {
  record: (id: string) => ({ queryKey: ["sandbox", id], queryFn: ({ signal }: { signal: AbortSignal }) => callApi(base(id), sandboxJsonSchema, { signal }) }),
  timeline: (id: string) => ({ queryKey: ["sandbox", id, "timeline"], queryFn: ({ signal }: { signal: AbortSignal }) => wholeTimeline(id, signal) }),
  checkpoints: (id: string) => ({ queryKey: ["sandbox", id, "checkpoints"], queryFn: async ({ signal }: { signal: AbortSignal }) => (await callApi(`${base(id)}/checkpoints`, checkpointsJsonSchema, { signal })).items }),
};

export type LifecycleAction = "stop" | "start" | "recover";

export const sandboxCommands = {
  lifecycle: (id: string, action: LifecycleAction) => callApi(`${base(id)}/${action}`, z.unknown(), { method: "POST" }),
  checkpoint: (id: string) => callApi(`${base(id)}/checkpoint`, checkpointJsonSchema, { method: "POST" }),
  remove: (id: string) => callApi(base(id), deletedJsonSchema, { method: "DELETE" }),
  exec: (id: string, line: string, timeoutSeconds: number) => callApi(`${base(id)}/exec`, execResultSchema, { method: "POST", body: { command: ["sh", "-c", line], timeoutSeconds } }),
};
