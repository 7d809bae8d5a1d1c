/** `$(( … ))`: integer arithmetic with C's operators and precedence; names read shell variables. */

export class ArithmeticError extends Error {}

type Token = { kind: "number"; value: number } | { kind: "name"; name: string } | { kind: "operator"; text: string };

const OPERATORS = ["<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "(", ")", "<", ">", "!", "~", "&", "^", "|", "?", ":"];

const BINARY_PRECEDENCE: Record<string, number> = {
  "||": 1,
  "&&": 2,
  "|": 3,
  "^": 4,
  "&": 5,
  "==": 6,
  "!=": 6,
  "<": 7,
  "<=": 7,
  ">": 7,
  ">=": 7,
  "<<": 8,
  ">>": 8,
  "+": 9,
  "-": 9,
  "*": 10,
  "/": 10,
  "%": 10,
};

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < expression.length) {
    const rest = expression.slice(index);
    const space = /^\s+/.exec(rest);
    if (space !== null) {
      index += space[0].length;
      continue;
    }
    const number = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)/.exec(rest);
    if (number !== null) {
      const text = number[0];
      const value = /^0[xX]/.test(text) ? Number.parseInt(text, 16) : text.startsWith("0") && text.length > 1 ? Number.parseInt(text, 8) : Number(text);
      tokens.push({ kind: "number", value });
      index += text.length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name !== null) {
      tokens.push({ kind: "name", name: name[0] });
      index += name[0].length;
      continue;
    }
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (operator === undefined) throw new ArithmeticError(`arithmetic expression: expecting EOF: "${expression}"`);
    tokens.push({ kind: "operator", text: operator });
    index += operator.length;
  }
  return tokens;
}

export function evaluateArithmetic(expression: string, lookup: (name: string) => string | undefined): number {
  const tokens = tokenize(expression);
  let position = 0;
  const fail = (): never => {
    throw new ArithmeticError(`arithmetic expression: expecting primary: "${expression}"`);
  };
  const peekOperator = (): string | undefined => {
    const token = tokens[position];
    return token?.kind === "operator" ? token.text : undefined;
  };
  const variable = (name: string): number => {
    const value = lookup(name);
    if (value === undefined || value.trim() === "") return 0;
    const number = Number(value.trim());
    return Number.isNaN(number) ? evaluateArithmetic(value, lookup) : Math.trunc(number);
  };
  const primary = (): number => {
    const token = tokens[position];
    position += 1;
    if (token === undefined) return fail();
    if (token.kind === "number") return token.value;
    if (token.kind === "name") return variable(token.name);
    switch (token.text) {
      case "(": {
        const value = conditional();
        if (peekOperator() !== ")") fail();
        position += 1;
        return value;
      }
      case "-":
        return -primary();
      case "+":
        return primary();
      case "!":
        return primary() === 0 ? 1 : 0;
      case "~":
        return ~primary();
      default:
        return fail();
    }
  };
  const binary = (minimum: number): number => {
    let left = primary();
    for (;;) {
      const operator = peekOperator();
      const precedence = operator === undefined ? undefined : BINARY_PRECEDENCE[operator];
      if (operator === undefined || precedence === undefined || precedence < minimum) return left;
      position += 1;
      const right = binary(precedence + 1);
      left = apply(operator, left, right);
    }
  };
  const conditional = (): number => {
    const condition = binary(1);
    if (peekOperator() !== "?") return condition;
    position += 1;
    const whenTrue = conditional();
    if (peekOperator() !== ":") fail();
    position += 1;
    const whenFalse = conditional();
    return condition !== 0 ? whenTrue : whenFalse;
  };
  if (tokens.length === 0) return 0;
  const value = conditional();
  if (position < tokens.length) fail();
  return value;
}

function apply(operator: string, left: number, right: number): number {
  switch (operator) {
    case "||":
      return left !== 0 || right !== 0 ? 1 : 0;
    case "&&":
      return left !== 0 && right !== 0 ? 1 : 0;
    case "|":
      return left | right;
    case "^":
      return left ^ right;
    case "&":
      return left & right;
    case "==":
      return left === right ? 1 : 0;
    case "!=":
      return left !== right ? 1 : 0;
    case "<":
      return left < right ? 1 : 0;
    case "<=":
      return left <= right ? 1 : 0;
    case ">":
      return left > right ? 1 : 0;
    case ">=":
      return left >= right ? 1 : 0;
    case "<<":
      return left << right;
    case ">>":
      return left >> right;
    case "+":
      return left + right;
    case "-":
      return left - right;
    case "*":
      return left * right;
    case "/":
    case "%":
      if (right === 0) throw new ArithmeticError("arithmetic expression: division by zero");
      return operator === "/" ? Math.trunc(left / right) : left % right;
    default:
      throw new ArithmeticError(`arithmetic expression: unknown operator ${operator}`);
  }
}
