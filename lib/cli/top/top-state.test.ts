import { describe, expect, it } from "vitest";
import { aSandboxRecord } from "../testing/cli-fixtures.ts";
import { afterKey, initialState, keyOf, moved, phaseCounts, selected, visible, withSandboxes, type TopState } from "./top-state.ts";

const alpha = aSandboxRecord({ id: "00000000-0000-4000-8000-00000000000a", name: "alpha" });
const beta = aSandboxRecord({ id: "00000000-0000-4000-8000-00000000000b", name: "beta", phase: "Disrupted" });
const gamma = aSandboxRecord({ id: "00000000-0000-4000-8000-00000000000c", name: "gamma" });

describe("berth top's state", () => {
  it("selects the first sandbox of the first list", () => {
    expect(selected(withSandboxes(initialState, [beta, alpha]))?.name).toBe("alpha");
  });

  it("keeps the selection on its sandbox when the list changes around it", () => {
    const onBeta = moved(withSandboxes(initialState, [alpha, beta]), 1);
    expect(selected(withSandboxes(onBeta, [gamma, beta, alpha]))?.name).toBe("beta");
  });

  it("moves to the first row when the selected sandbox goes, and back to the list, so no key acts on a sandbox nobody chose", () => {
    const open = { ...moved(withSandboxes(initialState, [alpha, beta]), 1), view: "detail" as const };
    const after = withSandboxes(open, [alpha]);
    expect([selected(after)?.name, after.view]).toEqual(["alpha", "list"]);
  });

  it("keeps an open sandbox open while it is there", () => {
    const open = { ...moved(withSandboxes(initialState, [alpha, beta]), 1), view: "detail" as const };
    expect(withSandboxes(open, [beta, gamma]).view).toBe("detail");
  });

  it("stops at either end of the list", () => {
    const state = withSandboxes(initialState, [alpha, beta, gamma]);
    expect([selected(moved(state, -5))?.name, selected(moved(state, 50))?.name]).toEqual(["alpha", "gamma"]);
  });

  it("reads the keys: arrows and j/k move, Enter opens, Escape goes back, letters act, q quits", () => {
    expect([keyOf("", { downArrow: true }), keyOf("k", {}), keyOf("", { return: true }), keyOf("", { escape: true }), keyOf("c", {}), keyOf("q", {}), keyOf("x", {})]).toEqual([
      { kind: "move", by: 1 },
      { kind: "move", by: -1 },
      { kind: "open" },
      { kind: "back" },
      { kind: "action", action: "checkpoint" },
      { kind: "quit" },
      null,
    ]);
  });

  it("moves as many rows as a held key repeated in one chunk", () => {
    expect([keyOf("jjj", {}), keyOf("kk", {})]).toEqual([{ kind: "move", by: 3 }, { kind: "move", by: -2 }]);
  });

  it("reads letters as the filter's text while it is typed, not as actions", () => {
    expect([keyOf("c", {}, true), keyOf("team-a/ag", {}, true), keyOf("", { backspace: true }, true), keyOf("", { upArrow: true }, true)]).toEqual([
      { kind: "type", text: "c" },
      { kind: "type", text: "team-a/ag" },
      { kind: "erase" },
      null,
    ]);
  });

  it("counts the sandboxes by phase for the header", () => {
    expect(phaseCounts([alpha, beta, gamma])).toBe("2 Ready, 1 Disrupted");
  });
});

describe("berth top's filter", () => {
  const typed = (state: TopState, text: string) => afterKey(afterKey(state, { kind: "filter" }), { kind: "type", text });
  const list = withSandboxes(initialState, [alpha, beta, gamma]);

  it("shows only the sandboxes whose namespace/name holds what was typed, and selects the first", () => {
    const filtered = typed(list, "et");
    expect([visible(filtered).map((one) => one.name), selected(filtered)?.name]).toEqual([["beta"], "beta"]);
  });

  it("matches the namespace too", () => {
    expect(visible(typed(list, "team-a/g")).map((one) => one.name)).toEqual(["gamma"]);
  });

  it("moves only through the rows shown", () => {
    const delta = aSandboxRecord({ id: "00000000-0000-4000-8000-00000000000d", name: "delta", namespace: "dev" });
    const onGamma = moved(typed(withSandboxes(initialState, [alpha, beta, gamma, delta]), "team-a/"), 5);
    expect([selected(onGamma)?.name, selected(moved(onGamma, -5))?.name]).toEqual(["gamma", "alpha"]);
  });

  it("keeps the filter on Enter, and Enter then opens the selected sandbox", () => {
    const kept = afterKey(typed(list, "gam"), { kind: "open" });
    expect([kept.typingFilter, kept.filter, afterKey(kept, { kind: "open" }).view]).toEqual([false, "gam", "detail"]);
  });

  it("clears the filter on Escape while it is typed", () => {
    const cleared = afterKey(typed(list, "gam"), { kind: "back" });
    expect([cleared.filter, visible(cleared).length]).toEqual(["", 3]);
  });

  it("closes an open sandbox on Escape before it clears a kept filter", () => {
    const open = afterKey(afterKey(afterKey(typed(list, "gam"), { kind: "open" }), { kind: "open" }), { kind: "back" });
    expect([open.view, open.filter, afterKey(open, { kind: "back" }).filter]).toEqual(["list", "gam", ""]);
  });

  it("erases the last letter typed", () => {
    expect(afterKey(typed(list, "gam"), { kind: "erase" }).filter).toBe("ga");
  });

  it("selects nothing when nothing matches, and nothing opens", () => {
    const none = typed(list, "zzz");
    expect([selected(none), afterKey(afterKey(none, { kind: "open" }), { kind: "open" }).view]).toEqual([null, "list"]);
  });
});
