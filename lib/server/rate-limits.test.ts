import { describe, expect, it } from "vitest";
import { RateLimitedError, RateLimits } from "./rate-limits.ts";

const settings = { createsPerMinute: 3, commandsPerMinute: 60, writesPerMinute: 600, signInsPerMinute: 2, streamsPerPerson: 2 };

function limitsAt(start = 0) {
  const clock = { now: start };
  return { limits: new RateLimits(settings, () => clock.now), clock };
}

const refusal = (run: () => void) => {
  try {
    run();
    return null;
  } catch (error) {
    return error as RateLimitedError;
  }
};

describe("a person's rate of creates", () => {
  it("allows a burst of a minute's worth", () => {
    const { limits } = limitsAt();
    for (let index = 0; index < 3; index++) limits.take("alex", "creates");
  });

  it("refuses one more, saying when to try again and who sets the limit", () => {
    const { limits } = limitsAt();
    for (let index = 0; index < 3; index++) limits.take("alex", "creates");
    const refused = refusal(() => limits.take("alex", "creates"));
    expect({ retryAfter: refused?.retryAfterSeconds, message: refused?.message }).toEqual({
      retryAfter: 20,
      message: "alex has reached the limit of 3 sandboxes created per minute; try again in 20 s. The platform team sets it with BERTH_CREATES_PER_MINUTE (Helm value limits.createsPerMinute).",
    });
  });

  it("allows another once enough time has passed for a token", () => {
    const { limits, clock } = limitsAt();
    for (let index = 0; index < 3; index++) limits.take("alex", "creates");
    clock.now += 20_000;
    expect(refusal(() => limits.take("alex", "creates"))).toBeNull();
  });

  it("is counted per person: another person is not held back", () => {
    const { limits } = limitsAt();
    for (let index = 0; index < 3; index++) limits.take("alex", "creates");
    expect(refusal(() => limits.take("bea", "creates"))).toBeNull();
  });

  it("is counted apart from other writes", () => {
    const { limits } = limitsAt();
    for (let index = 0; index < 3; index++) limits.take("alex", "creates");
    expect(refusal(() => limits.take("alex", "writes"))).toBeNull();
  });
});

describe("a person's open event streams", () => {
  it("are refused past the cap", () => {
    const { limits } = limitsAt();
    limits.openStream("alex");
    limits.openStream("alex");
    expect(refusal(() => limits.openStream("alex"))?.message).toContain("already has 2 event streams open");
  });

  it("make room again when one closes, however often its close is called", () => {
    const { limits } = limitsAt();
    const close = limits.openStream("alex");
    limits.openStream("alex");
    close();
    close();
    limits.openStream("alex");
    expect(refusal(() => limits.openStream("alex"))).not.toBeNull();
  });
});
