import { z } from "zod";
import { dns1123Subdomain } from "./kubernetes-names.ts";
import { report } from "./problems.ts";
import { envValueSchema, MAX_ENV_VARIABLES } from "./spec-sizes.ts";

// A sandbox's environment, three ways: a plain value (stored and shown as it is), a secret value
// (`secret: true`: written into a Secret of the sandbox's own and referenced from the pod, never
// stored by Berth, returned or shown: once stored, the variable is `{name, secret: true}`), or a
// key of a Secret that already exists in the namespace (`valueFrom.secretKeyRef`).

// k8s.io/apimachinery IsEnvVarName: what the API server accepts for env[].name.
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
// IsConfigMapKey: what a Secret's data keys may be.
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

export const secretKeyRefSchema = z.strictObject({
  name: dns1123Subdomain("valueFrom.secretKeyRef.name"),
  key: z.string().min(1, "valueFrom.secretKeyRef.key is required").max(253).regex(SECRET_KEY, "valueFrom.secretKeyRef.key must consist of letters, digits, '-', '_' or '.'"),
});

export const envVarSchema = z
  .strictObject({
    name: z
      .string()
      .min(1, "env name is required")
      .max(256, "env name must be at most 256 characters")
      .regex(ENV_NAME, "env name must consist of letters, digits, '_', '-' or '.', and must not start with a digit (e.g. 'API_BASE_URL')"),
    /** Absent only for a secret value Berth has stored away, or a reference. */
    value: envValueSchema.optional(),
    /** The value is a secret: kept in the sandbox's own Secret, never by Berth. */
    secret: z.literal(true, { error: "secret must be true, or left out" }).optional(),
    valueFrom: z.strictObject({ secretKeyRef: secretKeyRefSchema }).optional(),
  })
  .superRefine((variable, ctx) => {
    if (variable.valueFrom && (variable.value !== undefined || variable.secret)) {
      report(ctx, "env.value-and-reference", ["valueFrom"], `env ${variable.name} has both a value and valueFrom: give one of them`);
    }
    if (!variable.valueFrom && variable.value === undefined && !variable.secret) {
      report(ctx, "env.no-value", ["value"], `env ${variable.name} needs a value, or valueFrom.secretKeyRef naming a Secret and key`);
    }
  });
export type EnvVar = z.infer<typeof envVarSchema>;

export const envSchema = z
  .array(envVarSchema)
  .max(MAX_ENV_VARIABLES, `env may have at most ${MAX_ENV_VARIABLES} variables`)
  .superRefine((env, ctx) => {
    const seen = new Set<string>();
    env.forEach((variable, index) => {
      if (seen.has(variable.name)) {
        // Kubernetes keeps the last duplicate without a word; the first one the user typed would vanish.
        report(ctx, "env.duplicate-name", [index, "name"], `env ${variable.name} is set twice; keep one of them`);
      }
      seen.add(variable.name);
    });
  });

/** The environment as Berth stores and shows it: every secret value taken out. */
export function withoutSecretValues(env: EnvVar[]): EnvVar[] {
  return env.map((variable) => (variable.secret ? { name: variable.name, secret: true as const } : variable));
}

/** The secret values a create was given, by variable name: what goes into the sandbox's Secret. */
export function secretValues(env: EnvVar[]): Record<string, string> {
  return Object.fromEntries(env.filter((variable) => variable.secret && variable.value !== undefined).map((variable) => [variable.name, variable.value!]));
}

/** The name of the Secret a sandbox's secret values live in. */
export const sandboxSecretName = (sandboxName: string) => `${sandboxName}-berth-env`;
