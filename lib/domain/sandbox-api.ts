import { z } from "zod";

/** The agent-sandbox controller's API group (kubernetes-sigs/agent-sandbox). */
export const SANDBOX_API_GROUP = "agents.x-k8s.io";
export const SANDBOX_KIND = "Sandbox";

/**
 * Both served versions, newest first: v1beta1 is the storage version (spec.operatingMode),
 * v1alpha1 is deprecated but still served (spec.replicas). Discovery picks the first one the
 * cluster serves.
 */
export const SANDBOX_API_VERSIONS = ["v1beta1", "v1alpha1"] as const;
export const sandboxApiVersionSchema = z.enum(SANDBOX_API_VERSIONS);
export type SandboxApiVersion = z.infer<typeof sandboxApiVersionSchema>;

/** The label the agent-sandbox controller puts on every sandbox's pod and template claims. */
export const SANDBOX_NAME_HASH_LABEL = "agents.x-k8s.io/sandbox-name-hash";
