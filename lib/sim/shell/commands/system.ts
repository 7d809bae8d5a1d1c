import { baseName, dirName } from "../../filesystem/paths.ts";
import { type CommandContext, parseOptions, quoted, report, usageError } from "./command.ts";
import { formatDate } from "./date-format.ts";

export const succeed = (): number => 0;
export const failQuietly = (): number => 1;

/** sync(1): the simulated volumes have no page cache; every write is already where it will be. */
export const sync = (): number => 0;

const DURATION = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/;
const UNIT_MS: Record<string, number> = { "": 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** GNU sleep: fractions, unit suffixes, several operands summed, and `infinity`. */
export async function sleep(args: string[], context: CommandContext): Promise<number> {
  const operands = args[0] === "--" ? args.slice(1) : args;
  if (operands.length === 0) return usageError(context, "missing operand");
  let total = 0;
  for (const operand of operands) {
    if (operand === "infinity" || operand === "inf") return context.waitForAbort();
    const match = DURATION.exec(operand);
    if (match === null) return usageError(context, `invalid time interval ${quoted(operand)}`);
    total += Number(match[1]) * (UNIT_MS[match[2] ?? ""] ?? 1000);
  }
  await context.sleep(total);
  return 0;
}

export function hostname(args: string[], context: CommandContext): number {
  if (args.some((arg) => !arg.startsWith("-"))) {
    report(context, "you must be root to change the host name");
    return 1;
  }
  context.stdout.write(`${context.hostname}\n`);
  return 0;
}

export function pwd(_args: string[], context: CommandContext): number {
  context.stdout.write(`${context.cwd}\n`);
  return 0;
}

export function date(args: string[], context: CommandContext): number {
  let format = "%a %b %e %H:%M:%S %Z %Y";
  for (const arg of args) {
    if (arg.startsWith("+")) format = arg.slice(1);
    else if (arg === "-u" || arg === "--utc" || arg === "--universal") continue;
    else if (arg === "-I" || arg === "--iso-8601" || arg === "-Idate") format = "%Y-%m-%d";
    else if (arg === "-Iseconds" || arg === "--iso-8601=seconds") format = "%Y-%m-%dT%H:%M:%S+00:00";
    else if (arg === "-R" || arg === "--rfc-email") format = "%a, %d %b %Y %H:%M:%S +0000";
    else return usageError(context, `invalid option -- ${quoted(arg.replace(/^-+/, ""))}`);
  }
  context.stdout.write(`${formatDate(new Date(context.now()), format)}\n`);
  return 0;
}

/** env(1): print the environment, or run a command with a changed one. */
export async function env(args: string[], context: CommandContext): Promise<number> {
  let environment: Record<string, string> = { ...context.env };
  let index = 0;
  for (; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    if (arg === "-i" || arg === "-" || arg === "--ignore-environment") environment = {};
    else if (arg === "-u") {
      index += 1;
      delete environment[args[index] ?? ""];
    } else if (arg === "--") {
      index += 1;
      break;
    } else if (arg.startsWith("-")) return usageError(context, `invalid option -- ${quoted(arg.slice(1))}`, 125);
    else break;
  }
  for (; index < args.length; index += 1) {
    const match = /^([^=]+)=(.*)$/s.exec(args[index] ?? "");
    if (match === null) break;
    environment[match[1] ?? ""] = match[2] ?? "";
  }
  const command = args.slice(index);
  if (command.length === 0) {
    context.stdout.write(Object.entries(environment).map(([name, value]) => `${name}=${value}\n`).join(""));
    return 0;
  }
  const status = await context.run(command, environment);
  if (status !== undefined) return status;
  report(context, `${quoted(command[0] ?? "")}: No such file or directory`);
  return 127;
}

export function uname(args: string[], context: CommandContext): number {
  const options = parseOptions(args, { flags: "asnrvmpio", long: { all: "a" } });
  if ("error" in options) return usageError(context, options.error);
  const fields: [string, string][] = [
    ["s", "Linux"],
    ["n", context.hostname],
    ["r", "6.8.0-berth-sim"],
    ["v", "#1 SMP PREEMPT_DYNAMIC"],
    ["m", "x86_64"],
    ["o", "GNU/Linux"],
  ];
  const wanted = options.flags.has("a") ? fields : fields.filter(([letter]) => options.flags.has(letter));
  context.stdout.write(`${(wanted.length === 0 ? [fields[0] ?? ["s", "Linux"]] : wanted).map(([, value]) => value).join(" ")}\n`);
  return 0;
}

export function basename(args: string[], context: CommandContext): number {
  const [path, suffix] = args[0] === "--" ? args.slice(1) : args;
  if (path === undefined) return usageError(context, "missing operand");
  let name = baseName(path);
  if (suffix !== undefined && name !== suffix && name.endsWith(suffix)) name = name.slice(0, -suffix.length);
  context.stdout.write(`${name}\n`);
  return 0;
}

export function dirname(args: string[], context: CommandContext): number {
  const paths = args[0] === "--" ? args.slice(1) : args;
  if (paths.length === 0) return usageError(context, "missing operand");
  context.stdout.write(paths.map((path) => `${dirName(path)}\n`).join(""));
  return 0;
}
