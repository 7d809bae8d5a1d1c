import type { PodFileSystem } from "../../filesystem/pod-file-system.ts";
import { type CommandContext, report } from "./command.ts";

class TestSyntaxError extends Error {}

const UNARY = new Set(["-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-L", "-n", "-p", "-r", "-s", "-S", "-t", "-u", "-w", "-x", "-z"]);
const BINARY = new Set(["=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"]);

/** test(1) and `[`: 0 true, 1 false, 2 for a malformed expression. */
export function test(args: string[], context: CommandContext): number {
  return evaluateToStatus(args, context);
}

export function bracket(args: string[], context: CommandContext): number {
  if (args.at(-1) !== "]") {
    report(context, "missing ]");
    return 2;
  }
  return evaluateToStatus(args.slice(0, -1), context);
}

function evaluateToStatus(args: string[], context: CommandContext): number {
  try {
    return new Evaluator(args, context.fs, context.cwd).run() ? 0 : 1;
  } catch (error) {
    if (!(error instanceof TestSyntaxError)) throw error;
    report(context, error.message);
    return 2;
  }
}

class Evaluator {
  private index = 0;

  constructor(
    private readonly args: string[],
    private readonly fs: PodFileSystem,
    private readonly cwd: string,
  ) {}

  run(): boolean {
    const result = this.byCount(this.args);
    if (result !== undefined) return result;
    const value = this.or();
    if (this.index < this.args.length) throw new TestSyntaxError(`${this.args[this.index] ?? ""}: unexpected operator`);
    return value;
  }

  /** POSIX fixes the meaning of up to four arguments by their count, whatever they look like. */
  private byCount(args: string[]): boolean | undefined {
    const [a = "", b = "", c = "", d = ""] = args;
    switch (args.length) {
      case 0:
        return false;
      case 1:
        return a !== "";
      case 2:
        if (a === "!") return b === "";
        if (UNARY.has(a)) return this.unary(a, b);
        throw new TestSyntaxError(`${a}: unexpected operator`);
      case 3:
        if (BINARY.has(b)) return this.binary(a, b, c);
        if (b === "-a") return a !== "" && c !== "";
        if (b === "-o") return a !== "" || c !== "";
        if (a === "!") return !(this.byCount([b, c]) ?? false);
        if (a === "(" && c === ")") return b !== "";
        throw new TestSyntaxError(`${b}: unexpected operator`);
      case 4:
        if (a === "!") return !(this.byCount([b, c, d]) ?? false);
        if (a === "(" && d === ")") return this.byCount([b, c]) ?? false;
        return undefined;
      default:
        return undefined;
    }
  }

  private or(): boolean {
    let value = this.and();
    while (this.args[this.index] === "-o") {
      this.index += 1;
      const right = this.and();
      value = value || right;
    }
    return value;
  }

  private and(): boolean {
    let value = this.not();
    while (this.args[this.index] === "-a") {
      this.index += 1;
      const right = this.not();
      value = value && right;
    }
    return value;
  }

  private not(): boolean {
    if (this.args[this.index] === "!") {
      this.index += 1;
      return !this.not();
    }
    return this.primary();
  }

  private primary(): boolean {
    const token = this.take();
    if (token === "(") {
      const value = this.or();
      if (this.take() !== ")") throw new TestSyntaxError("closing paren expected");
      return value;
    }
    const next = this.args[this.index];
    if (UNARY.has(token) && next !== undefined) {
      this.index += 1;
      return this.unary(token, next);
    }
    if (next !== undefined && BINARY.has(next)) {
      this.index += 1;
      return this.binary(token, next, this.take());
    }
    return token !== "";
  }

  private take(): string {
    const token = this.args[this.index];
    if (token === undefined) throw new TestSyntaxError("argument expected");
    this.index += 1;
    return token;
  }

  private unary(operator: string, operand: string): boolean {
    if (operator === "-n") return operand !== "";
    if (operator === "-z") return operand === "";
    if (operator === "-t") return false;
    let stat;
    try {
      stat = this.fs.stat(operand, { cwd: this.cwd });
    } catch {
      return false;
    }
    switch (operator) {
      case "-e":
      case "-r":
        return true;
      case "-f":
        return stat.kind === "file";
      case "-d":
        return stat.kind === "directory";
      case "-c":
        return stat.kind === "device";
      case "-s":
        return stat.size > 0;
      case "-w":
        return !stat.readOnly;
      case "-x":
        return stat.kind === "directory" || (stat.mode & 0o111) !== 0;
      case "-u":
        return (stat.mode & 0o4000) !== 0;
      case "-g":
        return (stat.mode & 0o2000) !== 0;
      case "-k":
        return (stat.mode & 0o1000) !== 0;
      default:
        return false; // no symlinks, sockets, pipes or block devices in the simulation
    }
  }

  private binary(left: string, operator: string, right: string): boolean {
    switch (operator) {
      case "=":
      case "==":
        return left === right;
      case "!=":
        return left !== right;
      case "<":
        return left < right;
      case ">":
        return left > right;
      case "-nt":
      case "-ot":
      case "-ef":
        return this.compareFiles(left, operator, right);
      default:
        return compareIntegers(integer(left), operator, integer(right));
    }
  }

  private compareFiles(left: string, operator: string, right: string): boolean {
    const stat = (path: string) => {
      try {
        return this.fs.stat(path, { cwd: this.cwd });
      } catch {
        return undefined;
      }
    };
    const a = stat(left);
    const b = stat(right);
    if (operator === "-ef") return a !== undefined && a.path === b?.path;
    if (a === undefined || b === undefined) return operator === "-nt" ? a !== undefined : b !== undefined;
    return operator === "-nt" ? a.mtimeMs > b.mtimeMs : a.mtimeMs < b.mtimeMs;
  }
}

function integer(text: string): number {
  if (!/^\s*[-+]?\d+\s*$/.test(text)) throw new TestSyntaxError(`Illegal number: ${text}`);
  return Number(text);
}

function compareIntegers(left: number, operator: string, right: number): boolean {
  switch (operator) {
    case "-eq":
      return left === right;
    case "-ne":
      return left !== right;
    case "-lt":
      return left < right;
    case "-le":
      return left <= right;
    case "-gt":
      return left > right;
    default:
      return left >= right;
  }
}
