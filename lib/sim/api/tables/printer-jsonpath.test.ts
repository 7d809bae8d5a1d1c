import { describe, expect, it } from "vitest";
import { findAll, parsePrinterPath } from "./printer-jsonpath.ts";

const sandbox = {
  spec: { replicas: 2 },
  status: { conditions: [{ type: "Suspended", status: "False" }, { type: "Ready", status: "True", reason: "DependenciesReady" }] },
};
const find = (path: string) => findAll(sandbox, parsePrinterPath(path));

describe("printer column JSONPath", () => {
  it("follows fields", () => {
    expect(find(".spec.replicas")).toEqual([2]);
  });

  it("finds nothing where a field is missing", () => {
    expect(find(".status.readyReplicas")).toEqual([]);
  });

  it("picks list elements by an equality filter", () => {
    expect(find(".status.conditions[?(@.type=='Ready')].reason")).toEqual(["DependenciesReady"]);
  });

  it("takes an index and every element", () => {
    expect([find(".status.conditions[1].type"), find(".status.conditions[*].type")]).toEqual([["Ready"], ["Suspended", "Ready"]]);
  });

  it("refuses what printer columns do not use, naming where", () => {
    expect(() => parsePrinterPath(".items[0:2]")).toThrow(/at "\[0:2\]"/);
  });
});
