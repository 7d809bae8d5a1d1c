import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { berthMetricFamilies } from "./berth-metrics.ts";

// docs/metrics.md against what GET /metrics writes: the table names every family with its type
// and every value of its label (or its buckets), and the example alerts use only metrics that exist.

const guide = readFileSync(path.join(import.meta.dirname, "..", "..", "docs", "metrics.md"), "utf8");
const families = berthMetricFamilies({ sandboxes: [], disruptions: [], checkpoints: [], maintenanceRuns: [], leadership: { replica: "berth-0/a1b2c3", leader: null } });

/** The table's row for a family: its cells. */
function rowOf(name: string): string[] {
  const line = guide.split("\n").find((one) => one.startsWith(`| \`${name}\` |`));
  return line ? line.split("|").slice(1, -1).map((cell) => cell.trim()) : [];
}

const quoted = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

describe("the metrics guide", () => {
  it.each(families.map((family) => [family.name, family] as const))("describes %s with its type", (name, family) => {
    expect(rowOf(name)[1]).toBe(family.type);
  });

  it.each(families.filter((family) => family.type !== "histogram").map((family) => [family.name, family] as const))("names every label of %s, and every value Berth writes for it", (name, family) => {
    const samples = "samples" in family ? family.samples : [];
    const labels = [...new Set(samples.flatMap((sample) => Object.keys(sample.labels ?? {})))];
    const values = labels.length === 1 ? samples.map((sample) => sample.labels![labels[0]!]!) : [];
    expect(quoted(rowOf(name)[2] ?? "").sort()).toEqual([...labels, ...values].sort());
  });

  it.each(families.filter((family) => family.type === "histogram").map((family) => [family.name, family] as const))("gives the buckets of %s", (name, family) => {
    const buckets = "buckets" in family ? family.buckets : [];
    expect(rowOf(name)[2]).toContain(buckets.join(", "));
  });

  it("uses in its example alerts only metrics that /metrics writes", () => {
    const alerts = guide.slice(guide.indexOf("## Example alerts"));
    const used = [...new Set([...alerts.matchAll(/\bberth_[a-z_]+/g)].map((match) => match[0].replace(/_(bucket|sum|count)$/, "")))];
    expect(used.filter((name) => !families.some((family) => family.name === name))).toEqual([]);
  });
});
