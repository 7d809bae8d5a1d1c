import { describe, expect, it } from "vitest";
import { reservedLabelProblems, userLabelsSchema } from "./labels.ts";
import { problemsFromZodError } from "./problems.ts";

// The labels a person gives a sandbox, refused where the API server would refuse them, and where
// they would pass for labels Kubernetes, agent-sandbox or Berth keep for themselves.

const problemsOf = (labels: unknown) => {
  const parsed = userLabelsSchema.safeParse(labels);
  return parsed.success ? [] : problemsFromZodError(parsed.error).map((problem) => [problem.code, problem.path.join(".")]);
};

describe("a sandbox's labels", () => {
  it("take keys with or without a DNS prefix, and empty values", () => {
    expect(problemsOf({ team: "ml", "example.com/owner": "dana", scratch: "" })).toEqual([]);
  });

  it("refuse a key Kubernetes would, naming it", () => {
    expect(problemsOf({ "team name": "ml" })).toEqual([["labels.invalid-key", "team name"]]);
  });

  it("refuse a value Kubernetes would, naming its key", () => {
    expect(problemsOf({ team: "machine learning" })).toEqual([["labels.invalid-value", "team"]]);
  });

  it("refuse more than 32", () => {
    expect(problemsOf(Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`l${index}`, "x"])))).toEqual([["limit.too-many", ""]]);
  });

  it.each(["berth.dev/sandbox-id", "kubernetes.io/arch", "node.kubernetes.io/role", "agents.x-k8s.io/sandbox", "k8s.io/x"])("keep %s for its owner", (key) => {
    expect(reservedLabelProblems({ [key]: "x" }, "berth.dev").map((problem) => problem.code)).toEqual(["labels.reserved-key"]);
  });

  it("leave every other domain to the person, and Kubernetes' recommended app.kubernetes.io labels", () => {
    expect(reservedLabelProblems({ "example.com/team": "ml", team: "ml", "app.kubernetes.io/part-of": "ml-platform" }, "berth.dev")).toEqual([]);
  });
});
