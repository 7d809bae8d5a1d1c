/** What the parser could not accept, kept structured so each shell dialect can word it its own way. */
export type SyntaxProblem =
  | { kind: "unexpected"; token: string }
  | { kind: "end-of-file"; expecting?: string }
  | { kind: "unterminated-quote" }
  | { kind: "bad-substitution"; text: string };

export class ShellSyntaxError extends Error {
  readonly problem: SyntaxProblem;
  readonly line: number;

  constructor(problem: SyntaxProblem, line: number) {
    super(describeForDash(problem));
    this.name = "ShellSyntaxError";
    this.problem = problem;
    this.line = line;
  }
}

/** dash: `Syntax error: "fi" unexpected`, `Syntax error: end of file unexpected (expecting "fi")`. */
export function describeForDash(problem: SyntaxProblem): string {
  switch (problem.kind) {
    case "unexpected":
      return `Syntax error: "${problem.token}" unexpected`;
    case "end-of-file":
      return problem.expecting === undefined
        ? "Syntax error: end of file unexpected"
        : `Syntax error: end of file unexpected (expecting "${problem.expecting}")`;
    case "unterminated-quote":
      return "Syntax error: Unterminated quoted string";
    case "bad-substitution":
      return "Syntax error: Bad substitution";
  }
}

/** bash: `syntax error near unexpected token `fi'`, `syntax error: unexpected end of file`. */
export function describeForBash(problem: SyntaxProblem): string {
  switch (problem.kind) {
    case "unexpected":
      return `syntax error near unexpected token \`${problem.token}'`;
    case "end-of-file":
      return "syntax error: unexpected end of file";
    case "unterminated-quote":
      return "unexpected EOF while looking for matching quote";
    case "bad-substitution":
      return `${problem.text}: bad substitution`;
  }
}
