// Field selectors, ported from k8s.io/apimachinery/pkg/fields (selector.go: splitTerms,
// splitTerm, UnescapeValue, EscapeValue) and the apiserver's field label conversion.
//
// String form, as in ?fieldSelector=:  key=value  key==value  key!=value, comma-separated (AND).
// In a value, "\", "," and "=" are escaped with a backslash; an unescaped "," separates terms,
// an unescaped "=" is an error. Keys are not trimmed or unescaped. The apiserver then converts
// each field label for the kind and refuses unknown ones ("field label not supported: x").
// Every error is a SelectorError (400 BadRequest).

import { SelectorError } from "./errors.ts";

/** Reads a field's value from an object; undefined reads as "" (fields.Set.Get of a missing key). */
export type FieldGetter<T> = (object: T) => string | undefined;

export type SupportedFields<T> = Readonly<Record<string, FieldGetter<T>>>;

export interface FieldRequirement {
  readonly field: string;
  /** "==" parses as "=" (apimachinery keeps no difference). */
  readonly operator: "=" | "!=";
  readonly value: string;
}

export interface FieldSelector<T> {
  /** The requirements in the order the apiserver evaluates them (terms sorted as strings). */
  readonly requirements: readonly FieldRequirement[];
  matches(object: T): boolean;
  empty(): boolean;
  /** The value an "=" requirement pins the field to, if any. */
  requiresExactMatch(field: string): string | undefined;
  /** apimachinery's String(): "a=b,c!=d", values escaped. */
  toString(): string;
}

/** The conversion error of the core kinds with their own field label conversion, and of custom resources. */
export const fieldLabelNotSupported = (label: string) => `field label not supported: ${label}`;

/** runtime.DefaultMetaV1FieldSelectorConversion's error: the kinds without their own conversion (PVC, PV, PDB, Lease, StorageClass…). */
export const notAKnownFieldSelector = (label: string) => `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`;

/** fields.EscapeValue */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (char) => `\\${char}`);
}

/** fields.UnescapeValue */
export function unescapeFieldValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = "";
  let inSlash = false;
  for (const char of value) {
    if (inSlash) {
      if (char === "\\" || char === "," || char === "=") out += char;
      else throw new SelectorError(`invalid field selector: invalid escape sequence: \\${char}`);
      inSlash = false;
      continue;
    }
    if (char === "\\") inSlash = true;
    // fmt's %v of the rune: its code point.
    else if (char === "," || char === "=") throw new SelectorError(`invalid field selector: unescaped character in value: ${char.codePointAt(0)}`);
    else out += char;
  }
  if (inSlash) throw new SelectorError("invalid field selector: invalid escape sequence: \\");
  return out;
}

/** Splits on commas that are not escaped; the backslashes stay in the terms. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i];
    if (inSlash) inSlash = false;
    else if (char === "\\") inSlash = true;
    else if (char === ",") {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const TERM_OPERATORS = ["!=", "==", "="] as const;

/** The first operator occurrence splits a term; "==" is tried before "=". */
function splitTerm(term: string): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const rest = term.slice(i);
    for (const op of TERM_OPERATORS) {
      if (rest.startsWith(op)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.ParseSelector: the requirements of the string form, unchecked against any kind. */
export function parseFieldRequirements(selector: string): FieldRequirement[] {
  const terms = splitTerms(selector).sort();
  const requirements: FieldRequirement[] = [];
  for (const term of terms) {
    if (term === "") continue;
    const split = splitTerm(term);
    if (!split) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${term}'`);
    requirements.push({ field: split.lhs, operator: split.op === "!=" ? "!=" : "=", value: unescapeFieldValue(split.rhs) });
  }
  return requirements;
}

/**
 * Parses ?fieldSelector= and checks each field against the kind's supported fields, as the
 * apiserver's field label conversion does; an unsupported one is a SelectorError with
 * `unsupportedMessage(label)` (by default "field label not supported: <label>").
 */
export function parseFieldSelector<T>(
  text: string,
  supportedFields: SupportedFields<T>,
  unsupportedMessage: (label: string) => string = fieldLabelNotSupported,
): FieldSelector<T> {
  const requirements = parseFieldRequirements(text);
  const getters = requirements.map((requirement) => {
    const getter = Object.hasOwn(supportedFields, requirement.field) ? supportedFields[requirement.field] : undefined;
    if (!getter) throw new SelectorError(unsupportedMessage(requirement.field));
    return getter;
  });
  return {
    requirements,
    matches: (object) =>
      requirements.every((requirement, index) => {
        const actual = getters[index]?.(object) ?? "";
        return requirement.operator === "=" ? actual === requirement.value : actual !== requirement.value;
      }),
    empty: () => requirements.length === 0,
    requiresExactMatch: (field) => requirements.find((requirement) => requirement.field === field && requirement.operator === "=")?.value,
    toString: () => requirements.map(({ field, operator, value }) => `${field}${operator}${escapeFieldValue(value)}`).join(","),
  };
}
