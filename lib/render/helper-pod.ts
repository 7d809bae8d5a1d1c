import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import type { ContainerSecurityContext } from "./manifests.ts";
import { containerSecurityContext } from "./pod-security.ts";

// What every helper pod Berth starts for a person has in common (the one that reads a claim, the
// one that copies a workspace): it runs once and ends by itself, holds no service-account token
// and no Service environment, goes at once when deleted, and its container has a read-only root
// and no privilege. Pure.

export type HelperContainerSecurityContext = ContainerSecurityContext & { readOnlyRootFilesystem: true; privileged: false };

export interface HelperPodLifetime {
  restartPolicy: "Never";
  activeDeadlineSeconds: number;
  automountServiceAccountToken: false;
  enableServiceLinks: false;
  terminationGracePeriodSeconds: 0;
}

export const helperPodLifetime = (deadlineSeconds: number): HelperPodLifetime => ({
  restartPolicy: "Never",
  activeDeadlineSeconds: deadlineSeconds,
  automountServiceAccountToken: false,
  enableServiceLinks: false,
  terminationGracePeriodSeconds: 0,
});

export const helperContainerSecurityContext = (): HelperContainerSecurityContext => ({ ...containerSecurityContext(), readOnlyRootFilesystem: true, privileged: false });

/** Label key: what kind of helper a pod is; every helper pod Berth makes carries it. */
export const helperLabelKey = (labelPrefix: string) => `${labelPrefix}/helper`;

/** The labels that find a helper of this kind: Berth's, and the kind. */
export const helperLabels = (labelPrefix: string, kind: string) => ({ [berthLabelKeys(labelPrefix).managedBy]: MANAGED_BY_BERTH, [helperLabelKey(labelPrefix)]: kind });
