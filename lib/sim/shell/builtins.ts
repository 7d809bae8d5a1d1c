import { isFileSystemError } from "../filesystem/file-system-error.ts";
import { ExitSignal, LoopSignal, ReturnSignal, type ShellState } from "./shell-state.ts";
import type { Streams } from "./streams.ts";
import { trap, wait } from "./traps-and-jobs.ts";

/** What a builtin gets: it runs inside the shell, so it sees and changes the shell's own state. */
export interface BuiltinContext {
  state: ShellState;
  streams: Streams;
  line: number;
  /** Runs shell source in this shell (eval, `.`); `exit` inside it ends this shell. */
  runSource(source: string, state: ShellState, streams: Streams): Promise<number>;
  /** Whether `name` is a program exec would find (for `command -v`). */
  findProgram(name: string): string | undefined;
}

export type Builtin = (args: string[], context: BuiltinContext) => number | Promise<number>;

function complain(context: BuiltinContext, name: string, message: string): void {
  context.streams.stderr.write(context.state.diagnostic(context.line, `${name}: ${message}`));
}

function cd(args: string[], context: BuiltinContext): number {
  const { state } = context;
  // Options end at the first operand or at `--`, as in dash and bash: `cd -- -dir` names a directory.
  let index = 0;
  while (args[index] === "-L" || args[index] === "-P") index += 1;
  if (args[index] === "--") index += 1;
  const operand = args[index];
  const target = operand === undefined ? (state.get("HOME") ?? "/") : operand === "-" ? (state.get("OLDPWD") ?? state.cwd) : operand;
  const path = state.services.fs.resolve(target, state.cwd);
  let isDirectory = false;
  try {
    isDirectory = state.services.fs.stat(path).kind === "directory";
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    if (state.dialect === "bash") {
      complain(context, "cd", `${target}: ${state.services.fs.exists(path) ? "Not a directory" : "No such file or directory"}`);
      return 1;
    }
    complain(context, "cd", `can't cd to ${target}`);
    return 2;
  }
  state.changeDirectory(path);
  if (operand === "-") context.streams.stdout.write(`${path}\n`);
  return 0;
}

function exit(args: string[], context: BuiltinContext): number {
  const [operand] = args;
  if (operand === undefined) throw new ExitSignal(context.state.lastStatus);
  if (!/^\d+$/.test(operand)) {
    complain(context, "exit", context.state.dialect === "bash" ? `${operand}: numeric argument required` : `Illegal number: ${operand}`);
    throw new ExitSignal(2);
  }
  throw new ExitSignal(Number(operand) & 255);
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function exportBuiltin(args: string[], context: BuiltinContext): number {
  const { state } = context;
  const names = args.filter((arg) => arg !== "-p");
  if (names.length === 0) {
    const lines = [...state.variables].filter(([, variable]) => variable.exported).map(([name, variable]) => `export ${name}=${shellQuote(variable.value)}\n`);
    context.streams.stdout.write(lines.sort().join(""));
    return 0;
  }
  for (const arg of names) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/s.exec(arg);
    if (match?.[1] === undefined) {
      complain(context, "export", `${arg}: bad variable name`);
      throw new ExitSignal(2);
    }
    if (match[2] !== undefined) state.set(match[1], match[2], true);
    else state.export(match[1]);
  }
  return 0;
}

function unset(args: string[], context: BuiltinContext): number {
  for (const name of args) if (name !== "-v" && name !== "-f") context.state.unset(name);
  return 0;
}

const LONG_OPTIONS: Record<string, "errexit" | "nounset" | "xtrace" | "pipefail"> = {
  errexit: "errexit",
  nounset: "nounset",
  xtrace: "xtrace",
  pipefail: "pipefail",
};
const SHORT_OPTIONS: Record<string, "errexit" | "nounset" | "xtrace"> = { e: "errexit", u: "nounset", x: "xtrace" };

/** Applies `-e`, `+x`, `-o pipefail`… to a shell; returns the operands left, or an error message. */
export function applyShellOptions(args: string[], state: ShellState, allowed = "eux"): { operands: string[] | undefined; error?: string } {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    if (arg === "--") return { operands: args.slice(index + 1) };
    if (!/^[-+]/.test(arg) || arg === "-" || arg === "+") return { operands: args.slice(index) };
    const enable = arg.startsWith("-");
    for (const letter of arg.slice(1)) {
      if (letter === "o") {
        const name = args[(index += 1)];
        const option = name === undefined ? undefined : LONG_OPTIONS[name];
        if (option === undefined) return { operands: undefined, error: `Illegal option -o ${name ?? ""}` };
        state.options[option] = enable;
        continue;
      }
      const option = SHORT_OPTIONS[letter];
      if (option === undefined || !allowed.includes(letter)) {
        if ("vfmCnbhaIiEsTlp".includes(letter)) continue; // accepted and meaningless in the simulation
        return { operands: undefined, error: `Illegal option ${enable ? "-" : "+"}${letter}` };
      }
      state.options[option] = enable;
    }
  }
  return { operands: undefined };
}

function set(args: string[], context: BuiltinContext): number {
  const { state } = context;
  if (args.length === 0) {
    const lines = [...state.variables].map(([name, variable]) => `${name}=${shellQuote(variable.value)}\n`);
    context.streams.stdout.write(lines.sort().join(""));
    return 0;
  }
  const { operands, error } = applyShellOptions(args, state);
  if (error !== undefined) {
    complain(context, "set", error);
    throw new ExitSignal(2);
  }
  if (operands !== undefined) state.positional = operands;
  return 0;
}

function shift(args: string[], context: BuiltinContext): number {
  const count = args[0] === undefined ? 1 : Number(args[0]);
  if (!Number.isInteger(count) || count < 0 || count > context.state.positional.length) {
    complain(context, "shift", "can't shift that many");
    throw new ExitSignal(2);
  }
  context.state.positional = context.state.positional.slice(count);
  return 0;
}

async function read(args: string[], context: BuiltinContext): Promise<number> {
  const { state } = context;
  let raw = false;
  const names: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    if (arg === "-r") raw = true;
    else if (arg === "-p") index += 1; // the prompt only shows on a terminal
    else names.push(arg);
  }
  if (names.length === 0) names.push("REPLY");
  const readLine = async () => (await state.untilAborted(context.streams.stdin.readLine()))?.replace(/\n$/, "");
  let line = await readLine();
  const atEnd = line === undefined;
  line ??= "";
  if (!raw) {
    while (line.endsWith("\\")) {
      const next = await readLine();
      if (next === undefined) break;
      line = line.slice(0, -1) + next;
    }
    line = line.replace(/\\(.)/g, "$1");
  }
  const ifs = state.get("IFS") ?? " \t\n";
  const whitespace = /^[ \t\n]*$/.test(ifs);
  let rest = whitespace ? line.replace(/^[ \t\n]+|[ \t\n]+$/g, "") : line;
  names.forEach((name, index) => {
    if (index === names.length - 1) {
      state.set(name, rest);
      return;
    }
    const separator = new RegExp(`[${ifs.replace(/[\\\]^-]/g, "\\$&")}]+`);
    const match = separator.exec(rest);
    state.set(name, match === null ? rest : rest.slice(0, match.index));
    rest = match === null ? "" : rest.slice(match.index + match[0].length);
  });
  return atEnd ? 1 : 0;
}

async function evalBuiltin(args: string[], context: BuiltinContext): Promise<number> {
  return context.runSource(args.join(" "), context.state, context.streams);
}

async function source(args: string[], context: BuiltinContext): Promise<number> {
  const { state } = context;
  const [file, ...positional] = args;
  if (file === undefined) return 0;
  let text: string;
  try {
    text = state.services.fs.readFile(file, { cwd: state.cwd });
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    complain(context, ".", state.dialect === "bash" ? `${file}: ${error.message}` : `cannot open ${file}: No such file`);
    throw new ExitSignal(state.dialect === "bash" ? 1 : 2);
  }
  const saved = state.positional;
  if (positional.length > 0) state.positional = positional;
  try {
    return await context.runSource(text, state, context.streams);
  } catch (error) {
    // `return` in a dot script ends the script, not the function that sourced it.
    if (error instanceof ReturnSignal) return error.status;
    throw error;
  } finally {
    state.positional = saved;
  }
}

function loopControl(kind: "break" | "continue"): Builtin {
  return (args, context) => {
    const levels = args[0] === undefined ? 1 : Number(args[0]);
    if (!Number.isInteger(levels) || levels < 1) {
      complain(context, kind, `Illegal number: ${args[0] ?? ""}`);
      throw new ExitSignal(2);
    }
    if (context.state.loopDepth === 0) return 0;
    throw new LoopSignal(kind, Math.min(levels, context.state.loopDepth));
  };
}

function command(args: string[], context: BuiltinContext): number | Promise<number> {
  if (args[0] === "-v" || args[0] === "-V") {
    let status = 0;
    for (const name of args.slice(1)) {
      const found = BUILTINS.has(name) ? name : context.findProgram(name);
      if (found === undefined) status = 1;
      else context.streams.stdout.write(args[0] === "-v" ? `${found}\n` : `${name} is ${found === name ? "a shell builtin" : found}\n`);
    }
    return status;
  }
  return 0;
}

function returnBuiltin(args: string[], context: BuiltinContext): number {
  const [operand] = args;
  if (operand !== undefined && !/^\d+$/.test(operand)) {
    complain(context, "return", `Illegal number: ${operand}`);
    throw new ExitSignal(2);
  }
  throw new ReturnSignal(operand === undefined ? context.state.lastStatus : Number(operand) & 255);
}

function local(args: string[], context: BuiltinContext): number {
  const { state } = context;
  for (const arg of args) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/s.exec(arg);
    if (match?.[1] === undefined) {
      complain(context, "local", `${arg}: bad variable name`);
      throw new ExitSignal(2);
    }
    if (!state.makeLocal(match[1])) {
      complain(context, "local", "not in a function");
      throw new ExitSignal(2);
    }
    if (match[2] !== undefined) state.set(match[1], match[2]);
  }
  return 0;
}

/** The shell's own commands: they change the shell itself, so no program could implement them. */
export const BUILTINS: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  [":", () => 0],
  [".", source],
  ["break", loopControl("break")],
  ["cd", cd],
  ["command", command],
  ["continue", loopControl("continue")],
  ["eval", evalBuiltin],
  ["exit", exit],
  ["export", exportBuiltin],
  ["local", local],
  ["read", read],
  ["return", returnBuiltin],
  ["set", set],
  ["shift", shift],
  ["source", source],
  ["trap", trap],
  ["unset", unset],
  ["wait", wait],
]);

/** POSIX special builtins: assignments in front of them stay after they return. */
export const SPECIAL_BUILTINS: ReadonlySet<string> = new Set([":", ".", "break", "continue", "eval", "exit", "export", "return", "set", "shift", "trap", "unset"]);
