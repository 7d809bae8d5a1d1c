import { z } from "zod";
import { isLabelKey, isLabelValue, userLabelsOf } from "./labels.ts";

// Kubernetes' label selectors, as `kubectl get -l` takes them (k8s.io/apimachinery/pkg/labels):
// requirements separated by commas, all of which must hold —
//   team=ml  team==ml  team!=ml  team in (ml,infra)  team notin (ml)  team  !team
// `!=` and `notin` also hold for an object without the key, as in Kubernetes.

export type Requirement =
  | { key: string; operator: "exists" | "does-not-exist" }
  | { key: string; operator: "in" | "not-in"; values: string[] };

export type LabelSelector = Requirement[];

export class LabelSelectorError extends Error {
  override name = "LabelSelectorError";
}

/** Commas inside a set's parentheses do not separate requirements. */
function requirementsOf(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const character of text) {
    if (character === "(") depth++;
    if (character === ")") depth--;
    if (depth < 0) throw new LabelSelectorError(`unbalanced ")" in ${JSON.stringify(text)}`);
    if (character === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else {
      current += character;
    }
  }
  if (depth !== 0) throw new LabelSelectorError(`unclosed "(" in ${JSON.stringify(text)}`);
  return [...parts, current].map((part) => part.trim());
}

function checkedKey(key: string): string {
  if (key === "in" || key === "notin") throw new LabelSelectorError(`"${key}" is an operator, not a key: write KEY ${key} (VALUE, …)`);
  if (!isLabelKey(key)) throw new LabelSelectorError(`${JSON.stringify(key)} is not a label key (a name of letters, digits, '-', '_' and '.', optionally after a DNS prefix and '/')`);
  return key;
}

function checkedValue(value: string, key: string): string {
  if (!isLabelValue(value)) throw new LabelSelectorError(`${JSON.stringify(value)} is not a label value for ${key} (at most 63 letters, digits, '-', '_' or '.')`);
  return value;
}

function requirement(text: string): Requirement {
  if (text === "") throw new LabelSelectorError("an empty requirement: remove the extra comma");
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(text);
  if (set) {
    const key = checkedKey(set[1]!);
    const values = set[3]!.split(",").map((value) => checkedValue(value.trim(), key));
    return { key, operator: set[2] === "in" ? "in" : "not-in", values };
  }
  const comparison = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(text);
  if (comparison) {
    const key = checkedKey(comparison[1]!);
    return { key, operator: comparison[2] === "!=" ? "not-in" : "in", values: [checkedValue(comparison[3]!, key)] };
  }
  if (text.startsWith("!")) return { key: checkedKey(text.slice(1).trim()), operator: "does-not-exist" };
  if (/[<>]/.test(text)) throw new LabelSelectorError(`${JSON.stringify(text)}: the numeric comparisons < and > are not supported; use =, !=, in, notin, KEY or !KEY`);
  return { key: checkedKey(text), operator: "exists" };
}

export function parseLabelSelector(text: string): LabelSelector {
  return text.trim() === "" ? [] : requirementsOf(text).map(requirement);
}

export function selects(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  return selector.every((one) => {
    const has = Object.hasOwn(labels, one.key);
    switch (one.operator) {
      case "exists":
        return has;
      case "does-not-exist":
        return !has;
      case "in":
        return has && one.values.includes(labels[one.key]!);
      case "not-in":
        return !has || !one.values.includes(labels[one.key]!);
    }
  });
}

/** Whether a stored sandbox spec's labels are picked by the selector; no selector (or an empty one) picks every spec. */
export function selectsSpec(selector: LabelSelector | undefined, spec: Record<string, unknown>): boolean {
  return !selector?.length || selects(selector, userLabelsOf(spec));
}

/** A query parameter holding a selector, read into its requirements; a bad one is a field problem. */
export const labelSelectorSchema = z
  .string()
  .max(4096, "labelSelector must be at most 4096 characters")
  .transform((text, ctx) => {
    try {
      return parseLabelSelector(text);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `labelSelector: ${(error as Error).message}` });
      return z.NEVER;
    }
  });
