import { describe, expect, it } from "vitest";
import { envSchema } from "./env.ts";
import { problemsFromZodError } from "./problems.ts";

function problems(input: unknown) {
  const result = envSchema.safeParse(input);
  return result.success ? [] : problemsFromZodError(result.error);
}

describe("envSchema", () => {
  it("accepts names Kubernetes accepts", () => {
    expect(problems([{ name: "API_BASE_URL", value: "x" }, { name: "my.setting-1", value: "" }])).toEqual([]);
  });

  it("refuses a name that starts with a digit, at that entry's name", () => {
    expect(problems([{ name: "1PASSWORD", value: "x" }])).toMatchObject([{ path: [0, "name"], message: expect.stringContaining("must not start with a digit") }]);
  });

  it("refuses the same name twice, at the second one", () => {
    expect(problems([{ name: "A", value: "1" }, { name: "A", value: "2" }])).toEqual([
      { code: "env.duplicate-name", path: [1, "name"], message: "env A is set twice; keep one of them" },
    ]);
  });
});
