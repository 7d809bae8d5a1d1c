import { describe, expect, it } from "vitest";
import type { Health } from "../domain/health.ts";
import { healthAnswer } from "./health.ts";

// What each health path answers for each state of the server.

const aHealth = (status: Health["status"]): Health => ({
  status,
  version: "0.1.0",
  startedAt: "2026-12-04T12:00:00.000Z",
  cluster: { mode: "kubeconfig", server: "https://10.0.0.1:6443", sandboxApiVersion: status === "ok" ? "v1beta1" : null, agentSandbox: null, connected: status === "ok", message: "" },
  store: { kind: "postgresql", ok: status !== "failing", message: "" },
  leadership: { replica: "berth-0/a1b2c3", leader: null },
});

describe("the health answers", () => {
  it.each([
    ["ok", "report", 200],
    ["degraded", "report", 200],
    ["failing", "report", 503],
    ["ok", "ready", 200],
    ["degraded", "ready", 503],
    ["failing", "ready", 503],
    ["ok", "live", 200],
    ["degraded", "live", 200],
    ["failing", "live", 200],
  ] as const)("answer %s to a %s probe with %i", (status, question, code) => {
    expect(healthAnswer(aHealth(status), false, question).status).toBe(code);
  });

  it("count a degraded server whose cluster still serves Sandboxes (a half-migrated install) as ready", () => {
    const halfMigrated: Health = { ...aHealth("degraded"), cluster: { ...aHealth("ok").cluster, connected: true } };
    expect(healthAnswer(halfMigrated, false, "ready").status).toBe(200);
  });

  it("tell someone not signed in the status alone", () => {
    expect(healthAnswer(aHealth("degraded"), false, "ready").body).toEqual({ status: "degraded" });
  });
});
