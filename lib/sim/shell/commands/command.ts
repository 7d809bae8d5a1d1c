import { isFileSystemError } from "../../filesystem/file-system-error.ts";
import type { PodFileSystem } from "../../filesystem/pod-file-system.ts";
import type { InputSource, OutputSink } from "../streams.ts";

/** Everything a program gets when it is started: arguments come separately. */
export interface CommandContext {
  /** argv[0] as it was invoked. */
  name: string;
  /**
   * What its diagnostics start with: `cat` for a program, `sh: 1: printf` for a builtin run by
   * the shell (the way dash reports them).
   */
  errorPrefix: string;
  stdin: InputSource;
  stdout: OutputSink;
  stderr: OutputSink;
  fs: PodFileSystem;
  cwd: string;
  env: Readonly<Record<string, string>>;
  hostname: string;
  /** Milliseconds since the epoch on the simulated clock. */
  now(): number;
  /** Simulated sleep; rejects with ShellAborted when the run is aborted. */
  sleep(ms: number): Promise<void>;
  /** Settles only when the run is aborted (for `sleep infinity`). */
  waitForAbort(): Promise<never>;
  /** Starts another program the way exec would; undefined when there is no such program. */
  run(argv: string[], env: Readonly<Record<string, string>>): Promise<number | undefined>;
}

export type Utility = (args: string[], context: CommandContext) => number | Promise<number>;
export type UtilityTable = ReadonlyMap<string, Utility>;

export function report(context: CommandContext, message: string): void {
  context.stderr.write(`${context.errorPrefix}: ${message}\n`);
}

/** GNU tools follow a usage error with a pointer to --help and exit with `status`. */
export function usageError(context: CommandContext, message: string, status = 1): number {
  report(context, message);
  context.stderr.write(`Try '${context.name} --help' for more information.\n`);
  return status;
}

/** The reason text of a failed file operation (`No such file or directory`), or rethrows. */
export function reasonOf(error: unknown): string {
  if (isFileSystemError(error)) return error.message;
  throw error;
}

export interface ParsedOptions {
  flags: Set<string>;
  values: Map<string, string>;
  operands: string[];
}

/**
 * getopt as GNU tools do it: clustered flags (`-rf`), options with a value either attached or
 * next (`-n5`, `-n 5`), options anywhere before `--`, and a lone `-` as an operand.
 * Returns the message for a usage error instead of throwing.
 */
export function parseOptions(args: readonly string[], spec: { flags?: string; valued?: string; long?: Record<string, string> }): ParsedOptions | { error: string } {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const operands: string[] = [];
  const flagLetters = spec.flags ?? "";
  const valuedLetters = spec.valued ?? "";
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    if (arg === "--") {
      operands.push(...args.slice(index + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const [longName = "", attached] = arg.slice(2).split(/=(.*)/s, 2);
      const letter = spec.long?.[longName];
      if (letter === undefined) return { error: `unrecognized option '${arg}'` };
      if (valuedLetters.includes(letter)) {
        const value = attached ?? args[(index += 1)];
        if (value === undefined) return { error: `option '--${longName}' requires an argument` };
        values.set(letter, value);
      } else flags.add(letter);
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      operands.push(arg);
      continue;
    }
    for (let position = 1; position < arg.length; position += 1) {
      const letter = arg[position] ?? "";
      if (valuedLetters.includes(letter)) {
        const value = position + 1 < arg.length ? arg.slice(position + 1) : args[(index += 1)];
        if (value === undefined) return { error: `option requires an argument -- '${letter}'` };
        values.set(letter, value);
        break;
      }
      if (!flagLetters.includes(letter)) return { error: `invalid option -- '${letter}'` };
      flags.add(letter);
    }
  }
  return { flags, values, operands };
}

export function quoted(text: string): string {
  return `'${text}'`;
}
