import { z } from "zod";

// Settings of the embedded simulated cluster (used when no real cluster is configured, and by
// `npm run sim`), from BERTH_SIM_* environment variables.

export const simulatorConfigSchema = z.object({
  /** 0: any free port. */
  port: z.coerce.number().int().min(0).max(65535).default(0),
  /** Simulated seconds per real second: 60 makes a 5-minute toleration pass in 5 s. */
  clockScale: z.coerce.number().positive().max(10_000).default(1),
  workers: z.coerce.number().int().min(1).max(100).default(3),
  /** The cluster's default StorageClass: node-pinned local-path (as kind has), portable, or none. */
  defaultStorageClass: z
    .enum(["local-path", "portable", "none"])
    .default("local-path")
    .transform((value) => (value === "none" ? null : value)),
  /**
   * agent-sandbox group versions the cluster does not serve, comma-separated: `agents.x-k8s.io/v1alpha1,
   * extensions.agents.x-k8s.io/v1alpha1` stands for agent-sandbox 1.0, one group alone for a half-migrated install.
   */
  withdrawnVersions: z
    .string()
    .transform((value) => value.split(",").map((entry) => entry.trim()).filter(Boolean))
    .pipe(z.array(z.enum(["agents.x-k8s.io/v1alpha1", "agents.x-k8s.io/v1beta1", "extensions.agents.x-k8s.io/v1alpha1", "extensions.agents.x-k8s.io/v1beta1"])))
    .default([]),
});
export type SimulatorConfig = z.infer<typeof simulatorConfigSchema>;

export const SIMULATOR_VARIABLES = {
  port: "BERTH_SIM_PORT",
  clockScale: "BERTH_SIM_CLOCK_SCALE",
  workers: "BERTH_SIM_WORKERS",
  defaultStorageClass: "BERTH_SIM_DEFAULT_STORAGE_CLASS",
  withdrawnVersions: "BERTH_SIM_WITHDRAWN_VERSIONS",
} as const satisfies Record<keyof SimulatorConfig, string>;

const ALLOWED: Record<keyof SimulatorConfig, string> = {
  port: "a port number, or 0 for any free port",
  clockScale: "a positive number of simulated seconds per real second, such as 1 or 60",
  workers: "a whole number of worker nodes from 1 to 100",
  defaultStorageClass: "local-path, portable or none",
  withdrawnVersions: "a comma-separated list of agents.x-k8s.io/v1alpha1, agents.x-k8s.io/v1beta1, extensions.agents.x-k8s.io/v1alpha1, extensions.agents.x-k8s.io/v1beta1",
};

export function resolveSimulator(env: Record<string, string | undefined>, problems: string[]): SimulatorConfig | null {
  const raw = Object.fromEntries(
    Object.entries(SIMULATOR_VARIABLES).flatMap(([key, variable]) => (env[variable] !== undefined && env[variable] !== "" ? [[key, env[variable]]] : [])),
  );
  const result = simulatorConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const key = issue.path[0] as keyof SimulatorConfig;
    problems.push(`${SIMULATOR_VARIABLES[key]} = ${JSON.stringify(raw[key])}: ${issue.message}. Allowed: ${ALLOWED[key]}.`);
  }
  return null;
}
