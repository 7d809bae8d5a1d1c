import { describe, expect, it } from "vitest";
import { problemsFromZodError } from "./problems.ts";
import { resourcesSchema } from "./resources.ts";

function problems(input: unknown) {
  const result = resourcesSchema.safeParse(input);
  return result.success ? [] : problemsFromZodError(result.error);
}

describe("resourcesSchema", () => {
  it("accepts a limit equal to its request written in other units", () => {
    expect(problems({ requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1000m", memory: "1024Mi" } })).toEqual([]);
  });

  it("refuses a memory limit below its request, at the limit", () => {
    expect(problems({ requests: { memory: "2Gi" }, limits: { memory: "1Gi" } })).toEqual([
      {
        code: "resources.limit-below-request",
        path: ["limits", "memory"],
        message: "resources.limits.memory (1Gi) is below resources.requests.memory (2Gi); raise the limit or lower the request",
      },
    ]);
  });

  it("refuses a cpu limit below its request", () => {
    expect(problems({ requests: { cpu: "2" }, limits: { cpu: "500m" } })).toMatchObject([{ code: "resources.limit-below-request", path: ["limits", "cpu"] }]);
  });

  it("refuses a quantity that is not a Kubernetes quantity", () => {
    expect(problems({ requests: { memory: "2 GB" } })).toMatchObject([
      { path: ["requests", "memory"], message: expect.stringContaining("must be a positive Kubernetes quantity") },
    ]);
  });

  it("refuses resources it does not know, such as gpu", () => {
    expect(problems({ limits: { gpu: "1" } })).toMatchObject([{ code: "unrecognized_keys", path: ["limits"] }]);
  });
});
