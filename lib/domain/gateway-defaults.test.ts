import { describe, expect, it } from "vitest";
import { gatewayDefaultsSchema } from "./gateway-defaults.ts";

const parse = (input: object) => gatewayDefaultsSchema.safeParse(input);

describe("gateway defaults", () => {
  it("default to a 2Gi pvc workspace at /sandbox in the default namespace", () => {
    expect(gatewayDefaultsSchema.parse({})).toEqual({
      workspaceBackend: "pvc",
      workspaceDefaultStorageSize: "2Gi",
      workspaceMountPath: "/sandbox",
      sandboxNamespace: "default",
      labelPrefix: "berth.dev",
    });
  });

  it("refuse an unknown workspace backend, listing the known ones", () => {
    expect(parse({ workspaceBackend: "hostPath" }).error?.issues[0]?.message).toBe("workspace backend must be one of: pvc, ephemeral");
  });

  it.each(["sandbox", "/sandbox/", "/a/../b", "/..", "/", "/mnt/berth-workspace", "/mnt"])("refuse the mount path %j", (workspaceMountPath) => {
    expect(parse({ workspaceMountPath }).success).toBe(false);
  });

  it("accept the empty storage class, which means no class", () => {
    expect(parse({ workspaceStorageClass: "" }).data?.workspaceStorageClass).toBe("");
  });

  it("refuse a storage class name with capitals", () => {
    expect(parse({ workspaceStorageClass: "Fast" }).success).toBe(false);
  });
});
