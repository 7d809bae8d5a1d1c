import type { ContainerSecurityContext, PodSecurityContext } from "./manifests.ts";

// Every sandbox pod is rendered to pass the Pod Security Standard `restricted` level
// (kubernetes.io/docs/concepts/security/pod-security-standards): no root, no privilege
// escalation, no capabilities, the runtime's default seccomp profile. Agent code runs inside, so
// it gets no service-account token (it has no business calling the Kubernetes API as anyone) and
// no environment variables naming the namespace's Services.

/**
 * The user every profile runs as: the community base image's `sandbox` user. A custom image
 * runs as it too, so its files must be readable by a user that is not root.
 */
export const SANDBOX_USER_ID = 1000;

// Functions, not shared objects: each manifest gets its own copy (a YAML dump of one object
// used twice would print an anchor and an alias).

export const podSecurityContext = (): PodSecurityContext => ({
  runAsNonRoot: true,
  runAsUser: SANDBOX_USER_ID,
  runAsGroup: SANDBOX_USER_ID,
  // The workspace volume is made group-writable for this group, so seeding it needs no root;
  // OnRootMismatch skips the walk over a large workspace when it already belongs to the group.
  fsGroup: SANDBOX_USER_ID,
  fsGroupChangePolicy: "OnRootMismatch",
  seccompProfile: { type: "RuntimeDefault" },
});

export const containerSecurityContext = (): ContainerSecurityContext => ({
  allowPrivilegeEscalation: false,
  capabilities: { drop: ["ALL"] },
});
