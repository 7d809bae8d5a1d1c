import { describe, expect, it } from "vitest";
import { SelectorError } from "./errors.ts";
import { labelSelectorFromObject, labelSelectorFromSet, parseLabelSelector, selectorToString, type Labels, type MetaLabelSelector } from "./labels.ts";

function parseError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SelectorError) return error.message;
    throw error;
  }
  throw new Error("expected a SelectorError");
}

const agent = { app: "agent", tier: "gpu", "berth.dev/sandbox-id": "b1" };

describe("parseLabelSelector", () => {
  const cases: Array<[string, Labels, boolean]> = [
    ["", agent, true],
    ["", undefined, true],
    ["app=agent", agent, true],
    ["app=web", agent, false],
    ["app=agent", {}, false],
    ["app==agent", agent, true],
    ["app!=web", agent, true],
    ["app!=web", {}, true],
    ["app!=agent", agent, false],
    ["tier in (cpu,gpu)", agent, true],
    ["tier in (cpu)", agent, false],
    ["tier in (cpu)", {}, false],
    ["tier notin (cpu)", agent, true],
    ["tier notin (cpu)", {}, true],
    ["tier notin (gpu)", agent, false],
    ["app", agent, true],
    ["app", {}, false],
    ["!app", agent, false],
    ["!app", {}, true],
    ["berth.dev/sandbox-id=b1,app=agent", agent, true],
    ["berth.dev/sandbox-id=b1,app=web", agent, false],
    ["a=", { a: "" }, true],
    ["a in ()", { a: "" }, true],
    ["x in (in,notin)", { x: "in" }, true],
    ["replicas>2", { replicas: "3" }, true],
    ["replicas>2", { replicas: "2" }, false],
    ["replicas<2", { replicas: "-1" }, true],
    ["replicas>2", { replicas: "many" }, false],
    [" app = agent ,\ttier in ( cpu , gpu )\n", agent, true],
  ];

  it.each(cases)("%j on %j → %s", (text, labels, expected) => {
    expect(parseLabelSelector(text).matches(labels)).toBe(expected);
  });

  it("prints requirements sorted by key, values sorted and de-duplicated", () => {
    expect(selectorToString(parseLabelSelector("z=1, a in (c,b,c), !m, e, n notin (x), k==v, q!=r, r>1, s<2"))).toBe("a in (b,c),e,k==v,!m,n notin (x),q!=r,r>1,s<2,z=1");
    expect(parseLabelSelector("").toString()).toBe("");
  });

  it("round-trips its string form", () => {
    const text = "app=agent,tier in (cpu,gpu),!legacy";
    const selector = parseLabelSelector(text);
    expect(parseLabelSelector(selector.toString()).toString()).toBe(selector.toString());
  });

  it("says when a key is pinned to one value", () => {
    const selector = parseLabelSelector("app=agent,tier in (gpu),zone in (a,b),x!=y");
    expect(selector.requiresExactMatch("app")).toBe("agent");
    expect(selector.requiresExactMatch("tier")).toBe("gpu");
    expect(selector.requiresExactMatch("zone")).toBeUndefined();
    expect(selector.requiresExactMatch("x")).toBeUndefined();
    expect(selector.empty()).toBe(false);
    expect(parseLabelSelector("").empty()).toBe(true);
  });

  const errors: Array<[string, string]> = [
    ["a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ["a=b c", "found 'c', expected: ',' or 'end of string'"],
    [",a", "found ',', expected: !, identifier, or 'end of string'"],
    ["a,", "found '', expected: identifier after ','"],
    ["a=(b)", "unable to parse requirement: found '(', expected: identifier"],
    ["x in a", "unable to parse requirement: found 'a' expected: '('"],
    ["x in (a", "unable to parse requirement: found '', expected: ',' or ')'"],
    ["x in (a b)", "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ["!", "unable to parse requirement: found '', expected: identifier"],
    ["x>y", "unable to parse requirement: values[0]: Invalid value: \"y\": for 'Gt', 'Lt' operators, the value must be an integer"],
    [
      "app=foo/bar",
      "unable to parse requirement: values[0][app]: Invalid value: \"foo/bar\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    [
      "Foo_bar/x=1",
      "unable to parse requirement: <nil>: Invalid value: \"Foo_bar/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
    [
      "-app",
      "unable to parse requirement: <nil>: Invalid value: \"-app\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
    [`${"k".repeat(64)}=v`, `unable to parse requirement: <nil>: Invalid value: "${"k".repeat(64)}": name part must be no more than 63 bytes`],
    [
      "a/b/c",
      "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  ];

  it.each(errors)("refuses %j with apimachinery's message", (text, message) => {
    expect(parseError(() => parseLabelSelector(text))).toBe(message);
  });

  it("answers 400 BadRequest", () => {
    let caught: unknown;
    try {
      parseLabelSelector("a b");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SelectorError);
    expect((caught as SelectorError).toStatus()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
      reason: "BadRequest",
      code: 400,
    });
  });
});

describe("labelSelectorFromObject (metav1.LabelSelectorAsSelector)", () => {
  it("selects nothing for a null selector and everything for an empty one", () => {
    expect(labelSelectorFromObject(null).matches(agent)).toBe(false);
    expect(labelSelectorFromObject(undefined).matchesNothing).toBe(true);
    expect(labelSelectorFromObject({}).matches(agent)).toBe(true);
    expect(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).matches({})).toBe(true);
    expect(labelSelectorFromObject({}).empty()).toBe(true);
    expect(labelSelectorFromObject(null).empty()).toBe(false);
  });

  const cases: Array<[string, MetaLabelSelector, Labels, boolean]> = [
    ["matchLabels", { matchLabels: { "berth.dev/sandbox-id": "b1" } }, agent, true],
    ["matchLabels mismatch", { matchLabels: { "berth.dev/sandbox-id": "b2" } }, agent, false],
    ["In", { matchExpressions: [{ key: "tier", operator: "In", values: ["gpu", "cpu"] }] }, agent, true],
    ["NotIn", { matchExpressions: [{ key: "tier", operator: "NotIn", values: ["gpu"] }] }, agent, false],
    ["Exists", { matchExpressions: [{ key: "app", operator: "Exists" }] }, agent, true],
    ["DoesNotExist", { matchExpressions: [{ key: "app", operator: "DoesNotExist" }] }, agent, false],
    ["both, ANDed", { matchLabels: { app: "agent" }, matchExpressions: [{ key: "tier", operator: "In", values: ["cpu"] }] }, agent, false],
  ];

  it.each(cases)("%s", (_name, selector, labels, expected) => {
    expect(labelSelectorFromObject(selector).matches(labels)).toBe(expected);
  });

  it("prints like the string form", () => {
    const selector = labelSelectorFromObject({ matchLabels: { b: "2", a: "1" }, matchExpressions: [{ key: "c", operator: "Exists" }, { key: "d", operator: "NotIn", values: ["y", "x"] }] });
    expect(selector.toString()).toBe("a=1,b=2,c,d notin (x,y)");
  });

  it("refuses what NewRequirement refuses, with its field paths", () => {
    expect(parseError(() => labelSelectorFromObject({ matchExpressions: [{ key: "a", operator: "Foo" }] }))).toBe('"Foo" is not a valid label selector operator');
    expect(parseError(() => labelSelectorFromObject({ matchExpressions: [{ key: "a", operator: "In", values: [] }] }))).toBe(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    expect(parseError(() => labelSelectorFromObject({ matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] }))).toBe(
      'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
    );
    expect(parseError(() => labelSelectorFromObject({ matchLabels: { "a b": "c" } }))).toBe(
      "key: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
    expect(parseError(() => labelSelectorFromObject({ matchLabels: { "-a": "-b" } }))).toMatch(/^\[key: Invalid value: "-a": .*, values\[0\]\[-a\]: Invalid value: "-b": .*\]$/);
  });
});

describe("labelSelectorFromSet", () => {
  it("selects by equality and prints sorted", () => {
    const selector = labelSelectorFromSet({ tier: "gpu", app: "agent" });
    expect(selector.matches(agent)).toBe(true);
    expect(selector.matches({ app: "agent" })).toBe(false);
    expect(selector.toString()).toBe("app=agent,tier=gpu");
    expect(labelSelectorFromSet({}).matches({})).toBe(true);
  });
});
