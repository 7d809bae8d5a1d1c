import { z } from "zod";

/** A Secret as the create form may offer it: its name and its keys, never its values. */
export const secretNameSchema = z.object({ name: z.string(), keys: z.array(z.string()) });
export type SecretName = z.infer<typeof secretNameSchema>;

export const secretNamesSchema = z.object({ items: z.array(secretNameSchema) });

/**
 * Kinds of Secret no sandbox variable should come from: tokens and registry credentials meant
 * for Kubernetes itself, and Helm's release records.
 */
export const UNOFFERED_SECRET_TYPES = ["kubernetes.io/service-account-token", "kubernetes.io/dockercfg", "kubernetes.io/dockerconfigjson", "helm.sh/release.v1", "bootstrap.kubernetes.io/token"];
