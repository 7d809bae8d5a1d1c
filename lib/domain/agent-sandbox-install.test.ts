import { describe, expect, it } from "vitest";
import { assessAgentSandboxInstall } from "./agent-sandbox-install.ts";

// What Berth makes of the versions an agent-sandbox install serves.

const BOTH = ["v1beta1", "v1alpha1"];

describe("an agent-sandbox install", () => {
  it("of v0.5.6 (both groups in both versions) is used in v1beta1, with nothing to say", () => {
    expect(assessAgentSandboxInstall({ sandbox: BOTH, extensions: BOTH })).toEqual({ sandboxApiVersion: "v1beta1", extensionsApiVersion: "v1beta1", findings: [] });
  });

  it("of 1.0 (v1beta1 alone) is used in v1beta1, with nothing to say", () => {
    expect(assessAgentSandboxInstall({ sandbox: ["v1beta1"], extensions: ["v1beta1"] })).toEqual({ sandboxApiVersion: "v1beta1", extensionsApiVersion: "v1beta1", findings: [] });
  });

  it("whose extensions lag a release behind is half-migrated, a warning naming both groups", () => {
    const [finding] = assessAgentSandboxInstall({ sandbox: ["v1beta1"], extensions: ["v1alpha1"] })!.findings;
    expect(finding).toEqual({
      code: "half-migrated",
      severity: "warning",
      message: expect.stringContaining("agents.x-k8s.io serves v1beta1 but extensions.agents.x-k8s.io serves v1alpha1"),
    });
  });

  it("whose Sandbox definition lags behind its extensions is half-migrated too", () => {
    expect(assessAgentSandboxInstall({ sandbox: ["v1alpha1"], extensions: BOTH })!.findings.map((finding) => finding.code)).toEqual(["half-migrated", "deprecated-version-only"]);
  });

  it("without extensions says templates and warm pools need them, as a notice", () => {
    expect(assessAgentSandboxInstall({ sandbox: BOTH, extensions: [] })!.findings).toEqual([
      { code: "extensions-not-installed", severity: "notice", message: expect.stringContaining("templates, warm pools and claims need agent-sandbox's extensions") },
    ]);
  });

  it("serving only v1alpha1 Sandboxes is used in v1alpha1, with advice to upgrade before 1.0", () => {
    const install = assessAgentSandboxInstall({ sandbox: ["v1alpha1"], extensions: ["v1alpha1"] })!;
    expect([install.sandboxApiVersion, install.findings.map((finding) => [finding.code, finding.severity])]).toEqual(["v1alpha1", [["deprecated-version-only", "notice"]]]);
  });

  it("without the Sandbox API is no install at all", () => {
    expect(assessAgentSandboxInstall({ sandbox: [], extensions: BOTH })).toBeNull();
  });
});
