import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { startApiUnderTest, type ApiUnderTest } from "./testing/api-under-test.ts";

// A console whose cluster cannot be reached: it serves (its store answers, the report says
// "degraded"), it is alive, and it is not ready — the chart's readiness probe takes it out of the
// Service until the cluster answers, and its liveness probe leaves it running.

let api: ApiUnderTest;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "berth-readiness-"));
  const kubeconfig = path.join(work, "kubeconfig");
  // Port 9 (discard) on loopback: nothing listens, every request is refused at once.
  writeFileSync(kubeconfig, JSON.stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "gone", cluster: { server: "https://127.0.0.1:9" } }],
    users: [{ name: "someone", user: { token: "t" } }],
    contexts: [{ name: "gone", context: { cluster: "gone", user: "someone" } }],
    "current-context": "gone",
  }));
  api = await startApiUnderTest({ KUBECONFIG: kubeconfig });
}, 120_000);
afterAll(async () => {
  await api?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

describe("a console whose cluster cannot be reached", () => {
  it("still serves, degraded", async () => {
    const report = await eventually(async () => {
      const answer = await api.call("health", null);
      if ((answer.json as { status?: string }).status !== "degraded") throw new Error(answer.text);
      return answer;
    });
    expect(report.status).toBe(200);
  });

  it("is not ready", async () => {
    expect((await api.call("readiness", null)).status).toBe(503);
  });

  it("is alive", async () => {
    expect((await api.call("liveness", null)).status).toBe(200);
  });
});
