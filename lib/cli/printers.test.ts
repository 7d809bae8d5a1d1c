import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectGolden } from "../testing/golden-files.ts";
import { describeSandbox } from "./describe-sandbox.ts";
import { wantsColour } from "./io.ts";
import { columnWidths, OUTPUT_FORMATS, printItems } from "./printers.ts";
import { MAINTENANCE_RUNS, NODES, SANDBOXES, STORAGE_CLASSES, VOLUMES } from "./resource-kinds.ts";
import { aCheckpoint, aMaintenanceRun, aNode, aRecoveredSandbox, aSandboxRecord, aStorageClass, aVolume, anEvent, NOW } from "./testing/cli-fixtures.ts";

// What `berth get` and `berth describe` print, held to golden files (lib/cli/testdata;
// UPDATE_GOLDEN=1 rewrites them after a deliberate change).

const TESTDATA = path.join(import.meta.dirname, "testdata");
const options = (format: (typeof OUTPUT_FORMATS)[number], allNamespaces = false) => ({ format, allNamespaces, now: NOW, colour: false });

describe("berth get sandboxes", () => {
  const sandboxes = [aSandboxRecord(), aRecoveredSandbox(), aSandboxRecord({ name: "agent-3", namespace: "team-b", phase: "Disrupted", reason: "NodeLost", nodeName: null })];

  it.each(OUTPUT_FORMATS)("prints -o %s as its golden file", (format) => {
    expectGolden(TESTDATA, `get-sandboxes.${format}`, printItems(SANDBOXES, sandboxes, options(format)), "txt");
  });

  it("puts a NAMESPACE column first with -A, as kubectl does", () => {
    expectGolden(TESTDATA, "get-sandboxes.all-namespaces", printItems(SANDBOXES, sandboxes, options("table", true)), "txt");
  });

  it("prints one sandbox asked for by name as the object itself in JSON", () => {
    expect(JSON.parse(printItems(SANDBOXES, [aSandboxRecord()], options("json"), true))).toMatchObject({ name: "agent-1", createdAt: "2026-12-05T11:50:00.000Z" });
  });

  it("colours the phase only when asked to", () => {
    const [, row] = printItems(SANDBOXES, [aSandboxRecord({ phase: "Ready" })], { ...options("table"), colour: true }).split("\n");
    expect(row).toContain("\u001b[32mReady\u001b[39m");
  });

  it("lines a watch's later row up under the table it printed first", () => {
    const sandboxes = [aSandboxRecord(), aRecoveredSandbox()];
    const [header] = printItems(SANDBOXES, sandboxes, options("table")).split("\n");
    const later = printItems(SANDBOXES, [aSandboxRecord({ name: "a" })], { ...options("table"), noHeaders: true, minWidths: columnWidths(SANDBOXES, sandboxes, options("table")) });
    expect([later.indexOf("Ready"), later.indexOf("<none>"), later.indexOf("worker-1")]).toEqual([header!.indexOf("PHASE"), header!.indexOf("REASON"), header!.indexOf("NODE")]);
  });

  it("prints nothing for an empty list in a table (the command says so on standard error)", () => {
    expect(printItems(SANDBOXES, [], options("table"))).toBe("");
  });
});

describe("berth get, the other resources", () => {
  it.each([
    ["volumes", () => printItems(VOLUMES, [aVolume(), aVolume({ name: "scratch", ownership: "delete", state: "orphaned", sandbox: null, attachedTo: null, phase: "Bound" })], options("wide"))],
    ["nodes", () => printItems(NODES, [aNode(), aNode({ name: "worker-2", cordoned: true, sandboxes: [] })], options("wide"))],
    ["storageclasses", () => printItems(STORAGE_CLASSES, [aStorageClass(), aStorageClass({ name: "local-path", provisioner: "rancher.io/local-path", isDefault: false, placement: "node-pinned", allowVolumeExpansion: false, snapshots: false, placementReason: "local-path volumes live on one node" })], options("wide"))],
    ["maintenance", () => printItems(MAINTENANCE_RUNS, [aMaintenanceRun()], options("wide"))],
  ])("prints %s -o wide as its golden file", (name, printed) => {
    expectGolden(TESTDATA, `get-${name}.wide`, printed(), "txt");
  });
});

describe("berth describe sandbox", () => {
  it("lays out a recovered sandbox as kubectl describe does: its disruption, recovery, verdict, claims, checkpoints and events", () => {
    const timeline = [
      anEvent("Lifecycle", "Created", "Sandbox created by alex", 10),
      anEvent("Disruption", "NodeDrained", "worker-2 was drained for maintenance", 6),
      anEvent("Recovery", "Recovered", "the replacement is Ready on worker-1 after 41.3s", 5),
    ];
    expectGolden(TESTDATA, "describe-sandbox", describeSandbox({ sandbox: aRecoveredSandbox(), claims: [aVolume()], checkpoints: [aCheckpoint()], timeline, now: NOW }), "txt");
  });

  it("says <none> for what a new sandbox does not have yet", () => {
    expect(describeSandbox({ sandbox: aSandboxRecord(), claims: [], checkpoints: [], timeline: [], now: NOW })).toContain("Last Disruption:\n  <none>\n");
  });
});

describe("when berth colours what it prints", () => {
  it.each([
    ["at a terminal", true, {}, true],
    ["into a pipe", false, {}, false],
    ["into a pipe in CI", false, { CI: "true" }, false],
    ["at a terminal with NO_COLOR", true, { NO_COLOR: "1" }, false],
    ["into a pipe with FORCE_COLOR", false, { FORCE_COLOR: "1" }, true],
    ["at a terminal with FORCE_COLOR=0", true, { FORCE_COLOR: "0" }, false],
  ])("%s", (_, terminal, env, expected) => {
    expect(wantsColour(terminal, env)).toBe(expected);
  });
});
