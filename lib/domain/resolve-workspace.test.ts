import { describe, expect, it } from "vitest";
import { resolveWorkspace } from "./resolve-workspace.ts";
import { aSpec, gatewayDefaults } from "./test-fixtures.ts";

function resolved(...args: Parameters<typeof resolveWorkspace>) {
  const result = resolveWorkspace(...args);
  if (!result.ok) throw new Error(`expected a workspace, got ${JSON.stringify(result.problems)}`);
  return result.workspace;
}

describe("resolveWorkspace", () => {
  it("takes everything from the gateway defaults when the spec says nothing", () => {
    expect(resolved(aSpec(), gatewayDefaults())).toEqual({
      backend: "pvc",
      mountPath: "/sandbox",
      claim: { ownership: "template", claimName: "workspace-my-box", size: "2Gi", storageClass: { kind: "cluster-default" }, accessModes: ["ReadWriteOnce"] },
      decidedBy: { backend: "gateway", mountPath: "gateway", size: "gateway", storageClass: "gateway" },
    });
  });

  it("takes the gateway's own choices when they are not the built-in ones", () => {
    const defaults = gatewayDefaults({ workspaceDefaultStorageSize: "20Gi", workspaceStorageClass: "standard", workspaceMountPath: "/home/agent" });
    expect(resolved(aSpec(), defaults)).toMatchObject({ mountPath: "/home/agent", claim: { size: "20Gi", storageClass: { kind: "named", name: "standard" } } });
  });

  it("lets driverConfig's backend beat the gateway's", () => {
    const spec = aSpec({ driverConfig: { kubernetes: { workspace_backend: "ephemeral" } } });
    expect(resolved(spec, gatewayDefaults({ workspaceBackend: "pvc" }))).toMatchObject({ backend: "ephemeral", decidedBy: { backend: "driverConfig" } });
  });

  it("lets driverConfig's size beat the gateway's", () => {
    const spec = aSpec({ driverConfig: { kubernetes: { workspace_default_storage_size: "10Gi" } } });
    expect(resolved(spec, gatewayDefaults())).toMatchObject({ claim: { size: "10Gi" }, decidedBy: { size: "driverConfig" } });
  });

  it("lets driverConfig's storage class beat the gateway's", () => {
    const spec = aSpec({ driverConfig: { kubernetes: { workspace_storage_class: "fast-ssd" } } });
    expect(resolved(spec, gatewayDefaults({ workspaceStorageClass: "standard" }))).toMatchObject({
      claim: { storageClass: { kind: "named", name: "fast-ssd" } },
      decidedBy: { storageClass: "driverConfig" },
    });
  });

  it('lets driverConfig\'s "" (no class) beat a gateway class, rather than falling through', () => {
    const spec = aSpec({ driverConfig: { kubernetes: { workspace_storage_class: "" } } });
    expect(resolved(spec, gatewayDefaults({ workspaceStorageClass: "standard" }))).toMatchObject({ claim: { storageClass: { kind: "none" } } });
  });

  it("lets the spec's own size beat driverConfig's", () => {
    const spec = aSpec({ workspace: { claim: { size: "50Gi" } }, driverConfig: { kubernetes: { workspace_default_storage_size: "10Gi" } } });
    expect(resolved(spec, gatewayDefaults())).toMatchObject({ claim: { size: "50Gi" }, decidedBy: { size: "spec" } });
  });

  it("lets the spec's own storage class beat driverConfig's", () => {
    const spec = aSpec({ workspace: { claim: { storageClassName: "" } }, driverConfig: { kubernetes: { workspace_storage_class: "fast-ssd" } } });
    expect(resolved(spec, gatewayDefaults())).toMatchObject({ claim: { storageClass: { kind: "none" } }, decidedBy: { storageClass: "spec" } });
  });

  it("lets the spec's own backend beat the gateway's", () => {
    expect(resolved(aSpec({ workspace: { backend: "pvc" } }), gatewayDefaults({ workspaceBackend: "ephemeral" }))).toMatchObject({ backend: "pvc", decidedBy: { backend: "spec" } });
  });

  it("names a retained claim after the sandbox unless the user names it", () => {
    expect(resolved(aSpec({ workspace: { claim: { ownership: "retain" } } }), gatewayDefaults())).toMatchObject({ claim: { ownership: "retain", claimName: "workspace-my-box" } });
  });

  it("makes a workspace ephemeral by the gateway default without complaint when the user asked for no storage", () => {
    expect(resolved(aSpec(), gatewayDefaults({ workspaceBackend: "ephemeral", workspaceDefaultStorageSize: "5Gi" }))).toEqual({
      backend: "ephemeral",
      mountPath: "/sandbox",
      decidedBy: { backend: "gateway", mountPath: "gateway" },
    });
  });

  it("refuses a size the user wrote for a workspace the gateway default makes ephemeral", () => {
    const result = resolveWorkspace(aSpec({ workspace: { claim: { size: "5Gi" } } }), gatewayDefaults({ workspaceBackend: "ephemeral" }));
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          code: "workspace.ephemeral-with-storage",
          path: ["workspace", "claim", "size"],
          message:
            "workspace.claim.size is set, but the gateway's default workspace backend is ephemeral: an ephemeral workspace is an emptyDir with no claim to size or give a class. Remove workspace.claim.size, or set workspace.backend to pvc",
        },
      ],
    });
  });

  it("refuses a driverConfig storage class for a workspace the gateway default makes ephemeral", () => {
    const result = resolveWorkspace(aSpec({ driverConfig: { kubernetes: { workspace_storage_class: "fast" } } }), gatewayDefaults({ workspaceBackend: "ephemeral" }));
    expect(result).toMatchObject({ ok: false, problems: [{ path: ["driverConfig", "kubernetes", "workspace_storage_class"] }] });
  });

  it("refuses claim fields on a workspace the gateway default makes ephemeral", () => {
    const result = resolveWorkspace(aSpec({ workspace: { claim: { ownership: "retain" } } }), gatewayDefaults({ workspaceBackend: "ephemeral" }));
    expect(result).toMatchObject({ ok: false, problems: [{ code: "workspace.claim-on-ephemeral", path: ["workspace", "claim", "ownership"] }] });
  });
});
