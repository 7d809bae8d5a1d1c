import type { GatewayDefaultKey } from "@/lib/domain/gateway-settings.ts";

// How each gateway default is presented, on the list, in the form and in the history. Names of
// variables and Helm values come from lib/config; the values' meaning from lib/domain.

export const SETTING_PRESENTATION: Record<GatewayDefaultKey, { label: string; description: string }> = {
  workspaceBackend: {
    label: "Workspace backend",
    description:
      "pvc keeps the workspace on a claim that survives pod replacement; ephemeral uses an emptyDir that starts fresh with every pod.",
  },
  workspaceDefaultStorageSize: {
    label: "Default storage size",
    description: "Size requested for a workspace claim when the sandbox does not ask for one.",
  },
  workspaceStorageClass: {
    label: "Storage class",
    description: "StorageClass for workspace claims: unset uses the cluster's default class, empty asks for no class.",
  },
  workspaceMountPath: {
    label: "Workspace mount path",
    description: "Where the workspace is mounted in the agent container.",
  },
  sandboxNamespace: {
    label: "Sandbox namespace",
    description: "Namespace new sandboxes are created in.",
  },
  labelPrefix: {
    label: "Label prefix",
    description: "Prefix of the labels Berth puts on the objects it creates.",
  },
};

/** A value as words when it stands for a meaning (an unset storage class), else the literal. */
export function displayValue(key: GatewayDefaultKey, value: unknown): { kind: "literal" | "meaning"; text: string } {
  if (key === "workspaceStorageClass") {
    if (value === null || value === undefined) return { kind: "meaning", text: "cluster default" };
    if (value === "") return { kind: "meaning", text: "no class" };
  }
  return typeof value === "string" ? { kind: "literal", text: value } : { kind: "meaning", text: "not set" };
}

export const isGatewayKey = (key: string): key is GatewayDefaultKey => key in SETTING_PRESENTATION;
