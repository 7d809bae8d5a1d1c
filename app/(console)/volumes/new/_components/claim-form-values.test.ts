import { describe, expect, it } from "vitest";
import type { StorageClassView } from "@/lib/domain/storage-class.ts";
import { checkedClaimRequest, claimFieldOf, claimRequestOf, fillAdvice, initialClaimValues, type ClaimFormValues } from "./claim-form-values.ts";

// The claim form's values as the request it sends, and the server's problems placed on its fields.

const filled = (changes: Partial<ClaimFormValues> = {}): ClaimFormValues => ({ ...initialClaimValues("team-a"), name: "datasets", size: "20Gi", ...changes });

describe("the claim form's request", () => {
  it("leaves the class out for the cluster default and sends no source for an empty claim", () => {
    expect(claimRequestOf(filled())).toEqual({ namespace: "team-a", name: "datasets", size: "20Gi", accessModes: ["ReadWriteOnce"], retain: true });
  });

  it("sends \"\" for no class", () => {
    expect(claimRequestOf(filled({ storageClass: { choice: "none", name: "" } })).storageClassName).toBe("");
  });

  it("names the snapshot a restore starts from", () => {
    expect(claimRequestOf(filled({ source: { kind: "VolumeSnapshot", name: " monday " } })).dataSource).toEqual({ kind: "VolumeSnapshot", name: "monday" });
  });

  it("is refused on the class field when a class is to be chosen and none is", () => {
    const checked = checkedClaimRequest(filled({ storageClass: { choice: "named", name: "" } }));
    expect(checked.ok ? [] : checked.problems.map((problem) => claimFieldOf(problem.path))).toEqual(["storageClass.name"]);
  });

  it("is refused on the size field as the server would refuse it", () => {
    const checked = checkedClaimRequest(filled({ size: "lots" }));
    expect(checked.ok ? [] : checked.problems.map((problem) => claimFieldOf(problem.path))).toEqual(["size"]);
  });
});

describe("a problem's field", () => {
  it.each([
    [["dataSource", "name"], "source.name"],
    [["storageClassName"], "storageClass.name"],
    [["accessModes", 1], "accessModes"],
    [[], null],
  ] as const)("%j is shown on %s", (path, field) => {
    expect(claimFieldOf([...path])).toBe(field);
  });
});

describe("the warning before filling a claim from a source", () => {
  const aClass = (snapshots: boolean): StorageClassView => ({ name: snapshots ? "portable" : "local-path", provisioner: "p", isDefault: false, volumeBindingMode: "Immediate", reclaimPolicy: "Delete", allowVolumeExpansion: false, placement: "portable", placementReason: "", snapshots });

  it("is given for a class whose driver takes no snapshots", () => {
    expect(fillAdvice("VolumeSnapshot", aClass(false))?.text).toContain("the claim would be empty");
  });

  it("is not given for a class whose driver takes snapshots", () => {
    expect(fillAdvice("PersistentVolumeClaim", aClass(true))).toBeNull();
  });

  it("is not given for an empty claim", () => {
    expect(fillAdvice("empty", aClass(false))).toBeNull();
  });
});
