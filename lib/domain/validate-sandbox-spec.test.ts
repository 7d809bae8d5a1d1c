import { describe, expect, it } from "vitest";
import { DEFAULT_GATEWAY_LIMITS } from "./gateway-limits.ts";
import { gatewayDefaults } from "./test-fixtures.ts";
import { validateSandboxSpec } from "./validate-sandbox-spec.ts";

function aVolume(overrides: Record<string, unknown> = {}) {
  return { name: "data", pvc: { claimName: "data" }, mountPath: "/data", ...overrides };
}

function problems(input: Record<string, unknown>, defaults = gatewayDefaults()) {
  const result = validateSandboxSpec({ name: "my-box", ...input }, defaults, DEFAULT_GATEWAY_LIMITS);
  return result.ok ? [] : result.problems;
}

describe("validateSandboxSpec", () => {
  it("returns the parsed spec and its resolved workspace", () => {
    const result = validateSandboxSpec({ name: "my-box", volumes: [aVolume()] }, gatewayDefaults(), DEFAULT_GATEWAY_LIMITS);
    expect(result).toMatchObject({ ok: true, spec: { name: "my-box" }, workspace: { backend: "pvc", mountPath: "/sandbox" } });
  });

  it("returns schema problems with their field paths", () => {
    expect(problems({ name: "my-box", profile: "robot" })).toMatchObject([{ path: ["profile"], message: expect.stringContaining("profile must be one of") }]);
  });

  it("returns the gateway-dependent problems of resolveWorkspace", () => {
    expect(problems({ workspace: { claim: { size: "5Gi" } } }, gatewayDefaults({ workspaceBackend: "ephemeral" }))).toMatchObject([
      { code: "workspace.ephemeral-with-storage" },
    ]);
  });

  it("refuses a volume mounted inside the workspace", () => {
    expect(problems({ volumes: [aVolume({ mountPath: "/sandbox/data" })] })).toEqual([
      {
        code: "mount.nested-path",
        path: ["volumes", 0, "mountPath"],
        message:
          "volumes[0].mountPath /sandbox/data lies inside the workspace mount path (gateway default) /sandbox; mounts cannot be nested, choose separate paths",
      },
    ]);
  });

  it("refuses a volume mounted above the workspace the user placed", () => {
    expect(problems({ workspace: { mountPath: "/home/agent/work" }, volumes: [aVolume({ mountPath: "/home/agent" })] })).toMatchObject([
      { code: "mount.nested-path", path: ["volumes", 0, "mountPath"], message: expect.stringContaining("contains workspace.mountPath /home/agent/work") },
    ]);
  });

  it("refuses a volume at the gateway's workspace mount path", () => {
    expect(problems({ volumes: [aVolume({ mountPath: "/home/agent" })] }, gatewayDefaults({ workspaceMountPath: "/home/agent" }))).toMatchObject([
      { code: "mount.duplicate-path", path: ["volumes", 0, "mountPath"] },
    ]);
  });

  it("refuses an extra volume on the workspace's own claim", () => {
    expect(problems({ workspace: { claim: { ownership: "retain" } }, volumes: [aVolume({ pvc: { claimName: "workspace-my-box" } })] })).toEqual([
      {
        code: "volume.workspace-claim",
        path: ["volumes", 0, "pvc", "claimName"],
        message: "volumes[0].pvc.claimName workspace-my-box is the workspace's own claim; mount the workspace once, or give this volume another claim",
      },
    ]);
  });

  it("lets a volume use that claim name when the workspace has no claim", () => {
    expect(problems({ workspace: { backend: "ephemeral" }, volumes: [aVolume({ pvc: { claimName: "workspace-my-box" } })] })).toEqual([]);
  });
});
