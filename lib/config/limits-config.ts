import { z } from "zod";
import { gatewayLimitsSchema, berthEnvironmentVariable, type GatewayLimits } from "../domain/gateway-limits.ts";

// The limits a platform team sets, from the environment (BERTH_MAX_CPU, …) or the config file's
// `limits:` section (the Helm values' `limits:` one for one). Environment wins over the file.

const perMinute = (key: string, fallback: number) => z.coerce.number().int(`${key} must be a whole number`).min(1, `${key} must be at least 1`).default(fallback);

export const requestLimitsSchema = z.object({
  /** Largest request body Berth reads; a larger one is answered 413 before it is parsed. */
  maxBodyBytes: z.coerce.number().int("maxBodyBytes must be a whole number of bytes").min(1024, "maxBodyBytes must be at least 1024").default(1024 * 1024),
  /** Sandboxes one person may create per minute (in bursts of up to as many). */
  createsPerMinute: perMinute("createsPerMinute", 30),
  /** Commands and checkpoints one person may run per minute. */
  commandsPerMinute: perMinute("commandsPerMinute", 120),
  /** Other changes one person may make per minute. */
  writesPerMinute: perMinute("writesPerMinute", 300),
  /**
   * Sign-ins from one address per minute, before anyone is signed in: berth login's code
   * exchange and device codes, token sign-in (each costs a provider or TokenReview call).
   */
  signInsPerMinute: perMinute("signInsPerMinute", 30),
  /** Event streams one person may have open at once (a browser tab holds one). */
  streamsPerPerson: z.coerce.number().int("streamsPerPerson must be a whole number").min(1, "streamsPerPerson must be at least 1").default(10),
});
export type RequestLimits = z.infer<typeof requestLimitsSchema>;

export type LimitsConfig = GatewayLimits & RequestLimits;

const limitsSchema = gatewayLimitsSchema.extend(requestLimitsSchema.shape);

export const LIMIT_KEYS = Object.keys(limitsSchema.shape) as (keyof LimitsConfig)[];

/** The limits in effect, or null after adding each problem (naming the variable or file key) to `problems`. */
export function resolveLimits(env: Record<string, string | undefined>, fromFile: Record<string, unknown>, file: string | null, problems: string[]): LimitsConfig | null {
  const raw: Record<string, unknown> = {};
  const where: Record<string, string> = {};
  for (const key of LIMIT_KEYS) {
    const variable = berthEnvironmentVariable(key);
    if (env[variable] !== undefined && env[variable] !== "") {
      raw[key] = env[variable];
      where[key] = variable;
    } else if (fromFile[key] !== undefined) {
      raw[key] = fromFile[key];
      where[key] = `limits.${key} in ${file}`;
    }
  }
  const result = limitsSchema.safeParse(raw);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const key = String(issue.path[0]);
    problems.push(`${where[key] ?? key} = ${JSON.stringify(raw[key])}: ${issue.message}.`);
  }
  return null;
}
