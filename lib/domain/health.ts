import { z } from "zod";
import { clusterModeSchema, storeKindSchema } from "./cluster-mode.ts";
import { agentSandboxInstallSchema } from "./agent-sandbox-install.ts";
import { sandboxApiVersionSchema } from "./sandbox-api.ts";

/** GET /api/health: what this server is connected to, and whether it can serve. */
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded", "failing"]),
  version: z.string(),
  startedAt: z.iso.datetime(),
  cluster: z.object({
    mode: clusterModeSchema,
    /** The API server's address; null while no connection is made. */
    server: z.string().nullable(),
    /** The served agents.x-k8s.io Sandbox version (v1beta1, else v1alpha1); null until discovered. */
    sandboxApiVersion: sandboxApiVersionSchema.nullable(),
    /** The agent-sandbox install as discovery shows it (versions used, half-migrated or not); null until discovered. */
    agentSandbox: agentSandboxInstallSchema.nullable(),
    connected: z.boolean(),
    message: z.string(),
  }),
  store: z.object({
    kind: storeKindSchema,
    ok: z.boolean(),
    message: z.string(),
  }),
  /** This replica, and the one that writes (the elected leader) as last seen; null while none is known. */
  leadership: z.object({ replica: z.string(), leader: z.string().nullable() }),
});
export type Health = z.infer<typeof healthSchema>;

/** What /api/health tells a caller who is not signed in: whether it serves, and nothing about what it is connected to. */
export const publicHealthSchema = healthSchema.pick({ status: true });
export type PublicHealth = z.infer<typeof publicHealthSchema>;

/** The answer: the whole report to a signed-in person, the status alone to anyone else. */
export const healthAnswerSchema = z.union([healthSchema, publicHealthSchema]);

/**
 * What a probe asks. `report`: can this server serve at all (503 only while its store fails).
 * `ready`: should traffic come here — only while the store answers and the cluster is reached and
 * serves the Sandbox API. `live`: is the process alive — yes while it answers, whatever the store
 * or the cluster do, since a restart mends neither.
 */
export const HEALTH_QUESTIONS = ["report", "ready", "live"] as const;
export type HealthQuestion = (typeof HEALTH_QUESTIONS)[number];

/** The path each question is asked on. */
export const HEALTH_PATHS: Record<HealthQuestion, string> = { report: "/api/health", ready: "/api/health/ready", live: "/api/health/live" };

