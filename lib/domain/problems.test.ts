import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidSandboxSpecError, fieldName, pathOfFieldName, problemsFromZodError, report } from "./problems.ts";

describe("fieldName", () => {
  it("writes indexes in brackets and keys with dots", () => {
    expect(fieldName(["volumes", 1, "pvc", "claimName"])).toBe("volumes[1].pvc.claimName");
  });
});

describe("pathOfFieldName", () => {
  it("reads back the path fieldName wrote", () => {
    expect(pathOfFieldName("volumes[1].pvc.claimName")).toEqual(["volumes", 1, "pvc", "claimName"]);
  });
});

describe("problemsFromZodError", () => {
  it("keeps the code of a Berth rule", () => {
    const schema = z.string().superRefine((_, ctx) => report(ctx, "env.duplicate-name", ["x"], "twice"));
    const error = schema.safeParse("a").error;
    expect(error && problemsFromZodError(error)).toEqual([{ code: "env.duplicate-name", path: ["x"], message: "twice" }]);
  });

  it("uses zod's own code for zod's own checks", () => {
    const error = z.object({ n: z.number() }).safeParse({ n: "1" }).error;
    expect(error && problemsFromZodError(error)).toMatchObject([{ code: "invalid_type", path: ["n"] }]);
  });
});

describe("InvalidSandboxSpecError", () => {
  it("names each offending field in its message", () => {
    const error = new InvalidSandboxSpecError([{ code: "x", path: ["workspace", "claim", "size"], message: "bad" }]);
    expect(error.message).toBe("invalid sandbox spec: workspace.claim.size: bad");
  });
});
