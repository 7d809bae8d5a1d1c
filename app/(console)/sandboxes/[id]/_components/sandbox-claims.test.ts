import { describe, expect, it } from "vitest";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { aSpec, gatewayDefaults } from "@/lib/domain/test-fixtures.ts";
import { claimsByFate } from "./claim-fate.ts";
import { sandboxStorage, withClaimUsage } from "./sandbox-claims.ts";

const aRecord = (spec: Record<string, unknown>, workspaceBackend: SandboxRecord["workspaceBackend"] = "pvc") => ({
  id: "5b9f3c2e-8d4a-4c1e-9f7a-2b6d8e0c1a3f",
  name: "my-box",
  namespace: "default",
  spec,
  workspaceBackend,
});

const extraVolume = (name: string, pvc: Record<string, unknown>) => ({ name, mountPath: `/data/${name}`, pvc: { claimName: `${name}-claim`, ...pvc } });

describe("the claims a sandbox mounts", () => {
  it.each([
    { story: "the default: the controller's template claim", spec: aSpec(), claims: [{ name: "workspace-my-box", ownership: "template", mountedBy: ["workspace"] }] },
    { story: "a retained workspace claim", spec: aSpec({ workspace: { claim: { ownership: "retain" } } }), claims: [{ name: "workspace-my-box", ownership: "retain", mountedBy: ["workspace"] }] },
    { story: "a claim brought by the user", spec: aSpec({ workspace: { claim: { ownership: "existing", claimName: "mine" } } }), claims: [{ name: "mine", ownership: "existing", mountedBy: ["workspace"] }] },
    {
      story: "extra volumes, by their lifecycle flags",
      spec: aSpec({ volumes: [extraVolume("cache", { deleteOnSandboxTermination: true }), extraVolume("data", {})] }),
      claims: [
        { name: "workspace-my-box", ownership: "template", mountedBy: ["workspace"] },
        { name: "cache-claim", ownership: "delete", mountedBy: ["cache"] },
        { name: "data-claim", ownership: "retain", mountedBy: ["data"] },
      ],
    },
  ])("$story", ({ spec, claims }) => {
    expect(sandboxStorage(aRecord(spec), gatewayDefaults()).claims).toEqual(claims.map((claim) => ({ ...claim, usage: null })));
  });

  it("has no claim for an ephemeral workspace", () => {
    expect(sandboxStorage(aRecord(aSpec(), "ephemeral"), gatewayDefaults())).toEqual({ backend: "ephemeral", mountPath: "/sandbox", claims: [] });
  });

  it("gives a sandbox found in the cluster the controller's workspace claim", () => {
    expect(sandboxStorage(aRecord({ name: "my-box", namespace: "default" }), gatewayDefaults({ workspaceBackend: "ephemeral" })).claims.map((claim) => claim.ownership)).toEqual(["template"]);
  });
});

describe("the figures of each claim", () => {
  it("go to the claims measured, by name; the others have none", () => {
    const spec = aSpec({ volumes: [extraVolume("data", {})] });
    const measured = { usedBytes: 4096, capacityBytes: 8192, usageObservedAt: "2026-12-06T08:00:00Z", usageUnknownReason: null };
    const storage = withClaimUsage(sandboxStorage(aRecord(spec), gatewayDefaults()), new Map([["data-claim", measured]]));
    expect(storage.claims.map((claim) => [claim.name, claim.usage])).toEqual([["workspace-my-box", null], ["data-claim", measured]]);
  });
});

describe("what a delete does to each claim", () => {
  it("removes template and delete claims, keeps retain and existing ones", () => {
    const spec = aSpec({ volumes: [extraVolume("cache", { deleteOnSandboxTermination: true }), extraVolume("data", {}), extraVolume("byo", { createIfNotExists: false })] });
    const fates = claimsByFate(sandboxStorage(aRecord(spec), gatewayDefaults()).claims);
    expect({ removed: fates.removed.map((claim) => claim.name), kept: fates.kept.map((claim) => claim.name) }).toEqual({ removed: ["workspace-my-box", "cache-claim"], kept: ["data-claim", "byo-claim"] });
  });
});
