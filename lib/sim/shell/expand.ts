import type { Script, Word, WordPart } from "./ast.ts";
import { ArithmeticError, evaluateArithmetic } from "./arithmetic.ts";
import { escapeGlob, expandPathname, hasGlobMeta, removeMatching } from "./pattern.ts";
import { ExitSignal, type ShellState } from "./shell-state.ts";
import type { OutputSink } from "./streams.ts";

/** What expanding a word needs from the shell that runs it. */
export interface ExpansionHost {
  state: ShellState;
  /** Runs `$( … )` in a subshell and returns its stdout; sets `$?`. */
  runSubstitution(script: Script): Promise<string>;
  stderr: OutputSink;
  line: number;
}

/** A run of characters on its way into fields: quoted text is never split or globbed. */
type Piece = { text: string; quoted: boolean; splittable: boolean } | { fieldBreak: true };

const DEFAULT_IFS = " \t\n";

/** Words to fields: parameter, command and arithmetic expansion, field splitting, pathname expansion. */
export async function expandFields(words: readonly Word[], host: ExpansionHost): Promise<string[]> {
  const fields: string[] = [];
  for (const word of words) {
    const pieces = await expandParts(word.parts, host, true);
    for (const field of splitFields(pieces, host.state.get("IFS") ?? DEFAULT_IFS)) fields.push(...globField(field, host));
  }
  return fields;
}

/** One string, unsplit and unglobbed: assignments, redirection targets, here-documents. */
export async function expandText(word: Word, host: ExpansionHost): Promise<string> {
  return piecesText(await expandParts(word.parts, host, true));
}

function piecesText(pieces: readonly Piece[]): string {
  return pieces.map((piece) => ("fieldBreak" in piece ? " " : piece.text)).join("");
}

/** A pattern operand (`${x%pattern}`, a `case` pattern): quoted characters match literally. */
export async function expandPattern(word: Word, host: ExpansionHost): Promise<string> {
  const pieces = await expandParts(word.parts, host, false);
  return pieces.map((piece) => ("fieldBreak" in piece ? " " : piece.quoted ? escapeGlob(piece.text) : piece.text)).join("");
}

async function expandParts(parts: readonly WordPart[], host: ExpansionHost, tilde: boolean): Promise<Piece[]> {
  const pieces: Piece[] = [];
  for (const [index, part] of parts.entries()) {
    switch (part.kind) {
      case "literal": {
        const text = tilde && index === 0 && !part.quoted ? expandTilde(part.text, host.state) : part.text;
        pieces.push({ text, quoted: part.quoted, splittable: false });
        break;
      }
      case "parameter":
        pieces.push(...(await expandParameter(part, host)));
        break;
      case "command": {
        const output = await host.runSubstitution(part.script);
        pieces.push({ text: output.replace(/\n+$/, ""), quoted: part.quoted, splittable: !part.quoted });
        break;
      }
      case "arithmetic": {
        const expression = await expandText(part.expression, host);
        let value: number;
        try {
          value = evaluateArithmetic(expression, (name) => host.state.get(name));
        } catch (error) {
          if (!(error instanceof ArithmeticError)) throw error;
          fatal(host, error.message);
        }
        pieces.push({ text: String(value), quoted: part.quoted, splittable: !part.quoted });
        break;
      }
    }
  }
  return pieces;
}

function expandTilde(text: string, state: ShellState): string {
  if (text !== "~" && !text.startsWith("~/")) return text;
  return `${state.get("HOME") ?? "/root"}${text.slice(1)}`;
}

/** A non-interactive shell reports an expansion error and exits with status 2. */
function fatal(host: ExpansionHost, message: string): never {
  host.stderr.write(host.state.diagnostic(host.line, message));
  throw new ExitSignal(2);
}

export function parameterValue(name: string, state: ShellState): string | undefined {
  switch (name) {
    case "?":
      return String(state.lastStatus);
    case "#":
      return String(state.positional.length);
    case "@":
    case "*":
      return state.positional.join(name === "*" ? ((state.get("IFS") ?? DEFAULT_IFS)[0] ?? "") : " ");
    case "$":
      return String(state.pid);
    case "!":
      return state.lastJobPid === undefined ? "" : String(state.lastJobPid);
    case "-":
      return state.optionFlags();
    case "0":
      return state.scriptName;
    default:
      if (/^\d+$/.test(name)) return state.positional[Number(name) - 1];
      return state.get(name);
  }
}

async function expandParameter(part: Extract<WordPart, { kind: "parameter" }>, host: ExpansionHost): Promise<Piece[]> {
  const { state } = host;
  const { name, quoted } = part;
  if (name === "@" && quoted && part.operator === undefined && part.length !== true) {
    return state.positional.flatMap((value, index): Piece[] =>
      index === 0 ? [{ text: value, quoted: true, splittable: false }] : [{ fieldBreak: true }, { text: value, quoted: true, splittable: false }],
    );
  }
  let value = parameterValue(name, state);
  const expanded = (text: string): Piece[] => [{ text, quoted, splittable: !quoted }];
  if (part.length === true) return expanded(String([...(value ?? "")].length));
  const { operator, argument } = part;
  if (operator !== undefined && argument !== undefined) {
    const unsetOrNull = operator.startsWith(":") ? value === undefined || value === "" : value === undefined;
    const argumentPieces = async (): Promise<Piece[]> =>
      (await expandParts(argument.parts, host, true)).map((piece) =>
        "fieldBreak" in piece || quoted || piece.quoted ? piece : { ...piece, splittable: true },
      );
    switch (operator) {
      case "-":
      case ":-":
        return unsetOrNull ? argumentPieces() : expanded(value ?? "");
      case "=":
      case ":=":
        if (unsetOrNull) {
          value = piecesText(await argumentPieces());
          state.set(name, value);
        }
        return expanded(value ?? "");
      case "?":
      case ":?":
        if (unsetOrNull) {
          const message = argument.parts.length > 0 ? piecesText(await argumentPieces()) : value === undefined ? "parameter not set" : "parameter null or not set";
          fatal(host, `${name}: ${message}`);
        }
        return expanded(value ?? "");
      case "+":
      case ":+":
        return unsetOrNull ? [] : argumentPieces();
      default:
        return expanded(removeMatching(value ?? "", await expandPattern(argument, host), operator));
    }
  }
  if (value === undefined && state.options.nounset && name !== "@" && name !== "*") fatal(host, `${name}: parameter not set`);
  return expanded(value ?? "");
}

interface FieldPiece {
  text: string;
  quoted: boolean;
}

/** Splits unquoted expansion results on IFS; a field survives if it has text or quotes. */
function splitFields(pieces: readonly Piece[], ifs: string): FieldPiece[][] {
  const fields: FieldPiece[][] = [];
  let current: FieldPiece[] = [];
  let keep = false;
  const flush = () => {
    if (keep || current.some((piece) => piece.text !== "")) fields.push(current);
    current = [];
    keep = false;
  };
  const separators = ifs === "" ? undefined : new RegExp(`[${ifs.replace(/[\\\]^-]/g, "\\$&")}]+`);
  for (const piece of pieces) {
    if ("fieldBreak" in piece) {
      keep = true;
      flush();
      keep = true;
      continue;
    }
    if (!piece.splittable || separators === undefined) {
      current.push({ text: piece.text, quoted: piece.quoted });
      if (piece.quoted) keep = true;
      continue;
    }
    piece.text.split(separators).forEach((segment, index) => {
      if (index > 0) flush();
      if (segment !== "") current.push({ text: segment, quoted: false });
    });
  }
  flush();
  return fields;
}

function globField(field: readonly FieldPiece[], host: ExpansionHost): string[] {
  const text = field.map((piece) => piece.text).join("");
  if (!field.some((piece) => !piece.quoted && hasGlobMeta(piece.text))) return [text];
  const pattern = field.map((piece) => (piece.quoted ? escapeGlob(piece.text) : piece.text)).join("");
  const matches = expandPathname(pattern, host.state.services.fs, host.state.cwd);
  return matches.length > 0 ? matches : [text];
}
