import type { ParameterOperator, RedirectOperator, Script, Word, WordPart } from "./ast.ts";
import { ShellSyntaxError } from "./syntax-error.ts";

export type OperatorToken = ";" | "&&" | "||" | "|" | "&" | "(" | ")" | ";;";

export type Token =
  | { type: "word"; word: Word; line: number }
  | { type: "operator"; value: OperatorToken; line: number }
  | { type: "redirect"; fd: number | undefined; operator: RedirectOperator; heredoc?: Word; line: number }
  | { type: "newline"; line: number }
  | { type: "eof"; line: number };

/** The parser, handed to the lexer so that `$( … )` can be parsed where it stands. */
export interface NestedParser {
  /** Parses a script starting at `start` up to its closing `)`; returns where that `)` ends. */
  parseUntilClosingParenthesis(source: string, start: number, line: number): { script: Script; end: number; line: number };
  parseScript(source: string, line: number): Script;
}

const METACHARACTERS = new Set([" ", "\t", "\n", ";", "&", "|", "<", ">", "(", ")"]);
const OPERATORS: readonly OperatorToken[] = ["&&", "||", ";;", ";", "&", "|", "(", ")"];
const REDIRECTS: readonly (RedirectOperator | "<<-")[] = [">>", ">|", ">&", "<<-", "<<", "<&", "<>", ">", "<"];
const PARAMETER_OPERATORS: readonly ParameterOperator[] = [":-", ":=", ":?", ":+", "-", "=", "?", "+", "##", "#", "%%", "%"];
const SPECIAL_PARAMETERS = new Set(["?", "#", "@", "*", "$", "!", "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

/** Where the characters of a word-in-progress are coming from: they decide what is special. */
type QuoteContext = "unquoted" | "double-quoted" | "here-document";

class PartsBuilder {
  readonly parts: WordPart[] = [];

  literal(text: string, quoted: boolean): void {
    const last = this.parts.at(-1);
    if (last?.kind === "literal" && last.quoted === quoted && text !== "") last.text += text;
    else this.parts.push({ kind: "literal", text, quoted });
  }

  push(part: WordPart): void {
    this.parts.push(part);
  }
}

interface PendingHereDocument {
  target: Word;
  delimiter: string;
  expand: boolean;
  stripTabs: boolean;
}

export class Lexer {
  private pos: number;
  private line: number;
  private readonly pending: PendingHereDocument[] = [];

  constructor(
    private readonly source: string,
    private readonly nested: NestedParser,
    start = 0,
    line = 1,
  ) {
    this.pos = start;
    this.line = line;
  }

  get position(): number {
    return this.pos;
  }

  get currentLine(): number {
    return this.line;
  }

  next(): Token {
    this.skipBlanks();
    const line = this.line;
    const c = this.source[this.pos];
    if (c === undefined) return { type: "eof", line };
    if (c === "\n") {
      this.pos += 1;
      this.line += 1;
      this.readHereDocuments();
      return { type: "newline", line };
    }
    const fdMatch = /^(\d+)(?=[<>])/.exec(this.source.slice(this.pos, this.pos + 12));
    if (fdMatch?.[1] !== undefined) {
      this.pos += fdMatch[1].length;
      return this.readRedirect(Number(fdMatch[1]), line);
    }
    if (c === "<" || c === ">") return this.readRedirect(undefined, line);
    const operator = OPERATORS.find((candidate) => this.source.startsWith(candidate, this.pos));
    if (operator !== undefined) {
      this.pos += operator.length;
      return { type: "operator", value: operator, line };
    }
    return { type: "word", word: this.readWord(), line };
  }

  /** The parts of the whole remaining source read as the inside of `$(( … ))` or a here-document. */
  readAllParts(context: QuoteContext): WordPart[] {
    return this.readParts(() => false, context);
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.source[this.pos];
      if (c === " " || c === "\t") this.pos += 1;
      else if (c === "\\" && this.source[this.pos + 1] === "\n") {
        this.pos += 2;
        this.line += 1;
      } else if (c === "#") {
        while (this.pos < this.source.length && this.source[this.pos] !== "\n") this.pos += 1;
      } else return;
    }
  }

  private readRedirect(fd: number | undefined, line: number): Token {
    const operator = REDIRECTS.find((candidate) => this.source.startsWith(candidate, this.pos));
    if (operator === undefined) throw new Error("readRedirect called off a redirection");
    this.pos += operator.length;
    if (operator !== "<<" && operator !== "<<-") return { type: "redirect", fd, operator, line };
    this.skipBlanks();
    const c = this.source[this.pos];
    if (c === undefined || METACHARACTERS.has(c)) {
      throw new ShellSyntaxError(c === undefined ? { kind: "end-of-file" } : { kind: "unexpected", token: c === "\n" ? "newline" : c }, line);
    }
    const delimiterWord = this.readWord();
    const target: Word = { parts: [], raw: "" };
    this.pending.push({
      target,
      delimiter: delimiterWord.parts.map((part) => (part.kind === "literal" ? part.text : "")).join(""),
      expand: delimiterWord.parts.every((part) => part.kind !== "literal" || !part.quoted),
      stripTabs: operator === "<<-",
    });
    return { type: "redirect", fd, operator: "<<", heredoc: target, line };
  }

  private readHereDocuments(): void {
    for (const document of this.pending.splice(0)) {
      const lines: string[] = [];
      while (this.pos < this.source.length) {
        const end = this.source.indexOf("\n", this.pos);
        const raw = this.source.slice(this.pos, end < 0 ? this.source.length : end);
        this.pos = end < 0 ? this.source.length : end + 1;
        this.line += 1;
        const text = document.stripTabs ? raw.replace(/^\t+/, "") : raw;
        if (text === document.delimiter) break;
        lines.push(`${text}\n`);
      }
      const body = lines.join("");
      document.target.raw = body;
      document.target.parts = document.expand
        ? new Lexer(body, this.nested).readAllParts("here-document")
        : [{ kind: "literal", text: body, quoted: true }];
    }
  }

  private readWord(): Word {
    const start = this.pos;
    const parts = this.readParts((c) => METACHARACTERS.has(c), "unquoted");
    return { parts, raw: this.source.slice(start, this.pos) };
  }

  private readParts(stop: (c: string) => boolean, context: QuoteContext): WordPart[] {
    const builder = new PartsBuilder();
    const quoted = context !== "unquoted";
    for (;;) {
      const c = this.source[this.pos];
      if (c === undefined || stop(c)) return builder.parts;
      if (c === "\\") {
        this.readBackslash(builder, context);
      } else if (c === "'" && context === "unquoted") {
        const end = this.source.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError({ kind: "unterminated-quote" }, this.line);
        const text = this.source.slice(this.pos + 1, end);
        this.countLines(text);
        builder.literal(text, true);
        this.pos = end + 1;
      } else if (c === '"' && context === "unquoted") {
        this.pos += 1;
        const inner = this.readParts((next) => next === '"', "double-quoted");
        if (this.source[this.pos] !== '"') throw new ShellSyntaxError({ kind: "unterminated-quote" }, this.line);
        this.pos += 1;
        if (inner.length === 0) builder.push({ kind: "literal", text: "", quoted: true });
        for (const part of inner) builder.push(part);
      } else if (c === "$") {
        const part = this.readDollar(quoted);
        if (part === undefined) {
          builder.literal("$", quoted);
          this.pos += 1;
        } else builder.push(part);
      } else if (c === "`") {
        builder.push(this.readBackquote(quoted));
      } else {
        if (c === "\n") this.line += 1;
        builder.literal(c, quoted);
        this.pos += 1;
      }
    }
  }

  private readBackslash(builder: PartsBuilder, context: QuoteContext): void {
    const next = this.source[this.pos + 1];
    if (next === undefined) {
      builder.literal("\\", context !== "unquoted");
      this.pos += 1;
      return;
    }
    this.pos += 2;
    if (next === "\n") {
      this.line += 1;
      return;
    }
    if (context === "unquoted") {
      builder.literal(next, true);
      return;
    }
    const escapable = context === "double-quoted" ? '$`"\\' : "$`\\";
    builder.literal(escapable.includes(next) ? next : `\\${next}`, true);
  }

  private readDollar(quoted: boolean): WordPart | undefined {
    const after = this.source[this.pos + 1];
    if (after === "(" && this.source[this.pos + 2] === "(") return this.readArithmetic(quoted);
    if (after === "(") {
      const { script, end, line } = this.nested.parseUntilClosingParenthesis(this.source, this.pos + 2, this.line);
      this.pos = end;
      this.line = line;
      return { kind: "command", script, quoted };
    }
    if (after === "{") return this.readBracedParameter(quoted);
    if (after !== undefined && NAME_START.test(after)) {
      let end = this.pos + 2;
      while (end < this.source.length && NAME_CHAR.test(this.source[end] ?? "")) end += 1;
      const name = this.source.slice(this.pos + 1, end);
      this.pos = end;
      return { kind: "parameter", name, quoted };
    }
    if (after !== undefined && SPECIAL_PARAMETERS.has(after)) {
      this.pos += 2;
      return { kind: "parameter", name: after, quoted };
    }
    return undefined;
  }

  private readArithmetic(quoted: boolean): WordPart {
    const start = this.pos + 3;
    let depth = 0;
    for (let index = start; index < this.source.length; index += 1) {
      const c = this.source[index];
      if (c === "(") depth += 1;
      else if (c === ")" && depth > 0) depth -= 1;
      else if (c === ")" && this.source[index + 1] === ")") {
        const text = this.source.slice(start, index);
        this.countLines(text);
        this.pos = index + 2;
        const parts = new Lexer(text, this.nested).readAllParts("here-document");
        return { kind: "arithmetic", expression: { parts, raw: text }, quoted };
      }
    }
    throw new ShellSyntaxError({ kind: "end-of-file", expecting: "))" }, this.line);
  }

  private readBracedParameter(quoted: boolean): WordPart {
    const open = this.pos;
    const close = this.source.indexOf("}", open);
    const badSubstitution = () =>
      new ShellSyntaxError({ kind: "bad-substitution", text: this.source.slice(open, close < 0 ? undefined : close + 1) }, this.line);
    this.pos += 2;
    let length = false;
    if (this.source[this.pos] === "#" && this.source[this.pos + 1] !== "}") {
      length = true;
      this.pos += 1;
    }
    const name = this.readParameterName();
    if (name === undefined) throw badSubstitution();
    if (this.source[this.pos] === "}") {
      this.pos += 1;
      return length ? { kind: "parameter", name, quoted, length } : { kind: "parameter", name, quoted };
    }
    const operator = length ? undefined : PARAMETER_OPERATORS.find((candidate) => this.source.startsWith(candidate, this.pos));
    if (operator === undefined) throw badSubstitution();
    this.pos += operator.length;
    const start = this.pos;
    const parts = this.readParts((c) => c === "}", quoted ? "double-quoted" : "unquoted");
    if (this.source[this.pos] !== "}") throw new ShellSyntaxError({ kind: "end-of-file", expecting: "}" }, this.line);
    const raw = this.source.slice(start, this.pos);
    this.pos += 1;
    return { kind: "parameter", name, quoted, operator, argument: { parts, raw } };
  }

  private readParameterName(): string | undefined {
    const first = this.source[this.pos];
    if (first === undefined) return undefined;
    if (NAME_START.test(first)) {
      let end = this.pos + 1;
      while (end < this.source.length && NAME_CHAR.test(this.source[end] ?? "")) end += 1;
      const name = this.source.slice(this.pos, end);
      this.pos = end;
      return name;
    }
    if (/\d/.test(first)) {
      let end = this.pos + 1;
      while (end < this.source.length && /\d/.test(this.source[end] ?? "")) end += 1;
      const name = this.source.slice(this.pos, end);
      this.pos = end;
      return name;
    }
    if (SPECIAL_PARAMETERS.has(first)) {
      this.pos += 1;
      return first;
    }
    return undefined;
  }

  private readBackquote(quoted: boolean): WordPart {
    const line = this.line;
    let inner = "";
    let index = this.pos + 1;
    for (;;) {
      const c = this.source[index];
      if (c === undefined) throw new ShellSyntaxError({ kind: "unterminated-quote" }, line);
      if (c === "`") break;
      const next = this.source[index + 1];
      if (c === "\\" && next !== undefined && ("$`\\".includes(next) || (quoted && next === '"'))) {
        inner += next;
        index += 2;
        continue;
      }
      inner += c;
      index += 1;
    }
    this.countLines(this.source.slice(this.pos, index));
    this.pos = index + 1;
    return { kind: "command", script: this.nested.parseScript(inner, line), quoted };
  }

  private countLines(text: string): void {
    for (const c of text) if (c === "\n") this.line += 1;
  }
}
