import { api } from "@/app/(console)/_components/api-client.ts";
import { allPages } from "@/lib/client/berth-client.ts";

// The detail page's queries and commands on one sandbox, through the API's typed client: the
// answers arrive in the domain's shapes, and failures as the server's own problem+json words.

const sandbox = (id: string) => ({ params: { id } });

export const sandboxQueries = {
  record: (id: string) => ({ queryKey: ["sandbox", id], queryFn: ({ signal }: { signal: AbortSignal }) => api.getSandbox({ ...sandbox(id), signal }) }),
  /** Every page of the timeline: a long-lived sandbox's newest events are the ones that matter most. */
  timeline: (id: string) => ({
    queryKey: ["sandbox", id, "timeline"],
    queryFn: ({ signal }: { signal: AbortSignal }) => allPages((cursor) => api.sandboxTimeline({ ...sandbox(id), query: cursor ? { cursor } : {}, signal })),
  }),
  checkpoints: (id: string) => ({ queryKey: ["sandbox", id, "checkpoints"], queryFn: async ({ signal }: { signal: AbortSignal }) => (await api.listCheckpoints({ ...sandbox(id), signal })).items }),
};

export type LifecycleAction = "stop" | "start" | "recover";

const LIFECYCLE = { stop: api.stopSandbox, start: api.startSandbox, recover: api.recoverSandbox } as const;

export const sandboxCommands = {
  lifecycle: (id: string, action: LifecycleAction) => LIFECYCLE[action](sandbox(id)),
  checkpoint: (id: string) => api.checkpointSandbox(sandbox(id)),
  remove: (id: string) => api.deleteSandbox(sandbox(id)),
  exec: (id: string, line: string, timeoutSeconds: number) => api.execInSandbox({ ...sandbox(id), body: { command: ["sh", "-c", line], timeoutSeconds } }),
};
