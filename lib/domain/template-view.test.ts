import { describe, expect, it } from "vitest";
import { templateSpecAnnotation, templateView } from "./template-view.ts";

// A template as the page shows it, read from its SandboxTemplate and SandboxWarmPool.

const PREFIX = "berth.dev";

const aTemplate = (overrides: { labels?: Record<string, string>; kept?: string } = {}) => ({
  metadata: {
    name: "python",
    namespace: "team-a",
    uid: "u-1",
    creationTimestamp: "2026-12-06T00:00:00Z",
    labels: overrides.labels ?? { "berth.dev/managed-by": "berth" },
    annotations: overrides.kept === undefined ? {} : { [templateSpecAnnotation(PREFIX)]: overrides.kept },
  },
  spec: { podTemplate: { spec: { containers: [{ name: "agent", image: "python:3.12" }] } } },
});
const kept = JSON.stringify({ description: "Python agents", sandbox: { workspace: { backend: "ephemeral" } } });

describe("a template's view", () => {
  it("is Berth's, with the template as it was given, when labelled and annotated by Berth", () => {
    expect(templateView(aTemplate({ kept }), undefined, PREFIX)).toMatchObject({ managedByBerth: true, description: "Python agents", spec: { name: "python", namespace: "team-a" }, image: "python:3.12", warmPool: null });
  });

  it("is shown but not Berth's when its kept template no longer reads as one", () => {
    expect(templateView(aTemplate({ kept: "{not json" }), undefined, PREFIX)).toMatchObject({ managedByBerth: false, spec: null, image: "python:3.12" });
  });

  it("counts its pool's members and ready ones against the target", () => {
    const pool = { metadata: { name: "python", namespace: "team-a" }, spec: { replicas: 3 }, status: { replicas: 2, readyReplicas: 1 } };
    expect(templateView(aTemplate({ kept }), pool, PREFIX)?.warmPool).toEqual({ replicas: 3, members: 2, ready: 1, updateStrategy: "OnReplenish" });
  });

  it("is nothing for an object that is not a SandboxTemplate", () => {
    expect(templateView({ metadata: { name: 42 } }, undefined, PREFIX)).toBeNull();
  });
});
