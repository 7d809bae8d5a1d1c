import { type CommandContext, parseOptions, reasonOf, report, usageError } from "./command.ts";

interface Input {
  name: string | undefined;
  text: string;
}

/** Reads each operand (or stdin for none or `-`), reporting unreadable ones the GNU way. */
async function readInputs(operands: string[], context: CommandContext): Promise<{ inputs: Input[]; status: number }> {
  const inputs: Input[] = [];
  let status = 0;
  for (const operand of operands.length === 0 ? ["-"] : operands) {
    try {
      const text = operand === "-" ? await context.stdin.readAll() : context.fs.readFile(operand, { cwd: context.cwd });
      inputs.push({ name: operands.length === 0 ? undefined : operand, text });
    } catch (error) {
      report(context, `${operand}: ${reasonOf(error)}`);
      status = 1;
    }
  }
  return { inputs, status };
}

export async function wc(args: string[], context: CommandContext): Promise<number> {
  const options = parseOptions(args, { flags: "lwcm", long: { lines: "l", words: "w", bytes: "c", chars: "m" } });
  if ("error" in options) return usageError(context, options.error);
  const chosen = ["l", "w", "m", "c"].filter((flag) => options.flags.has(flag));
  const columns = chosen.length === 0 ? ["l", "w", "c"] : chosen;
  const { inputs, status } = await readInputs(options.operands, context);
  const rows = inputs.map((input) => ({ name: input.name, counts: columns.map((column) => count(input.text, column)) }));
  if (rows.length > 1) rows.push({ name: "total", counts: columns.map((_, index) => rows.reduce((sum, row) => sum + (row.counts[index] ?? 0), 0)) });
  const readsStdin = inputs.some((input) => input.name === undefined || input.name === "-");
  // GNU wc pads to the width of the total byte count, or to 7 when it cannot know it (stdin).
  const width = columns.length === 1 && rows.length === 1 ? 1 : readsStdin ? 7 : String(Math.max(...inputs.map((input) => Buffer.byteLength(input.text)), 0)).length;
  for (const row of rows) {
    const numbers = row.counts.map((value) => String(value).padStart(width)).join(" ");
    context.stdout.write(row.name === undefined ? `${numbers}\n` : `${numbers} ${row.name}\n`);
  }
  return status;
}

function count(text: string, column: string): number {
  switch (column) {
    case "l":
      return (text.match(/\n/g) ?? []).length;
    case "w":
      return text.split(/\s+/).filter((word) => word !== "").length;
    case "m":
      return [...text].length;
    default:
      return Buffer.byteLength(text);
  }
}

/** The obsolete `head -5` spelling, still common in scripts, is `-n 5`. */
function withLegacyLineCount(args: string[]): string[] {
  return args.map((arg) => (/^-\d+$/.test(arg) ? `-n${arg.slice(1)}` : arg));
}

export async function head(args: string[], context: CommandContext): Promise<number> {
  const options = parseOptions(withLegacyLineCount(args), { flags: "qv", valued: "nc", long: { lines: "n", bytes: "c" } });
  if ("error" in options) return usageError(context, options.error);
  const byteText = options.values.get("c");
  const lineText = options.values.get("n") ?? "10";
  const amount = Number(byteText ?? lineText);
  if (!Number.isInteger(amount)) return usageError(context, `invalid number of ${byteText === undefined ? "lines" : "bytes"}: '${byteText ?? lineText}'`);
  const operands = options.operands.length === 0 ? ["-"] : options.operands;
  let status = 0;
  for (const [index, operand] of operands.entries()) {
    if (operands.length > 1) context.stdout.write(`${index > 0 ? "\n" : ""}==> ${operand === "-" ? "standard input" : operand} <==\n`);
    // From a pipe, stop reading after the lines wanted: the writer then gets SIGPIPE, as with GNU head.
    if (operand === "-" && byteText === undefined && amount >= 0) {
      for (let count = 0; count < amount; count += 1) {
        const line = await context.stdin.readLine();
        if (line === undefined) break;
        context.stdout.write(line);
      }
      continue;
    }
    const { inputs, status: readStatus } = await readInputs([operand], context);
    status = Math.max(status, readStatus);
    for (const input of inputs) {
      if (byteText !== undefined) {
        const bytes = Buffer.from(input.text);
        context.stdout.write(bytes.subarray(0, amount < 0 ? Math.max(bytes.length + amount, 0) : amount).toString());
        continue;
      }
      const lines = splitLines(input.text);
      context.stdout.write(lines.slice(0, amount < 0 ? Math.max(lines.length + amount, 0) : amount).join(""));
    }
  }
  return status;
}

export async function tail(args: string[], context: CommandContext): Promise<number> {
  const options = parseOptions(withLegacyLineCount(args), { flags: "qvf", valued: "nc", long: { lines: "n", bytes: "c" } });
  if ("error" in options) return usageError(context, options.error);
  const { inputs, status } = await readInputs(options.operands, context);
  const byteText = options.values.get("c");
  const spec = byteText ?? options.values.get("n") ?? "10";
  const fromStart = spec.startsWith("+");
  const amount = Number(spec.replace(/^[+-]/, ""));
  if (!Number.isInteger(amount)) return usageError(context, `invalid number of ${byteText === undefined ? "lines" : "bytes"}: '${spec}'`);
  inputs.forEach((input, index) => {
    if (inputs.length > 1) context.stdout.write(`${index > 0 ? "\n" : ""}==> ${input.name ?? "standard input"} <==\n`);
    if (byteText !== undefined) {
      const bytes = Buffer.from(input.text);
      context.stdout.write((fromStart ? bytes.subarray(Math.max(amount - 1, 0)) : bytes.subarray(Math.max(bytes.length - amount, 0))).toString());
      return;
    }
    const lines = splitLines(input.text);
    context.stdout.write((fromStart ? lines.slice(Math.max(amount - 1, 0)) : amount === 0 ? [] : lines.slice(-amount)).join(""));
  });
  return status;
}

/** Lines with their newlines kept, so that a missing final newline stays missing. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export async function grep(args: string[], context: CommandContext): Promise<number> {
  const options = parseOptions(args, { flags: "qsvcnilLHhxwEFG", valued: "e", long: { quiet: "q", silent: "q", count: "c", "invert-match": "v", "ignore-case": "i" } });
  if ("error" in options) return usageError(context, options.error, 2);
  const patterns = options.values.has("e") ? [options.values.get("e") ?? ""] : options.operands.slice(0, 1);
  const operands = options.values.has("e") ? options.operands : options.operands.slice(1);
  if (patterns.length === 0) {
    context.stderr.write(`Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n`);
    return 2;
  }
  let matcher: RegExp;
  try {
    matcher = compilePattern(patterns[0] ?? "", options.flags);
  } catch {
    report(context, "Invalid regular expression");
    return 2;
  }
  const { inputs, status } = await readInputs(operands, context);
  const showNames = options.flags.has("H") || (inputs.length > 1 && !options.flags.has("h"));
  let matched = false;
  for (const input of inputs) {
    const lines = input.text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    let matches = 0;
    lines.forEach((line, index) => {
      if (matcher.test(line) === options.flags.has("v")) return;
      matches += 1;
      matched = true;
      if (options.flags.has("q") || options.flags.has("c") || options.flags.has("l") || options.flags.has("L")) return;
      const prefix = `${showNames ? `${input.name ?? "(standard input)"}:` : ""}${options.flags.has("n") ? `${index + 1}:` : ""}`;
      context.stdout.write(`${prefix}${line}\n`);
    });
    if (options.flags.has("q")) continue;
    if (options.flags.has("c")) context.stdout.write(`${showNames ? `${input.name ?? "(standard input)"}:` : ""}${matches}\n`);
    if (options.flags.has("l") && matches > 0) context.stdout.write(`${input.name ?? "(standard input)"}\n`);
    if (options.flags.has("L") && matches === 0) context.stdout.write(`${input.name ?? "(standard input)"}\n`);
  }
  if (status !== 0 && !options.flags.has("q")) return 2;
  return matched ? 0 : status === 0 ? 1 : 2;
}

function compilePattern(pattern: string, flags: Set<string>): RegExp {
  let source: string;
  if (flags.has("F")) source = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  else if (flags.has("E")) source = pattern;
  else source = basicToExtended(pattern);
  if (flags.has("w")) source = `(?<![\\w])(?:${source})(?![\\w])`;
  if (flags.has("x")) source = `^(?:${source})$`;
  return new RegExp(source, flags.has("i") ? "i" : "");
}

/** POSIX basic regular expressions swap the meaning of escaped and bare `( ) { } | + ?`. */
function basicToExtended(pattern: string): string {
  let out = "";
  for (let index = 0; index < pattern.length; index += 1) {
    const c = pattern[index] ?? "";
    if (c === "\\" && index + 1 < pattern.length) {
      const next = pattern[index + 1] ?? "";
      out += "(){}|+?".includes(next) ? next : `\\${next}`;
      index += 1;
    } else out += "(){}|+?".includes(c) ? `\\${c}` : c;
  }
  return out;
}
