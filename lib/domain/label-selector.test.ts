import { describe, expect, it } from "vitest";
import { LabelSelectorError, parseLabelSelector, selects } from "./label-selector.ts";

// `-l` as kubectl reads it: each form of requirement, all of them at once, and the mistakes a
// person makes typing one, refused with what is wrong.

const ml = { team: "ml", tier: "gpu" };
const web = { team: "web" };
const bare = {};
const picked = (selector: string) => [ml, web, bare].map((labels) => selects(parseLabelSelector(selector), labels));

describe("a label selector", () => {
  it.each([
    ["team=ml", [true, false, false]],
    ["team==ml", [true, false, false]],
    ["team!=ml", [false, true, true]],
    ["team in (ml, web)", [true, true, false]],
    ["team notin (ml)", [false, true, true]],
    ["tier", [true, false, false]],
    ["!tier", [false, true, true]],
    ["team,!tier", [false, true, false]],
    ["team in (ml,web),tier=gpu", [true, false, false]],
    ["", [true, true, true]],
  ])("%s picks what Kubernetes would", (selector, expected) => {
    expect(picked(selector)).toEqual(expected);
  });

  it("takes keys with a DNS prefix", () => {
    expect(selects(parseLabelSelector("example.com/team=ml"), { "example.com/team": "ml" })).toBe(true);
  });

  it.each([
    ["team=ml,", /empty requirement/],
    ["team in (ml", /unclosed/],
    ["team=ml)", /unbalanced/],
    ["Team Name=ml", /not a label key/],
    ["team=m l", /not a label key|not a label value/],
    ["replicas>1", /not supported/],
    ["team=a/b", /not a label value/],
    ["notin", /an operator, not a key/],
  ])("refuses %s, saying why", (selector, why) => {
    expect(() => parseLabelSelector(selector)).toThrow(LabelSelectorError);
    expect(() => parseLabelSelector(selector)).toThrow(why);
  });
});
