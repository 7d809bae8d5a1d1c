import type { AndOrList, Assignment, CaseCommand, Command, Pipeline, Redirect, Script, SimpleCommand, Word } from "./ast.ts";
import { Lexer, type NestedParser, type Token } from "./lexer.ts";
import { ShellSyntaxError } from "./syntax-error.ts";

const RESERVED_WORDS = new Set(["if", "then", "elif", "else", "fi", "do", "done", "while", "until", "for", "in", "case", "esac", "{", "}", "!"]);
const CLOSING_WORDS = new Set(["then", "elif", "else", "fi", "do", "done", "esac", "}"]);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What ends a compound list: reserved words such as `fi`, or the `)` of a subshell or `$( … )`. */
type Terminator = "then" | "elif" | "else" | "fi" | "do" | "done" | "esac" | "in" | "}" | ")";

const nested: NestedParser = {
  parseUntilClosingParenthesis(source, start, line) {
    const parser = new Parser(source, start, line);
    const script = parser.parseList();
    parser.expectOperator(")");
    return { script, end: parser.position, line: parser.line };
  },
  parseScript(source, line) {
    return new Parser(source, 0, line).parseProgram();
  },
};

/** Parses a whole script; throws ShellSyntaxError with the line it stopped at. */
export function parseScript(source: string): Script {
  return new Parser(source, 0, 1).parseProgram();
}

class Parser {
  private readonly lexer: Lexer;
  private lookahead: Token | undefined;

  constructor(source: string, start: number, line: number) {
    this.lexer = new Lexer(source, nested, start, line);
  }

  get position(): number {
    return this.lexer.position;
  }

  get line(): number {
    return this.lexer.currentLine;
  }

  parseProgram(): Script {
    const script = this.parseList();
    const token = this.peek();
    if (token.type !== "eof") throw this.unexpected(token);
    return script;
  }

  parseList(): Script {
    const items: AndOrList[] = [];
    this.skipNewlines();
    while (!this.atTerminator()) {
      items.push(this.parseAndOr());
      const token = this.peek();
      if (token.type === "operator" && token.value === ";") {
        this.advance();
        this.skipNewlines();
      } else if (token.type === "newline") {
        this.skipNewlines();
      } else if (token.type === "operator" && token.value === "&") {
        items[items.length - 1]!.background = true;
        this.advance();
        this.skipNewlines();
      } else break;
    }
    return { items };
  }

  expectOperator(value: ")"): void {
    const token = this.peek();
    if (token.type === "operator" && token.value === value) {
      // Not advance(): that would read past the `)` and move the lexer beyond the substitution.
      this.lookahead = undefined;
      return;
    }
    if (token.type === "eof") throw new ShellSyntaxError({ kind: "end-of-file", expecting: value }, token.line);
    throw this.unexpected(token);
  }

  private parseAndOr(): AndOrList {
    const first = this.parsePipeline();
    const rest: AndOrList["rest"] = [];
    for (;;) {
      const token = this.peek();
      if (token.type !== "operator" || (token.value !== "&&" && token.value !== "||")) return { first, rest };
      this.advance();
      this.skipNewlines();
      rest.push({ operator: token.value, pipeline: this.parsePipeline() });
    }
  }

  private parsePipeline(): Pipeline {
    let negated = false;
    if (this.isReserved(this.peek(), "!")) {
      this.advance();
      negated = true;
    }
    const commands = [this.parseCommand()];
    for (;;) {
      const token = this.peek();
      if (token.type !== "operator" || token.value !== "|") return { negated, commands };
      this.advance();
      this.skipNewlines();
      commands.push(this.parseCommand());
    }
  }

  private parseCommand(): Command {
    const token = this.peek();
    if (token.type === "word" && RESERVED_WORDS.has(token.word.raw)) {
      switch (token.word.raw) {
        case "if":
          return this.withRedirects(this.parseIf());
        case "while":
        case "until":
          return this.withRedirects(this.parseLoop(token.word.raw));
        case "for":
          return this.withRedirects(this.parseFor());
        case "{":
          return this.withRedirects(this.parseGroup(false));
        case "case":
          return this.withRedirects(this.parseCase());
        default:
          // `in` and `!` are only reserved where they make sense; elsewhere they are plain words.
          if (token.word.raw !== "in" && token.word.raw !== "!") throw this.unexpected(token);
      }
    }
    if (token.type === "operator" && token.value === "(") return this.withRedirects(this.parseGroup(true));
    if (token.type === "word" && NAME.test(token.word.raw)) {
      this.advance();
      const next = this.peek();
      if (next.type === "operator" && next.value === "(") return this.parseFunction(token.word.raw, token.line);
      return this.parseSimple(token);
    }
    return this.parseSimple();
  }

  private parseFunction(name: string, line: number): Command {
    this.advance();
    const close = this.advance();
    if (close.type !== "operator" || close.value !== ")") throw this.unexpected(close);
    this.skipNewlines();
    const body = this.parseCommand();
    if (body.kind === "simple" || body.kind === "function") throw new ShellSyntaxError({ kind: "unexpected", token: "newline" }, body.line);
    return { kind: "function", line, name, body, redirects: [] };
  }

  /** `first` is a word already taken off the stream while looking for `name()`. */
  private parseSimple(first?: Extract<Token, { type: "word" }>): SimpleCommand {
    const line = first?.line ?? this.peek().line;
    const assignments: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    if (first !== undefined) {
      const assignment = asAssignment(first.word);
      if (assignment === undefined) words.push(first.word);
      else assignments.push(assignment);
    }
    for (;;) {
      const token = this.peek();
      if (token.type === "redirect") {
        redirects.push(this.parseRedirect());
      } else if (token.type === "word") {
        this.advance();
        const assignment = words.length === 0 ? asAssignment(token.word) : undefined;
        if (assignment === undefined) words.push(token.word);
        else assignments.push(assignment);
      } else break;
    }
    if (assignments.length === 0 && words.length === 0 && redirects.length === 0) throw this.unexpected(this.peek());
    return { kind: "simple", line, assignments, words, redirects };
  }

  private parseRedirect(): Redirect {
    const token = this.advance();
    if (token.type !== "redirect") throw this.unexpected(token);
    if (token.heredoc !== undefined) return { fd: token.fd ?? 0, operator: "<<", target: token.heredoc };
    const target = this.advance();
    if (target.type !== "word") throw this.unexpected(target);
    const operator = token.operator;
    const fd = token.fd ?? (operator.startsWith("<") ? 0 : 1);
    return { fd, operator, target: target.word };
  }

  private withRedirects<T extends Command>(command: T): T {
    while (this.peek().type === "redirect") command.redirects.push(this.parseRedirect());
    return command;
  }

  private parseIf(): Command {
    const line = this.advance().line;
    const branches: { condition: Script; body: Script }[] = [];
    let otherwise: Script | undefined;
    for (;;) {
      const condition = this.parseCompoundList(new Set(["then"]));
      this.expectReserved("then");
      const body = this.parseCompoundList(new Set(["elif", "else", "fi"]));
      branches.push({ condition, body });
      const token = this.peek();
      if (this.isReserved(token, "elif")) {
        this.advance();
        continue;
      }
      if (this.isReserved(token, "else")) {
        this.advance();
        otherwise = this.parseCompoundList(new Set(["fi"]));
      }
      this.expectReserved("fi");
      return otherwise === undefined ? { kind: "if", line, branches, redirects: [] } : { kind: "if", line, branches, otherwise, redirects: [] };
    }
  }

  private parseCase(): CaseCommand {
    const line = this.advance().line;
    const subject = this.advance();
    if (subject.type !== "word") throw this.unexpected(subject);
    this.skipNewlines();
    this.expectReserved("in");
    this.skipNewlines();
    const items: CaseCommand["items"] = [];
    while (!this.isReserved(this.peek(), "esac")) {
      const open = this.peek();
      if (open.type === "operator" && open.value === "(") this.advance();
      const patterns: Word[] = [];
      for (;;) {
        const pattern = this.advance();
        if (pattern.type !== "word") throw this.unexpected(pattern);
        patterns.push(pattern.word);
        const next = this.advance();
        if (next.type === "operator" && next.value === ")") break;
        if (next.type !== "operator" || next.value !== "|") throw this.unexpected(next);
      }
      const body = this.parseList();
      items.push({ patterns, body });
      const end = this.peek();
      if (end.type === "operator" && end.value === ";;") {
        this.advance();
        this.skipNewlines();
      } else if (!this.isReserved(end, "esac")) {
        if (end.type === "eof") throw new ShellSyntaxError({ kind: "end-of-file", expecting: "esac" }, end.line);
        throw this.unexpected(end);
      }
    }
    this.expectReserved("esac");
    return { kind: "case", line, subject: subject.word, items, redirects: [] };
  }

  private parseLoop(kind: "while" | "until"): Command {
    const line = this.advance().line;
    const condition = this.parseCompoundList(new Set(["do"]));
    this.expectReserved("do");
    const body = this.parseCompoundList(new Set(["done"]));
    this.expectReserved("done");
    return { kind, line, condition, body, redirects: [] };
  }

  private parseFor(): Command {
    const line = this.advance().line;
    const nameToken = this.advance();
    if (nameToken.type !== "word" || !NAME.test(nameToken.word.raw)) {
      throw new ShellSyntaxError({ kind: "unexpected", token: tokenText(nameToken) }, nameToken.line);
    }
    this.skipNewlines();
    let items: Word[] | undefined;
    if (this.isReserved(this.peek(), "in")) {
      this.advance();
      items = [];
      for (let token = this.peek(); token.type === "word"; token = this.peek()) {
        this.advance();
        items.push(token.word);
      }
    }
    const separator = this.peek();
    if (separator.type === "operator" && separator.value === ";") this.advance();
    this.skipNewlines();
    this.expectReserved("do");
    const body = this.parseCompoundList(new Set(["done"]));
    this.expectReserved("done");
    const variable = nameToken.word.raw;
    return items === undefined ? { kind: "for", line, variable, body, redirects: [] } : { kind: "for", line, variable, items, body, redirects: [] };
  }

  private parseGroup(subshell: boolean): Command {
    const line = this.advance().line;
    const body = this.parseCompoundList(new Set<Terminator>([subshell ? ")" : "}"]));
    if (subshell) {
      const token = this.peek();
      if (token.type === "operator" && token.value === ")") this.advance();
      else if (token.type === "eof") throw new ShellSyntaxError({ kind: "end-of-file", expecting: ")" }, token.line);
      else throw this.unexpected(token);
    } else this.expectReserved("}");
    return { kind: "group", line, subshell, body, redirects: [] };
  }

  private parseCompoundList(terminators: ReadonlySet<Terminator>): Script {
    const script = this.parseList();
    if (script.items.length === 0) {
      const token = this.peek();
      if (token.type === "eof") throw new ShellSyntaxError({ kind: "end-of-file", expecting: [...terminators][0] }, token.line);
      throw this.unexpected(token);
    }
    return script;
  }

  private expectReserved(word: Terminator): void {
    const token = this.peek();
    if (this.isReserved(token, word)) {
      this.advance();
      return;
    }
    if (token.type === "eof") throw new ShellSyntaxError({ kind: "end-of-file", expecting: word }, token.line);
    throw this.unexpected(token);
  }

  private atTerminator(): boolean {
    const token = this.peek();
    if (token.type === "eof") return true;
    if (token.type === "operator") return token.value === ")" || token.value === ";;";
    // A closing word nobody waits for still ends the list, so that the caller can report it as unexpected.
    return token.type === "word" && CLOSING_WORDS.has(token.word.raw);
  }

  private isReserved(token: Token, word: string): boolean {
    return token.type === "word" && token.word.raw === word;
  }

  private skipNewlines(): void {
    while (this.peek().type === "newline") this.advance();
  }

  private peek(): Token {
    this.lookahead ??= this.lexer.next();
    return this.lookahead;
  }

  private advance(): Token {
    const token = this.peek();
    this.lookahead = undefined;
    return token;
  }

  private unexpected(token: Token): ShellSyntaxError {
    if (token.type === "eof") return new ShellSyntaxError({ kind: "end-of-file" }, token.line);
    return new ShellSyntaxError({ kind: "unexpected", token: tokenText(token) }, token.line);
  }
}

function tokenText(token: Token): string {
  switch (token.type) {
    case "word":
      return token.word.raw;
    case "operator":
      return token.value;
    case "redirect":
      return token.operator;
    case "newline":
      return "newline";
    case "eof":
      return "end of file";
  }
}

function asAssignment(word: Word): Assignment | undefined {
  const [first, ...rest] = word.parts;
  if (first?.kind !== "literal" || first.quoted) return undefined;
  const match = ASSIGNMENT.exec(first.text);
  if (match?.[1] === undefined) return undefined;
  const remainder = first.text.slice(match[0].length);
  const parts = remainder === "" ? rest : [{ ...first, text: remainder }, ...rest];
  return { name: match[1], value: { parts, raw: word.raw.slice(match[0].length) } };
}
