import { describe, expect, it } from "vitest";
import type { AccessAttributes } from "../domain/access.ts";
import type { Person } from "../domain/person.ts";
import { AccessDecisions, type AccessDecision } from "./access-decisions.ts";

// The cache in front of SubjectAccessReview: each question reaches Kubernetes once per TTL, a
// failure is never remembered, and a cluster-wide grant answers for every namespace at once.

const alice: Person = { username: "alice", groups: ["team-a"] };
const listSandboxes = { verb: "list", group: "agents.x-k8s.io", resource: "sandboxes" } as const;
const inNamespace = (namespace: string): AccessAttributes => ({ resource: { ...listSandboxes, namespace } });

/** A Kubernetes that allows what `rule` says, counting the questions it was asked. */
function kubernetes(rule: (attributes: AccessAttributes) => boolean) {
  const questions: AccessAttributes[] = [];
  return {
    questions,
    ask: async (_person: Person, attributes: AccessAttributes): Promise<AccessDecision> => {
      questions.push(attributes);
      return { allowed: rule(attributes), reason: "" };
    },
  };
}

describe("AccessDecisions", () => {
  it("asks Kubernetes once for the same question within the TTL", async () => {
    const cluster = kubernetes(() => true);
    const decisions = new AccessDecisions(cluster.ask, { now: () => 0 });
    await decisions.allows(alice, inNamespace("team-a"));
    await decisions.allows(alice, inNamespace("team-a"));
    expect(cluster.questions).toHaveLength(1);
  });

  it("asks again once the TTL has passed", async () => {
    let now = 0;
    const cluster = kubernetes(() => true);
    const decisions = new AccessDecisions(cluster.ask, { ttlMs: 30_000, now: () => now });
    await decisions.allows(alice, inNamespace("team-a"));
    now = 30_001;
    await decisions.allows(alice, inNamespace("team-a"));
    expect(cluster.questions).toHaveLength(2);
  });

  it("shares one question between concurrent requests", async () => {
    const cluster = kubernetes(() => true);
    const decisions = new AccessDecisions(cluster.ask);
    await Promise.all([decisions.allows(alice, inNamespace("team-a")), decisions.allows(alice, inNamespace("team-a"))]);
    expect(cluster.questions).toHaveLength(1);
  });

  it("tells people apart by their groups, in any order", async () => {
    const cluster = kubernetes(() => true);
    const decisions = new AccessDecisions(cluster.ask);
    await decisions.allows({ username: "alice", groups: ["a", "b"] }, inNamespace("team-a"));
    await decisions.allows({ username: "alice", groups: ["b", "a"] }, inNamespace("team-a"));
    await decisions.allows({ username: "alice", groups: ["a"] }, inNamespace("team-a"));
    expect(cluster.questions).toHaveLength(2);
  });

  it("does not remember a question that failed", async () => {
    let failing = true;
    const decisions = new AccessDecisions(async () => {
      if (failing) throw new Error("the API server is down");
      return { allowed: true, reason: "" };
    });
    await expect(decisions.allows(alice, inNamespace("team-a"))).rejects.toThrow("down");
    failing = false;
    expect(await decisions.allows(alice, inNamespace("team-a"))).toBe(true);
  });

  it("finds the namespaces a person may list in, one question each", async () => {
    const cluster = kubernetes((attributes) => "resource" in attributes && attributes.resource.namespace === "team-a");
    const decisions = new AccessDecisions(cluster.ask);
    expect(await decisions.namespacesAllowing(alice, listSandboxes, ["team-a", "team-b", "team-a"])).toEqual(new Set(["team-a"]));
  });

  it("settles every namespace with one question when the person may at the cluster scope", async () => {
    const cluster = kubernetes(() => true);
    const decisions = new AccessDecisions(cluster.ask);
    await decisions.namespacesAllowing(alice, listSandboxes, ["team-a", "team-b", "team-c"]);
    expect(cluster.questions).toEqual([{ resource: listSandboxes }]);
  });

  it("keeps at most maxEntries answers", async () => {
    const cluster = kubernetes(() => true);
    const decisions = new AccessDecisions(cluster.ask, { maxEntries: 2 });
    for (const namespace of ["a", "b", "c"]) await decisions.allows(alice, inNamespace(namespace));
    await decisions.allows(alice, inNamespace("a"));
    expect(cluster.questions).toHaveLength(4);
  });
});
