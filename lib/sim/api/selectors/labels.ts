// Label selectors, ported from k8s.io/apimachinery/pkg/labels (selector.go: Lexer, Parser,
// NewRequirement, Requirement.Matches/String) and metav1.LabelSelectorAsSelector.
//
// String form, as in ?labelSelector=:  a=b  a==b  a!=b  a in (x,y)  a notin (x)  a  !a  a>1  a<1,
// comma-separated (AND). Whitespace (space, tab, CR, LF) separates tokens and is otherwise
// ignored; keys and values are validated like apimachinery does, and a bad selector is a
// SelectorError (400) with apimachinery's message, e.g.
// "unable to parse requirement: <nil>: Invalid value: \"a b\": ..." or
// "found 'c', expected: ',' or 'end of string'".

import { SelectorError } from "./errors.ts";
import { aggregate, fieldInvalid, goQuote, goStringSlice, labelKeyErrors, labelValueErrors } from "./validation.ts";

/** selection.Operator values. */
export type Operator = "in" | "notin" | "=" | "==" | "!=" | "exists" | "!" | "gt" | "lt";

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  /** As given; the string form prints them sorted. */
  readonly values: readonly string[];
}

export type Labels = Readonly<Record<string, string>> | null | undefined;

export interface Selector {
  /** The requirements, sorted by key; all must match. */
  readonly requirements: readonly Requirement[];
  /** True only for labels.Nothing() (a null metav1.LabelSelector). */
  readonly matchesNothing: boolean;
  matches(labels: Labels): boolean;
  /** True when the selector does not restrict anything (labels.Everything()). */
  empty(): boolean;
  /** The value a requirement pins the key to (=, == or a single-value in), if any. */
  requiresExactMatch(key: string): string | undefined;
  /** apimachinery's String(): "a=b,c in (d,e),!f"; "" for everything and for nothing. */
  toString(): string;
}

const BINARY_OPERATORS: readonly Operator[] = ["in", "notin", "=", "==", "!=", "gt", "lt"];

// --- requirements --------------------------------------------------------------------------------

/** strconv.ParseInt(s, 10, 64) */
function parseInt64(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value > 2n ** 63n - 1n || value < -(2n ** 63n) ? undefined : value;
}

/**
 * labels.NewRequirement: validates key, operator arity and values, and throws the aggregated
 * field errors. `path` is the field path the errors are reported under (null when none).
 */
export function newRequirement(key: string, operator: Operator, values: readonly string[] | null, path: string | null = null): Requirement {
  const child = (name: string) => (path === null ? name : `${path}.${name}`);
  const errors: string[] = [];
  const keyErrors = labelKeyErrors(key);
  if (keyErrors.length > 0) errors.push(fieldInvalid(child("key"), goQuote(key), keyErrors.join("; ")));
  const list = values ?? [];
  const valuesPath = child("values");
  switch (operator) {
    case "in":
    case "notin":
      if (list.length === 0) errors.push(fieldInvalid(valuesPath, goStringSlice(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case "=":
    case "==":
    case "!=":
      if (list.length !== 1) errors.push(fieldInvalid(valuesPath, goStringSlice(values), "exact-match compatibility requires one single value"));
      break;
    case "exists":
    case "!":
      if (list.length !== 0) errors.push(fieldInvalid(valuesPath, goStringSlice(values), "values set must be empty for exists and does not exist"));
      break;
    case "gt":
    case "lt":
      if (list.length !== 1) errors.push(fieldInvalid(valuesPath, goStringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      list.forEach((value, index) => {
        if (parseInt64(value) === undefined) errors.push(fieldInvalid(`${valuesPath}[${index}]`, goQuote(value), "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  list.forEach((value, index) => {
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length > 0) errors.push(fieldInvalid(`${valuesPath}[${index}][${key}]`, goQuote(value), valueErrors.join("; ")));
  });
  if (errors.length > 0) throw new SelectorError(aggregate(errors));
  return { key, operator, values: [...list] };
}

export function requirementMatches(requirement: Requirement, labels: Labels): boolean {
  const has = labels !== null && labels !== undefined && Object.hasOwn(labels, requirement.key);
  const value = has ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case "in":
    case "=":
    case "==":
      return value !== undefined && requirement.values.includes(value);
    case "notin":
    case "!=":
      return value === undefined || !requirement.values.includes(value);
    case "exists":
      return has;
    case "!":
      return !has;
    case "gt":
    case "lt": {
      if (value === undefined || requirement.values.length !== 1) return false;
      const actual = parseInt64(value);
      const bound = parseInt64(requirement.values[0] ?? "");
      if (actual === undefined || bound === undefined) return false;
      return requirement.operator === "gt" ? actual > bound : actual < bound;
    }
  }
}

export function requirementToString({ key, operator, values }: Requirement): string {
  let out = operator === "!" ? `!${key}` : key;
  switch (operator) {
    case "exists":
    case "!":
      return out;
    case "in":
      out += " in ";
      break;
    case "notin":
      out += " notin ";
      break;
    case "gt":
      out += ">";
      break;
    case "lt":
      out += "<";
      break;
    default:
      out += operator;
  }
  const listed = values.length === 1 ? (values[0] ?? "") : [...values].sort().join(",");
  return operator === "in" || operator === "notin" ? `${out}(${listed})` : `${out}${listed}`;
}

// --- selectors -----------------------------------------------------------------------------------

const byKey = (requirements: readonly Requirement[]) =>
  // sort.Sort(ByKey): the parser sorts its requirements by key.
  [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

function requirementsSelector(requirements: readonly Requirement[]): Selector {
  const sorted = byKey(requirements);
  return {
    requirements: sorted,
    matchesNothing: false,
    matches: (labels) => sorted.every((requirement) => requirementMatches(requirement, labels)),
    empty: () => sorted.length === 0,
    requiresExactMatch: (key) => {
      const requirement = sorted.find((candidate) => candidate.key === key);
      if (!requirement) return undefined;
      const pins = requirement.operator === "=" || requirement.operator === "==" || requirement.operator === "in";
      return pins && requirement.values.length === 1 ? requirement.values[0] : undefined;
    },
    toString: () => sorted.map(requirementToString).join(","),
  };
}

/** labels.Everything() */
export function everything(): Selector {
  return requirementsSelector([]);
}

/** labels.Nothing() */
export function nothing(): Selector {
  return {
    requirements: [],
    matchesNothing: true,
    matches: () => false,
    empty: () => false,
    requiresExactMatch: () => undefined,
    toString: () => "",
  };
}

/** labels.SelectorFromSet: a=b for each entry, no validation; an empty set selects everything. */
export function labelSelectorFromSet(set: Labels): Selector {
  return requirementsSelector(Object.entries(set ?? {}).map(([key, value]) => ({ key, operator: "=", values: [value] })));
}

export function selectorToString(selector: Selector): string {
  return selector.toString();
}

// --- the string parser ---------------------------------------------------------------------------

type Token = "error" | "end" | ")" | "," | "!" | "==" | "=" | ">" | "identifier" | "in" | "<" | "!=" | "notin" | "(";

interface Scanned {
  readonly token: Token;
  readonly literal: string;
}

const KEYWORDS: Readonly<Record<string, Token>> = { ")": ")", ",": ",", "!": "!", "==": "==", "=": "=", ">": ">", in: "in", "<": "<", "!=": "!=", notin: "notin", "(": "(" };
const keyword = (text: string): Token | undefined => (Object.hasOwn(KEYWORDS, text) ? KEYWORDS[text] : undefined);
const isWhitespace = (ch: string) => ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
const isSpecialSymbol = (ch: string) => "=!(),><".includes(ch) && ch.length === 1;

function lex(input: string): Scanned[] {
  const scanned: Scanned[] = [];
  let pos = 0;
  for (;;) {
    while (pos < input.length && isWhitespace(input[pos] ?? "")) pos++;
    if (pos >= input.length) {
      scanned.push({ token: "end", literal: "" });
      return scanned;
    }
    const start = pos;
    if (isSpecialSymbol(input[pos] ?? "")) {
      // The longest run of special symbols that is still a token.
      let last: Scanned | undefined;
      let buffer = "";
      while (pos < input.length && isSpecialSymbol(input[pos] ?? "")) {
        buffer += input[pos];
        const token = keyword(buffer);
        if (token) {
          last = { token, literal: buffer };
          pos++;
        } else if (last) {
          break;
        } else {
          pos++;
        }
      }
      scanned.push(last ?? { token: "error", literal: `error expected: keyword found '${input.slice(start, pos)}'` });
      continue;
    }
    while (pos < input.length && !isSpecialSymbol(input[pos] ?? "") && !isWhitespace(input[pos] ?? "")) pos++;
    const literal = input.slice(start, pos);
    scanned.push({ token: keyword(literal) ?? "identifier", literal });
  }
}

type Context = "keyAndOperator" | "values";

class Parser {
  private position = 0;

  constructor(private readonly items: readonly Scanned[]) {}

  private at(index: number, context: Context): Scanned {
    const item = this.items[index] ?? { token: "end", literal: "" };
    // In a values context, "in" and "notin" are plain identifiers ("a in (in)").
    if (context === "values" && (item.token === "in" || item.token === "notin")) return { token: "identifier", literal: item.literal };
    return item;
  }

  private lookahead(context: Context): Scanned {
    return this.at(this.position, context);
  }

  private consume(context: Context): Scanned {
    return this.at(this.position++, context);
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, literal } = this.lookahead("values");
      if (token === "identifier" || token === "!") {
        let requirement: Requirement;
        try {
          requirement = this.parseRequirement();
        } catch (error) {
          if (error instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${error.message}`);
          throw error;
        }
        requirements.push(requirement);
        const next = this.consume("values");
        if (next.token === "end") return requirements;
        if (next.token === ",") {
          const after = this.lookahead("values");
          if (after.token !== "identifier" && after.token !== "!") throw new SelectorError(`found '${after.literal}', expected: identifier after ','`);
          continue;
        }
        throw new SelectorError(`found '${next.literal}', expected: ',' or 'end of string'`);
      }
      if (token === "end") return requirements;
      throw new SelectorError(`found '${literal}', expected: !, identifier, or 'end of string'`);
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator: inferred } = this.parseKeyAndInferOperator();
    if (inferred === "exists" || inferred === "!") return newRequirement(key, inferred, []);
    const operator = this.parseOperator();
    const values = operator === "in" || operator === "notin" ? this.parseValues() : this.parseExactValue();
    // sets.String.List(): de-duplicated and sorted.
    return newRequirement(key, operator, [...new Set(values)].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator: Operator | undefined } {
    let operator: Operator | undefined;
    let item = this.consume("values");
    if (item.token === "!") {
      operator = "!";
      item = this.consume("values");
    }
    if (item.token !== "identifier") throw new SelectorError(`found '${item.literal}', expected: identifier`);
    const keyErrors = labelKeyErrors(item.literal);
    if (keyErrors.length > 0) throw new SelectorError(fieldInvalid(null, goQuote(item.literal), keyErrors.join("; ")));
    const next = this.lookahead("values").token;
    if ((next === "end" || next === ",") && operator !== "!") operator = "exists";
    return { key: item.literal, operator };
  }

  private parseOperator(): Operator {
    const { token, literal } = this.consume("keyAndOperator");
    switch (token) {
      case "in":
        return "in";
      case "=":
        return "=";
      case "==":
        return "==";
      case ">":
        return "gt";
      case "<":
        return "lt";
      case "notin":
        return "notin";
      case "!=":
        return "!=";
      default:
        throw new SelectorError(`found '${literal}', expected: ${BINARY_OPERATORS.join(", ")}`);
    }
  }

  private parseValues(): string[] {
    const open = this.consume("values");
    if (open.token !== "(") throw new SelectorError(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.lookahead("values");
    if (token === "identifier" || token === ",") {
      const values = this.parseIdentifiersList();
      if (this.consume("values").token !== ")") throw new SelectorError(`found '${literal}', expected: ')'`);
      return values;
    }
    if (token === ")") {
      this.consume("values");
      return [""];
    }
    throw new SelectorError(`found '${literal}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): string[] {
    const values = new Set<string>();
    for (;;) {
      const { token, literal } = this.consume("values");
      if (token === "identifier") {
        values.add(literal);
        const next = this.lookahead("values");
        if (next.token === ",") continue;
        if (next.token === ")") return [...values];
        throw new SelectorError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (token === ",") {
        if (values.size === 0) values.add(""); // "(,"
        const next = this.lookahead("values").token;
        if (next === ")") {
          values.add(""); // ",)"
          return [...values];
        }
        if (next === ",") values.add(""); // ",,"
        continue;
      }
      throw new SelectorError(`found '${literal}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): string[] {
    const next = this.lookahead("values").token;
    if (next === "end" || next === ",") return [""];
    const { token, literal } = this.consume("values");
    if (token === "identifier") return [literal];
    throw new SelectorError(`found '${literal}', expected: identifier`);
  }
}

/** labels.Parse: the ?labelSelector= string form. "" selects everything. */
export function parseLabelSelector(text: string): Selector {
  return requirementsSelector(new Parser(lex(text)).parse());
}

// --- metav1.LabelSelector ------------------------------------------------------------------------

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[] | null;
}

/** metav1.LabelSelector, as PodDisruptionBudget.spec.selector carries it. */
export interface MetaLabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

const EXPRESSION_OPERATORS: Readonly<Record<string, Operator>> = { In: "in", NotIn: "notin", Exists: "exists", DoesNotExist: "!" };

/**
 * metav1.LabelSelectorAsSelector: a null selector selects nothing, an empty one everything;
 * matchLabels are a=b requirements, matchExpressions In/NotIn/Exists/DoesNotExist.
 */
export function labelSelectorFromObject(selector: MetaLabelSelector | null | undefined): Selector {
  if (selector === null || selector === undefined) return nothing();
  const matchLabels = Object.entries(selector.matchLabels ?? {});
  const matchExpressions = selector.matchExpressions ?? [];
  if (matchLabels.length + matchExpressions.length === 0) return everything();
  const requirements: Requirement[] = matchLabels.map(([key, value]) => newRequirement(key, "=", [value]));
  for (const expression of matchExpressions) {
    const operator = Object.hasOwn(EXPRESSION_OPERATORS, expression.operator) ? EXPRESSION_OPERATORS[expression.operator] : undefined;
    if (!operator) throw new SelectorError(`${goQuote(expression.operator)} is not a valid label selector operator`);
    const values = expression.values && expression.values.length > 0 ? [...expression.values] : null;
    requirements.push(newRequirement(expression.key, operator, values));
  }
  return requirementsSelector(requirements);
}
