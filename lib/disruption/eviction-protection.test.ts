import { describe, expect, it } from "vitest";
import { deriveProtection, withProtection, type ObservedBudget } from "./eviction-protection.ts";
import { aNode, aPod, aStatus, now } from "./test-fixtures.ts";

// Protection, one situation per test: asked for or not, in the cluster or not, holding a drain or not.

const aBudget = (disruptionsAllowed = 0): ObservedBudget => ({ metadata: { name: "box-disruption-budget" }, status: { disruptionsAllowed } });
const cordoned = () => aNode({ cordoned: true });

describe("eviction protection", () => {
  it("is on when the budget is in the cluster", () => {
    expect(deriveProtection({ wanted: true, budget: aBudget(), pod: aPod({ ready: true }), node: aNode() }).protected).toBe(true);
  });

  it("is off, and says so, when asked for but the budget is missing", () => {
    expect(deriveProtection({ wanted: true, budget: null, pod: aPod({ ready: true }), node: aNode() }).message).toMatch(/not in the cluster/);
  });

  it("shows a drain as blocked when the node is cordoned and the protected pod is still there", () => {
    expect(deriveProtection({ wanted: true, budget: aBudget(), pod: aPod({ ready: true }), node: cordoned() }).drainBlocked).toBe(true);
  });

  it("says what to do about a blocked drain", () => {
    expect(deriveProtection({ wanted: true, budget: aBudget(), pod: aPod({ ready: true }), node: cordoned() }).message).toMatch(/run maintenance on worker-1 .* uncordon worker-1/);
  });

  it("offers for a blocked drain only what can be done during it: protection cannot be turned off", () => {
    expect(deriveProtection({ wanted: true, budget: aBudget(), pod: aPod({ ready: true }), node: cordoned() }).message).not.toMatch(/protection off|change its policy/);
  });

  it("does not call a drain blocked when the budget allows the eviction", () => {
    expect(deriveProtection({ wanted: true, budget: aBudget(1), pod: aPod({ ready: true }), node: cordoned() }).drainBlocked).toBe(false);
  });

  it("does not call a drain blocked once the pod is going", () => {
    expect(deriveProtection({ wanted: true, budget: aBudget(), pod: aPod({ ready: true, deleting: true }), node: cordoned() }).drainBlocked).toBe(false);
  });

  it("does not block anything on a schedulable node", () => {
    expect(deriveProtection({ wanted: true, budget: aBudget(), pod: aPod({ ready: true }), node: aNode() }).drainBlocked).toBe(false);
  });

  it("adds an EvictionBlocked condition that is True while a drain waits", () => {
    const protection = deriveProtection({ wanted: true, budget: aBudget(), pod: aPod({ ready: true }), node: cordoned() });
    const condition = withProtection(aStatus(), protection, [], now).conditions.find((one) => one.type === "EvictionBlocked");
    expect([condition?.status, condition?.reason]).toEqual(["True", "DrainBlocked"]);
  });

  it("keeps the condition's transition time while nothing changes", () => {
    const protection = deriveProtection({ wanted: true, budget: aBudget(), pod: aPod({ ready: true }), node: aNode() });
    const before = [{ type: "EvictionBlocked", status: "False" as const, reason: "NotBlocked", lastTransitionTime: "2026-11-30T10:00:00.000Z" }];
    expect(withProtection(aStatus(), protection, before, now).conditions.find((one) => one.type === "EvictionBlocked")?.lastTransitionTime).toBe("2026-11-30T10:00:00.000Z");
  });
});
