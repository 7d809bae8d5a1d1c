import { z } from "zod";
import { drainReportSchema, type DrainReport, type SimulatorDrainOptions } from "../domain/simulator.ts";

// The embedded simulated cluster's fault API (`/sim/v1/...` on its API server), over HTTP. The
// product never imports lib/sim (DESIGN.md): it reaches the simulator the way scripts/sim.ts
// does, and checks every answer, so a change on the simulator's side fails here, loudly.

/** The fault API answered with a Kubernetes Status error (an unknown node or pod is a 404). */
export class SimulatorRequestError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    // Told apart by name (see api-problems.ts): route bundles may hold their own copy of this class.
    this.name = "SimulatorRequestError";
  }
}

const statusSchema = z.object({ message: z.string(), reason: z.string().optional(), code: z.number().optional() });

const simulatorStateSchema = z.object({
  clock: z.string(),
  nodes: z.array(z.object({ name: z.string(), up: z.boolean() })),
});
export type SimulatorClusterState = z.infer<typeof simulatorStateSchema>;

const okSchema = z.object({ ok: z.literal(true) });

const nodeSchema = z.object({ metadata: z.object({ name: z.string() }), spec: z.object({ unschedulable: z.boolean().optional() }).optional() });

/** A pod as the fault API answers after acting on it (deleted ones carry a deletionTimestamp). */
const podSchema = z.object({
  metadata: z.object({ name: z.string(), namespace: z.string(), uid: z.string().optional(), deletionTimestamp: z.string().optional() }),
  status: z.object({ phase: z.string().optional(), reason: z.string().optional() }).optional(),
});
export type SimulatorPodAnswer = z.infer<typeof podSchema>;

const segment = encodeURIComponent;

/** The fault API at `serverUrl`, called with `token` (Berth's own: RBAC grants it the /sim/v1 URLs). */
export function simulatorClient(serverUrl: string, token: string | undefined) {
  async function call<Schema extends z.ZodType>(method: "GET" | "POST", path: string, schema: Schema, body?: unknown): Promise<z.infer<Schema>> {
    let response: Response;
    try {
      response = await fetch(`${serverUrl}/sim/v1/${path}`, {
        method,
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new SimulatorRequestError(503, "Unreachable", `The simulated cluster at ${serverUrl} does not answer: ${(error as Error).message}`);
    }
    const answer: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const status = statusSchema.safeParse(answer);
      throw new SimulatorRequestError(response.status, status.data?.reason ?? "Unknown", status.data?.message ?? `HTTP ${response.status} from ${method} /sim/v1/${path}`);
    }
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new SimulatorRequestError(502, "BadAnswer", `The simulated cluster answered ${method} /sim/v1/${path} with something unexpected: ${parsed.error.message}`);
    return parsed.data;
  }

  const nodePath = (node: string, action: string) => `nodes/${segment(node)}/${action}`;
  const podPath = (namespace: string, pod: string, action: string) => `namespaces/${segment(namespace)}/pods/${segment(pod)}/${action}`;

  return {
    /** The simulated clock and which nodes' kubelets run. */
    state: (): Promise<SimulatorClusterState> => call("GET", "state", simulatorStateSchema),
    cordon: (node: string) => call("POST", nodePath(node, "cordon"), nodeSchema),
    uncordon: (node: string) => call("POST", nodePath(node, "uncordon"), nodeSchema),
    /** kubectl drain; answers when it is done or has given up (after `timeoutSeconds` of simulated time). */
    drain: (node: string, options: SimulatorDrainOptions): Promise<DrainReport> => call("POST", nodePath(node, "drain"), drainReportSchema, options),
    /** The node's kubelet stops: no heartbeats; the control plane marks it NotReady after its grace period. */
    lose: (node: string) => call("POST", nodePath(node, "lose"), okSchema),
    restore: (node: string) => call("POST", nodePath(node, "restore"), okSchema),
    deletePod: (namespace: string, pod: string, force = false): Promise<SimulatorPodAnswer> => call("POST", podPath(namespace, pod, "delete"), podSchema, { force }),
    kubeletEvict: (namespace: string, pod: string, resource: "memory" | "ephemeral-storage" | "pid" = "memory"): Promise<SimulatorPodAnswer> =>
      call("POST", podPath(namespace, pod, "kubelet-evict"), podSchema, { resource }),
    preempt: (namespace: string, pod: string): Promise<SimulatorPodAnswer> => call("POST", podPath(namespace, pod, "preempt"), podSchema, {}),
  };
}
export type SimulatorClient = ReturnType<typeof simulatorClient>;
