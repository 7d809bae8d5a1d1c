import { describe, expect, it } from "vitest";
import { pinnedVersion } from "../../../scripts/cluster/pinned-modules.ts";
import generated from "./generated/custom-resource-definitions.json" with { type: "json" };
import { printerColumnsOf, publishedDefinition } from "./custom-resources.ts";

// The published definitions the embedded cluster serves its custom resources from.

describe("the published custom resource definitions", () => {
  it("are agent-sandbox's at the version the real control plane lane installs (else: npm run generate:custom-resources)", () => {
    const sandbox = generated.definitions.find((one) => one.source.includes("agents.x-k8s.io_sandboxes"));
    expect(sandbox?.source).toContain(`sigs.k8s.io/agent-sandbox@${pinnedVersion("AGENT_SANDBOX_VERSION")}/`);
  });

  it("give a Sandbox the columns its definition prints", () => {
    expect(printerColumnsOf(publishedDefinition("agents.x-k8s.io", "sandboxes"), "v1beta1").map((column) => column.name)).toEqual(["Ready", "Reason", "Age"]);
  });

  it("give a version without columns the age, as the API server does", () => {
    expect(printerColumnsOf(publishedDefinition("agents.x-k8s.io", "sandboxes"), "v1alpha1")).toEqual([{ name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" }]);
  });
});
