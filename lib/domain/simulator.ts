import { z } from "zod";
import { sandboxPhaseSchema } from "./sandbox-status.ts";

// The Simulator page's vocabulary: what a person may do to the embedded cluster's nodes and
// sandbox pods, what the page shows of the cluster, and what an action answers. Shared by the
// browser and the BFF routes under /api/v1/simulator, which speak for the simulated cluster's
// own fault API (/sim/v1 on its server).

/** What can be done to a node: kubectl's cordon/uncordon/drain, and losing its kubelet and getting it back. */
export const SIMULATOR_NODE_ACTIONS = ["cordon", "uncordon", "drain", "lose", "restore"] as const;
export const simulatorNodeActionSchema = z.enum(SIMULATOR_NODE_ACTIONS, {
  error: `the node action must be one of: ${SIMULATOR_NODE_ACTIONS.join(", ")}`,
});
export type SimulatorNodeAction = z.infer<typeof simulatorNodeActionSchema>;

/** What can be done to a pod: delete it, have the kubelet evict it under pressure, have the scheduler preempt it. */
export const SIMULATOR_POD_ACTIONS = ["delete", "kubelet-evict", "preempt"] as const;
export const simulatorPodActionSchema = z.enum(SIMULATOR_POD_ACTIONS, {
  error: `the pod action must be one of: ${SIMULATOR_POD_ACTIONS.join(", ")}`,
});
export type SimulatorPodAction = z.infer<typeof simulatorPodActionSchema>;

/** A node, namespace or pod name as Kubernetes allows it (a DNS subdomain). */
export const simulatorObjectNameSchema = z
  .string()
  .max(253, "a Kubernetes name is at most 253 characters")
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "a Kubernetes name is lower-case letters, digits, '-' and '.', starting and ending with a letter or digit");

/** The body of POST /api/v1/simulator/nodes/{name}/drain (every field optional; other node actions take none). */
export const simulatorDrainOptionsSchema = z.strictObject({
  /** As `kubectl drain --delete-emptydir-data`: without it, pods with an emptyDir are refused. */
  deleteEmptyDirData: z.boolean().default(true),
  /** Simulated seconds a budget may keep refusing an eviction before the drain gives up, as `--timeout`. */
  timeoutSeconds: z.int("timeoutSeconds must be a whole number of seconds").min(1).max(3600).default(120),
});
export type SimulatorDrainOptions = z.infer<typeof simulatorDrainOptionsSchema>;

/** What a drain did, in kubectl's terms: pods are named `namespace/pod`. */
export const drainReportSchema = z.object({
  node: z.string(),
  cordoned: z.boolean(),
  evicted: z.array(z.string()),
  /** Refused before eviction (an emptyDir without --delete-emptydir-data, no controller without --force). */
  refused: z.array(z.string()),
  /** kubectl's reason for each refusal, naming its pods. */
  refusals: z.array(z.string()),
  /** Their budget kept refusing the eviction until the timeout. */
  blocked: z.array(z.string()),
  /** Evicted, but still not gone at the timeout (a long grace period, a lost node). */
  terminating: z.array(z.string()),
  /** Every pod on the node was evicted and is gone. */
  completed: z.boolean(),
  log: z.array(z.string()),
});
export type DrainReport = z.infer<typeof drainReportSchema>;

/** A sandbox's pod as the Simulator page shows it: the pod to act on, the sandbox to follow. */
export const simulatorPodSchema = z.object({
  namespace: z.string(),
  pod: z.string(),
  sandbox: z.object({ id: z.string(), name: z.string(), phase: sandboxPhaseSchema, reason: z.string().nullable() }),
});
export type SimulatorPod = z.infer<typeof simulatorPodSchema>;

export const simulatorNodeSchema = z.object({
  name: z.string(),
  /** Its simulated kubelet runs; false from "lose" until "restore". */
  up: z.boolean(),
  /** The control plane's view: the Ready condition (it notices a lost kubelet after a grace period). */
  ready: z.boolean(),
  cordoned: z.boolean(),
  pods: z.array(simulatorPodSchema),
});
export type SimulatorNode = z.infer<typeof simulatorNodeSchema>;

/** GET /api/v1/simulator. */
export const simulatorStateSchema = z.object({
  /** The simulated cluster's clock (it may run faster than the wall clock). */
  clock: z.string(),
  nodes: z.array(simulatorNodeSchema),
  /** Sandboxes whose pod is on no node now: a replacement waiting to be scheduled, or none yet. */
  unscheduled: z.array(simulatorPodSchema),
});
export type SimulatorState = z.infer<typeof simulatorStateSchema>;

/** What a simulator action answers: a sentence on what happened, and a drain's full report. */
export const simulatorActionResultSchema = z.object({
  target: z.string(),
  action: z.union([simulatorNodeActionSchema, simulatorPodActionSchema]),
  message: z.string(),
  drain: drainReportSchema.nullable(),
});
export type SimulatorActionResult = z.infer<typeof simulatorActionResultSchema>;
