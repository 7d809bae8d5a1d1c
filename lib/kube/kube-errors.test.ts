import { ApiException } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimFixture, type SimFixture } from "../sim/testing/sim-fixture.ts";
import { kube, KubeApiError, throttledSoFar, toKubeApiError } from "./kube-errors.ts";

// What the driver makes of the API server's refusals: a throttle is waited out and tried again,
// as client-go does; every other failure comes back at once, as a KubeApiError.

let sim: SimFixture;
beforeAll(async () => {
  sim = await startSimFixture();
});
afterAll(() => sim.cluster.stop());

const readWorker = () => kube(() => sim.core.readNode({ name: "worker-1" }));
const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe("a throttled answer (429 with Retry-After)", () => {
  it("is waited out and the call made again", async () => {
    await sim.fault("api-faults", { verb: "get", resource: "nodes", code: 429, retryAfterSeconds: 1, count: 1 });
    const before = throttledSoFar();
    const began = performance.now();
    expect((await readWorker()).metadata?.name).toBe("worker-1");
    expect([throttledSoFar() - before, performance.now() - began >= 1_000]).toEqual([1, true]);
  });

  it("is given up on after five tries again, still throttled", async () => {
    await sim.fault("api-faults", { verb: "get", resource: "nodes", code: 429, retryAfterSeconds: 0, count: 6 });
    expect(await failureOf(readWorker())).toMatchObject({ code: 429, reason: "TooManyRequests", throttled: true, message: "Too many requests, please try again later." });
    await sim.clearApiFaults();
  });
});

describe("a 429 that is not a throttle", () => {
  it("without a Retry-After, fails at once", async () => {
    await sim.fault("api-faults", { verb: "get", resource: "nodes", code: 429, message: "too many requests", count: 1 });
    expect(await failureOf(readWorker())).toMatchObject({ code: 429, throttled: false });
    expect((await readWorker()).metadata?.name).toBe("worker-1");
  });

  it("from a budget refusing an eviction, is an answer even with a Retry-After", () => {
    const status = { kind: "Status", code: 429, reason: "TooManyRequests", message: "Cannot evict pod as it would violate the pod's disruption budget.", details: { retryAfterSeconds: 10, causes: [{ reason: "DisruptionBudget" }] } };
    const failure = toKubeApiError(new ApiException(429, "", JSON.stringify(status), { "retry-after": "10" }));
    expect(failure).toBeInstanceOf(KubeApiError);
    expect([(failure as KubeApiError).throttled, (failure as KubeApiError).causes]).toEqual([false, ["DisruptionBudget"]]);
  });
});
