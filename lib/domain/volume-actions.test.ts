import { describe, expect, it } from "vitest";
import { expansionProblem, isSettling, mayDelete, mayStartSandboxFrom, startFromClaimHref } from "./volume-actions.ts";

const GONE = { id: "6f1c1f9e-0000-4000-8000-000000000002", name: "old", deleted: true };
const LIVE = { ...GONE, deleted: false };

describe("the Volumes page's rules", () => {
  it("let a claim grow, never shrink or stay", () => {
    expect(expansionProblem("2Gi", "3Gi")).toBeNull();
    expect(expansionProblem("2Gi", "2048Mi")).toMatch(/larger than the claim's current 2Gi/);
    expect(expansionProblem("2Gi", "1Gi")).not.toBeNull();
  });

  it("offer delete only for a claim nothing uses and no live sandbox owns", () => {
    expect(mayDelete({ state: "detached", sandbox: GONE, phase: "Bound" })).toBe(true);
    expect(mayDelete({ state: "orphaned", sandbox: null, phase: "Bound" })).toBe(true);
    expect(mayDelete({ state: "detached", sandbox: LIVE, phase: "Bound" })).toBe(false);
    expect(mayDelete({ state: "attached", sandbox: GONE, phase: "Bound" })).toBe(false);
    expect(mayDelete({ state: "detached", sandbox: GONE, phase: "Terminating" })).toBe(false);
  });

  it("offer a new sandbox from retained and existing claims that are free", () => {
    expect(mayStartSandboxFrom({ state: "detached", sandbox: GONE, ownership: "retain", phase: "Bound" })).toBe(true);
    expect(mayStartSandboxFrom({ state: "detached", sandbox: GONE, ownership: "existing", phase: "Bound" })).toBe(true);
    expect(mayStartSandboxFrom({ state: "orphaned", sandbox: GONE, ownership: "delete", phase: "Bound" })).toBe(false);
    expect(mayStartSandboxFrom({ state: "detached", sandbox: LIVE, ownership: "retain", phase: "Bound" })).toBe(false);
    expect(startFromClaimHref({ namespace: "default", name: "workspace-box" })).toBe("/sandboxes/new?claim=default/workspace-box");
  });

  it("know when a claim is on its way somewhere no timeline event will announce", () => {
    const bound = { requested: "2Gi", capacity: "2Gi", phase: "Bound", state: "detached" as const, sandbox: GONE, attachedTo: null, createdAt: "2026-12-06T05:00:00Z" };
    expect(isSettling(bound)).toBe(false);
    expect(isSettling({ ...bound, requested: "3Gi" })).toBe(true);
    expect(isSettling({ ...bound, phase: "Terminating" })).toBe(true);
    expect(isSettling({ ...bound, state: "attached", attachedTo: { pod: "old", nodeName: "worker-1" } })).toBe(true);
    expect(isSettling({ ...bound, state: "attached", attachedTo: { pod: "new-box", nodeName: "worker-1" } })).toBe(false);
  });

  it("look again at a new Pending claim until a provisioner had time to answer, and not at an old one", () => {
    const pending = { requested: "2Gi", capacity: null, phase: "Pending", state: "detached" as const, sandbox: null, attachedTo: null, createdAt: "2026-12-06T05:00:00Z" };
    expect(isSettling(pending, Date.parse("2026-12-06T05:00:30Z"))).toBe(true);
    expect(isSettling(pending, Date.parse("2026-12-06T05:10:00Z"))).toBe(false);
  });
});
