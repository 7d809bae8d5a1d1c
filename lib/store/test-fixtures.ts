// Small builders for store tests: each returns a valid object with unique names, and takes
// overrides for the one field a test is about.
import { randomBytes } from "node:crypto";
import type { NewSandbox } from "./sandbox-repository.ts";
import type { SandboxStatus } from "../domain/sandbox-status.ts";

export const uniqueName = (prefix = "box") => `${prefix}-${randomBytes(4).toString("hex")}`;

export function aNewSandbox(overrides: Partial<NewSandbox> = {}): NewSandbox {
  return {
    name: uniqueName(),
    namespace: "default",
    spec: { name: "ignored-by-the-store", profile: "generic", workspace: { backend: "pvc" } },
    workspaceBackend: "pvc",
    ...overrides,
  };
}

export function aStatus(overrides: Partial<SandboxStatus> = {}): SandboxStatus {
  return {
    phase: "Ready",
    reason: null,
    message: null,
    conditions: [],
    nodeName: "worker-1",
    podName: "box",
    podUid: "6f1c1f9e-0000-4000-8000-000000000001",
    previousNodeName: null,
    previousPodUid: null,
    details: {},
    ...overrides,
  };
}
