import { describe, expect, it } from "vitest";
import { problemsFromZodError } from "./problems.ts";
import { volumesSchema } from "./volumes.ts";

function aVolume(overrides: Record<string, unknown> = {}) {
  return { name: "data", pvc: { claimName: "data" }, mountPath: "/data", ...overrides };
}

function problems(input: unknown) {
  const result = volumesSchema.safeParse(input);
  return result.success ? [] : problemsFromZodError(result.error);
}

describe("volumesSchema", () => {
  it("fills in OpenSandbox's defaults: create if missing, keep on termination, read-write", () => {
    expect(volumesSchema.parse([aVolume()])).toEqual([
      { name: "data", pvc: { claimName: "data", createIfNotExists: true, deleteOnSandboxTermination: false }, mountPath: "/data", readOnly: false },
    ]);
  });

  it("refuses a mount path that is not absolute", () => {
    expect(problems([aVolume({ mountPath: "data" })])).toMatchObject([{ code: "mount.invalid-path", path: [0, "mountPath"] }]);
  });

  it("refuses an absolute subPath", () => {
    expect(problems([aVolume({ subPath: "/etc" })])).toMatchObject([{ code: "volume.invalid-sub-path", path: [0, "subPath"] }]);
  });

  it("refuses a subPath with ..", () => {
    expect(problems([aVolume({ subPath: "../other" })])).toEqual([
      { code: "volume.invalid-sub-path", path: [0, "subPath"], message: "subPath must not contain '..' (it would reach outside the volume)" },
    ]);
  });

  it("refuses a volume named workspace", () => {
    expect(problems([aVolume({ name: "workspace" })])).toMatchObject([{ code: "volume.reserved-name", path: [0, "name"] }]);
  });

  it("refuses two volumes with one name, at the second", () => {
    expect(problems([aVolume(), aVolume({ mountPath: "/other", pvc: { claimName: "other" } })])).toEqual([
      { code: "volume.duplicate-name", path: [1, "name"], message: "volume name 'data' is already used by volumes[0]; volume names must be unique" },
    ]);
  });

  it("refuses two mounts of one claim that disagree on createIfNotExists", () => {
    const second = aVolume({ name: "again", mountPath: "/again", pvc: { claimName: "data", createIfNotExists: false } });
    expect(problems([aVolume(), second])).toEqual([
      {
        code: "volume.claim-disagreement",
        path: [1, "pvc", "createIfNotExists"],
        message: "volumes[1] mounts claim data with createIfNotExists false, but volumes[0] mounts it with true; make both mounts agree",
      },
    ]);
  });

  it("refuses two mounts of one claim that disagree on deleteOnSandboxTermination", () => {
    const second = aVolume({ name: "again", mountPath: "/again", pvc: { claimName: "data", deleteOnSandboxTermination: true } });
    expect(problems([aVolume(), second])).toMatchObject([{ code: "volume.claim-disagreement", path: [1, "pvc", "deleteOnSandboxTermination"] }]);
  });

  it("accepts two mounts of one claim that agree, e.g. two subPaths", () => {
    const second = aVolume({ name: "again", mountPath: "/again", subPath: "b" });
    expect(problems([aVolume({ subPath: "a" }), second])).toEqual([]);
  });

  it("refuses two volumes at one path", () => {
    expect(problems([aVolume(), aVolume({ name: "other", pvc: { claimName: "other" } })])).toEqual([
      { code: "mount.duplicate-path", path: [1, "mountPath"], message: "volumes[1].mountPath /data is already used by volumes[0].mountPath; every mount needs its own path" },
    ]);
  });

  it("refuses a volume mounted inside another", () => {
    expect(problems([aVolume(), aVolume({ name: "other", mountPath: "/data/cache", pvc: { claimName: "other" } })])).toEqual([
      {
        code: "mount.nested-path",
        path: [1, "mountPath"],
        message: "volumes[1].mountPath /data/cache lies inside volumes[0].mountPath /data; mounts cannot be nested, choose separate paths",
      },
    ]);
  });

  it("refuses provisioning hints on a claim Berth will not create", () => {
    expect(problems([aVolume({ pvc: { claimName: "data", createIfNotExists: false, storage: "5Gi" } })])).toMatchObject([
      { code: "claim.provisioning-ignored", path: [0, "pvc", "storage"] },
    ]);
  });

  it("refuses a storage request that is not a Kubernetes quantity", () => {
    expect(problems([aVolume({ pvc: { claimName: "data", storage: "5 GB" } })])).toMatchObject([{ path: [0, "pvc", "storage"] }]);
  });
});
