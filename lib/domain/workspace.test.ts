import { describe, expect, it } from "vitest";
import { problemsFromZodError } from "./problems.ts";
import { storageClassChoice, storageClassNameFor, workspaceSchema } from "./workspace.ts";

function problems(input: unknown) {
  const result = workspaceSchema.safeParse(input);
  return result.success ? [] : problemsFromZodError(result.error);
}

describe("workspaceSchema", () => {
  it("leaves every setting unset when the user chose nothing, so the defaults can decide", () => {
    expect(workspaceSchema.parse({})).toEqual({});
  });

  it("refuses an unknown backend and lists the known ones", () => {
    expect(problems({ backend: "hostPath" })).toMatchObject([{ path: ["backend"], message: "workspace backend must be one of: pvc, ephemeral" }]);
  });

  it("refuses a mount path that is not absolute", () => {
    expect(problems({ mountPath: "sandbox" })).toEqual([
      { code: "mount.invalid-path", path: ["mountPath"], message: "workspace.mountPath must be an absolute path such as /sandbox or /data/cache" },
    ]);
  });

  it("refuses the path Berth seeds the workspace through", () => {
    expect(problems({ mountPath: "/mnt" })).toMatchObject([{ code: "mount.reserved-path", path: ["mountPath"] }]);
  });

  it("refuses existing ownership without a claim name, at the claim name", () => {
    expect(problems({ claim: { ownership: "existing" } })).toEqual([
      {
        code: "workspace.existing-needs-claim-name",
        path: ["claim", "claimName"],
        message: "workspace.claim.claimName is required when ownership is existing: name the PersistentVolumeClaim to mount",
      },
    ]);
  });

  it("refuses a claim name with template ownership, since the controller names that claim", () => {
    expect(problems({ claim: { claimName: "mine" } })).toMatchObject([{ code: "workspace.claim-name-with-template", path: ["claim", "claimName"] }]);
  });

  it("refuses a size for an existing claim, which Berth never creates", () => {
    expect(problems({ claim: { ownership: "existing", claimName: "mine", size: "5Gi" } })).toMatchObject([
      { code: "claim.provisioning-ignored", path: ["claim", "size"] },
    ]);
  });

  it("refuses a size that is not a Kubernetes quantity", () => {
    expect(problems({ claim: { size: "2 gigabytes" } })).toMatchObject([
      { path: ["claim", "size"], message: "workspace.claim.size must be a positive Kubernetes quantity such as 2Gi, 500Mi or 10G" },
    ]);
  });

  it("refuses an unknown claim ownership", () => {
    expect(problems({ claim: { ownership: "shared" } })).toMatchObject([
      { path: ["claim", "ownership"], message: "claim ownership must be one of: template, retain, delete, existing" },
    ]);
  });

  it("refuses an empty list of access modes", () => {
    expect(problems({ claim: { accessModes: [] } })).toMatchObject([{ path: ["claim", "accessModes"], message: expect.stringContaining("at least one") }]);
  });

  it("refuses an access mode listed twice", () => {
    expect(problems({ claim: { accessModes: ["ReadWriteOnce", "ReadWriteOnce"] } })).toMatchObject([
      { code: "claim.duplicate-access-mode", path: ["claim", "accessModes", 1] },
    ]);
  });

  it("refuses an access mode Kubernetes does not have", () => {
    expect(problems({ claim: { accessModes: ["ReadWriteAll"] } })).toMatchObject([{ path: ["claim", "accessModes", 0] }]);
  });

  it("refuses a storage class name that is not a DNS subdomain", () => {
    expect(problems({ claim: { storageClassName: "Fast SSD" } })).toMatchObject([{ path: ["claim", "storageClassName"] }]);
  });
});

describe("storage class, three ways", () => {
  it("reads an absent class as the cluster default, which a claim leaves out", () => {
    expect(storageClassChoice(undefined)).toEqual({ kind: "cluster-default" });
    expect(storageClassNameFor({ kind: "cluster-default" })).toBeUndefined();
  });

  it('reads "" as no class, which a claim writes as ""', () => {
    expect(storageClassChoice("")).toEqual({ kind: "none" });
    expect(storageClassNameFor({ kind: "none" })).toBe("");
  });

  it("reads a name as that class", () => {
    expect(storageClassChoice("fast-ssd")).toEqual({ kind: "named", name: "fast-ssd" });
    expect(storageClassNameFor({ kind: "named", name: "fast-ssd" })).toBe("fast-ssd");
  });
});
