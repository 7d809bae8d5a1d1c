import { describe, expect, it } from "vitest";
import type { SandboxPhase } from "@/lib/domain/sandbox-status.ts";
import { availability, SANDBOX_ACTIONS, type SandboxAction } from "./action-rules.ts";

const live = (phase: SandboxPhase) => ({ phase, deletedAt: null });
const offered = (phase: SandboxPhase) => SANDBOX_ACTIONS.filter((action) => availability(action, live(phase)).enabled);

describe("which actions a phase offers", () => {
  it.each<{ phase: SandboxPhase; actions: SandboxAction[] }>([
    { phase: "Ready", actions: ["stop", "checkpoint", "delete"] },
    { phase: "Stopped", actions: ["start", "delete"] },
    { phase: "Disrupted", actions: ["stop", "recover", "delete"] },
    { phase: "Error", actions: ["stop", "recover", "delete"] },
    { phase: "Checkpointing", actions: ["delete"] },
    { phase: "Provisioning", actions: ["stop", "delete"] },
    { phase: "Deleting", actions: [] },
  ])("$phase: $actions", ({ phase, actions }) => {
    expect(offered(phase)).toEqual(actions);
  });

  it("offers nothing once the sandbox is deleted", () => {
    expect(SANDBOX_ACTIONS.filter((action) => availability(action, { phase: "Ready", deletedAt: new Date() }).enabled)).toEqual([]);
  });

  it("says why an action is not offered", () => {
    expect(availability("checkpoint", live("Stopped"))).toEqual({ enabled: false, why: "A checkpoint needs a Ready sandbox (it is Stopped)" });
  });
});
