import type { V1Node } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { parseLabelSelector } from "../domain/label-selector.ts";
import { describeNodes, pageOfNodes } from "./describe-nodes.ts";

function aNode(name: string, zone: string): V1Node {
  return { metadata: { name, labels: { "kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zone } }, spec: {}, status: { conditions: [{ type: "Ready", status: "True" }] } };
}

const names = (views: { name: string }[]) => views.map((view) => view.name);

describe("the nodes view", () => {
  it("carries each node's Kubernetes labels", () => {
    expect(describeNodes([aNode("worker-1", "zone-a")], [])[0]?.labels).toEqual({ "kubernetes.io/hostname": "worker-1", "topology.kubernetes.io/zone": "zone-a" });
  });

  it("keeps only the nodes a label selector picks", () => {
    const views = describeNodes([aNode("worker-1", "zone-a"), aNode("worker-2", "zone-b"), aNode("worker-3", "zone-a")], []);
    expect(names(pageOfNodes(views, { limit: 10, labelSelector: parseLabelSelector("topology.kubernetes.io/zone=zone-a") }).items)).toEqual(["worker-1", "worker-3"]);
  });

  it("pages the picked nodes by name, continuing after the cursor", () => {
    const views = describeNodes(["worker-1", "worker-2", "worker-3", "worker-4"].map((name, index) => aNode(name, index % 2 ? "zone-b" : "zone-a")), []);
    const labelSelector = parseLabelSelector("topology.kubernetes.io/zone=zone-a");
    const first = pageOfNodes(views, { limit: 1, labelSelector });
    expect(names(pageOfNodes(views, { limit: 1, labelSelector, cursor: first.nextCursor! }).items)).toEqual(["worker-3"]);
  });
});
