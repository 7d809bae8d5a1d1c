import { describe, expect, it } from "vitest";
import type { StorageClassView } from "@/lib/domain/storage-class.ts";
import { workspaceAdvice, type WorkspaceChoice } from "./workspace-advice.ts";

// The create form's storage warnings, one situation each.

function aClass(name: string, overrides: Partial<StorageClassView> = {}): StorageClassView {
  return { name, provisioner: "csi.example.com", isDefault: false, volumeBindingMode: "Immediate", reclaimPolicy: "Delete", allowVolumeExpansion: false, placement: "portable", placementReason: "", snapshots: false, ...overrides };
}

const LOCAL = aClass("local-path", { isDefault: true, placement: "node-pinned" });
const PORTABLE = aClass("portable");

function adviceFor(overrides: Partial<WorkspaceChoice>): string[] {
  const choice: WorkspaceChoice = { backend: "pvc", ownership: "template", storageClass: { choice: "cluster-default", name: "" }, gatewayClass: undefined, classes: [LOCAL, PORTABLE], ...overrides };
  return workspaceAdvice(choice).map((advice) => advice.text);
}

describe("storage advice in the create form", () => {
  it("warns that an ephemeral workspace dies with its pod", () => {
    expect(adviceFor({ backend: "ephemeral" })).toEqual([expect.stringContaining("loses everything in it")]);
  });

  it("warns that the cluster has no default class and suggests ephemeral or a class", () => {
    expect(adviceFor({ classes: [PORTABLE] })).toEqual([expect.stringContaining("no default StorageClass")]);
  });

  it("warns that a node-pinned default strands the sandbox on a drain", () => {
    expect(adviceFor({})).toEqual([expect.stringContaining("local-path keeps the volume on one node")]);
  });

  it("has nothing to say about a portable class", () => {
    expect(adviceFor({ storageClass: { choice: "named", name: "portable" } })).toEqual([]);
  });

  it("follows the gateway's class when the person keeps the default", () => {
    expect(adviceFor({ gatewayClass: "portable" })).toEqual([]);
  });

  it("warns about a class the cluster does not have", () => {
    expect(adviceFor({ storageClass: { choice: "named", name: "gold" } })).toEqual([expect.stringContaining("no StorageClass named gold")]);
  });

  it("says what no class means", () => {
    expect(adviceFor({ storageClass: { choice: "none", name: "" } })).toEqual([expect.stringContaining("pre-provisioned PersistentVolume")]);
  });

  it("says nothing about the class of an existing claim", () => {
    expect(adviceFor({ ownership: "existing", classes: [PORTABLE] })).toEqual([]);
  });

  it("waits quietly while the classes load", () => {
    expect(adviceFor({ classes: null })).toEqual([]);
  });
});
