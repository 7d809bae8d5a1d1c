import { z } from "zod";
import { report } from "./problems.ts";
import { envValueSchema, MAX_ENV_VARIABLES } from "./spec-sizes.ts";

// k8s.io/apimachinery IsEnvVarName: what the API server accepts for env[].name.
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

export const envVarSchema = z.strictObject({
  name: z
    .string()
    .min(1, "env name is required")
    .max(256, "env name must be at most 256 characters")
    .regex(ENV_NAME, "env name must consist of letters, digits, '_', '-' or '.', and must not start with a digit (e.g. 'API_BASE_URL')"),
  value: envValueSchema,
});

export const envSchema = z.array(envVarSchema).max(MAX_ENV_VARIABLES, `env may have at most ${MAX_ENV_VARIABLES} variables`).superRefine((env, ctx) => {
  const seen = new Set<string>();
  env.forEach((variable, index) => {
    if (seen.has(variable.name)) {
      // Kubernetes keeps the last duplicate without a word; the first one the user typed would vanish.
      report(ctx, "env.duplicate-name", [index, "name"], `env ${variable.name} is set twice; keep one of them`);
    }
    seen.add(variable.name);
  });
});
export type EnvVar = z.infer<typeof envVarSchema>;
