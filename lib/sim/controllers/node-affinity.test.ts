import { describe, expect, it } from "vitest";
import {
  findUntoleratedTaint, labelSelectorMatches, podMatchesNode, requirementMatches, termsMatch, toleratesTaint, volumeMatchesNode, type Taint, type Toleration,
} from "./node-affinity.ts";

const node = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels: { "kubernetes.io/hostname": name, ...labels } } });

describe("toleratesTaint", () => {
  const unreachable: Taint = { key: "node.kubernetes.io/unreachable", effect: "NoExecute" };
  it.each<[string, Toleration, Taint, boolean]>([
    ["Exists with the key and effect", { key: unreachable.key, operator: "Exists", effect: "NoExecute" }, unreachable, true],
    ["Exists with the key, any effect", { key: unreachable.key, operator: "Exists" }, unreachable, true],
    ["Exists with another effect", { key: unreachable.key, operator: "Exists", effect: "NoSchedule" }, unreachable, false],
    ["Exists with no key: everything", { operator: "Exists" }, { key: "anything", value: "x", effect: "NoSchedule" }, true],
    ["Equal with the value", { key: "dedicated", operator: "Equal", value: "gpu" }, { key: "dedicated", value: "gpu", effect: "NoSchedule" }, true],
    ["Equal with another value", { key: "dedicated", operator: "Equal", value: "cpu" }, { key: "dedicated", value: "gpu", effect: "NoSchedule" }, false],
    ["an empty operator means Equal", { key: "dedicated", value: "gpu" }, { key: "dedicated", value: "gpu", effect: "NoSchedule" }, true],
    ["Equal against a taint without value", { key: unreachable.key, operator: "Equal" }, unreachable, true],
  ])("%s", (_name, toleration, taint, expected) => {
    expect(toleratesTaint(toleration, taint)).toBe(expected);
  });

  it("finds the first untolerated NoSchedule or NoExecute taint, ignoring PreferNoSchedule", () => {
    const taints: Taint[] = [
      { key: "soft", effect: "PreferNoSchedule" },
      { key: "node.kubernetes.io/not-ready", effect: "NoExecute" },
      { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" },
    ];
    const defaults: Toleration[] = [{ key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 }];
    expect(findUntoleratedTaint(taints, defaults)).toEqual({ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" });
    expect(findUntoleratedTaint(taints, [{ operator: "Exists" }])).toBeUndefined();
  });
});

describe("node selection", () => {
  it.each([
    [{ key: "zone", operator: "In" as const, values: ["a", "b"] }, { zone: "a" }, true],
    [{ key: "zone", operator: "In" as const, values: ["a"] }, {}, false],
    [{ key: "zone", operator: "NotIn" as const, values: ["a"] }, {}, true],
    [{ key: "zone", operator: "Exists" as const }, { zone: "" }, true],
    [{ key: "zone", operator: "DoesNotExist" as const }, { zone: "a" }, false],
    [{ key: "cores", operator: "Gt" as const, values: ["4"] }, { cores: "8" }, true],
    [{ key: "cores", operator: "Lt" as const, values: ["4"] }, { cores: "eight" }, false],
  ])("%o against %o is %s", (requirement, labels, expected) => {
    expect(requirementMatches(requirement, labels)).toBe(expected);
  });

  it("ORs terms, ANDs what is in one, and lets an empty term match nothing", () => {
    const target = node("worker-2", { zone: "b" });
    expect(termsMatch([{ matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] }, { matchFields: [{ key: "metadata.name", operator: "In", values: ["worker-2"] }] }], target)).toBe(true);
    expect(termsMatch([{ matchExpressions: [{ key: "zone", operator: "In", values: ["b"] }, { key: "gpu", operator: "Exists" }] }], target)).toBe(false);
    expect(termsMatch([{}], target)).toBe(false);
  });

  it("requires both the nodeSelector and the required node affinity of a pod", () => {
    const pod = {
      metadata: {},
      spec: {
        nodeSelector: { zone: "b" },
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "disk", operator: "In", values: ["ssd"] }] }] } } },
      },
    };
    expect(podMatchesNode(pod, node("n", { zone: "b", disk: "ssd" }))).toBe(true);
    expect(podMatchesNode(pod, node("n", { zone: "a", disk: "ssd" }))).toBe(false);
    expect(podMatchesNode(pod, node("n", { zone: "b" }))).toBe(false);
    expect(podMatchesNode({ metadata: {}, spec: {} }, node("n"))).toBe(true);
  });

  it("reaches a PV without node affinity from anywhere and a pinned one from its node only", () => {
    const pinned = { metadata: {}, spec: { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["worker-1"] }] }] } } } };
    expect(volumeMatchesNode(pinned, node("worker-1"))).toBe(true);
    expect(volumeMatchesNode(pinned, node("worker-2"))).toBe(false);
    expect(volumeMatchesNode({ metadata: {}, spec: {} }, node("worker-2"))).toBe(true);
  });

  it("matches label selectors as metav1.LabelSelector does", () => {
    expect(labelSelectorMatches(undefined, {})).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { tier: "gold" }, matchExpressions: [{ key: "env", operator: "NotIn", values: ["prod"] }] }, { tier: "gold", env: "dev" })).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { tier: "gold" } }, { tier: "silver" })).toBe(false);
  });
});
