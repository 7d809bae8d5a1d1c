import { isFileSystemError } from "../../filesystem/file-system-error.ts";
import { baseName } from "../../filesystem/paths.ts";
import { type CommandContext, parseOptions, quoted, reasonOf, report, usageError } from "./command.ts";

export async function cat(args: string[], context: CommandContext): Promise<number> {
  const options = parseOptions(args, { flags: "nuAvetsb" });
  if ("error" in options) return usageError(context, options.error);
  const operands = options.operands.length === 0 ? ["-"] : options.operands;
  let status = 0;
  let output = "";
  for (const operand of operands) {
    try {
      output += operand === "-" ? await context.stdin.readAll() : context.fs.readFile(operand, { cwd: context.cwd });
    } catch (error) {
      report(context, `${operand}: ${reasonOf(error)}`);
      status = 1;
    }
  }
  context.stdout.write(options.flags.has("n") ? numberLines(output) : output);
  return status;
}

function numberLines(text: string): string {
  const lines = text.split("\n");
  const last = lines.pop();
  const numbered = lines.map((line, index) => `${String(index + 1).padStart(6)}\t${line}\n`).join("");
  return last === "" || last === undefined ? numbered : `${numbered}${String(lines.length + 1).padStart(6)}\t${last}`;
}

export function mkdir(args: string[], context: CommandContext): number {
  const options = parseOptions(args, { flags: "pv", valued: "m", long: { parents: "p", verbose: "v", mode: "m" } });
  if ("error" in options) return usageError(context, options.error);
  if (options.operands.length === 0) return usageError(context, "missing operand");
  const modeText = options.values.get("m");
  const mode = modeText === undefined ? undefined : Number.parseInt(modeText, 8);
  let status = 0;
  for (const operand of options.operands) {
    try {
      context.fs.mkdir(operand, { cwd: context.cwd, parents: options.flags.has("p"), ...(mode === undefined || Number.isNaN(mode) ? {} : { mode }) });
      if (options.flags.has("v")) context.stdout.write(`mkdir: created directory ${quoted(operand)}\n`);
    } catch (error) {
      report(context, `cannot create directory ${quoted(operand)}: ${reasonOf(error)}`);
      status = 1;
    }
  }
  return status;
}

export function rm(args: string[], context: CommandContext): number {
  const options = parseOptions(args, { flags: "rRfidv", long: { recursive: "r", force: "f", dir: "d", verbose: "v", "no-preserve-root": "P" } });
  if ("error" in options) return usageError(context, options.error);
  const force = options.flags.has("f");
  const recursive = options.flags.has("r") || options.flags.has("R");
  if (options.operands.length === 0) return force ? 0 : usageError(context, "missing operand");
  let status = 0;
  for (const operand of options.operands) {
    if (/(^|\/)\.\.?\/*$/.test(operand)) {
      report(context, `refusing to remove '.' or '..' directory: skipping ${quoted(operand)}`);
      status = 1;
      continue;
    }
    if (recursive && context.fs.resolve(operand, context.cwd) === "/" && !options.flags.has("P")) {
      report(context, `it is dangerous to operate recursively on ${quoted("/")}`);
      report(context, "use --no-preserve-root to override this failsafe");
      status = 1;
      continue;
    }
    try {
      if (options.flags.has("d") && !recursive && isEmptyDirectory(context, operand)) context.fs.remove(operand, { cwd: context.cwd, recursive: true });
      else context.fs.remove(operand, { cwd: context.cwd, recursive, force });
      if (options.flags.has("v")) context.stdout.write(`removed ${quoted(operand)}\n`);
    } catch (error) {
      report(context, `cannot remove ${quoted(operand)}: ${reasonOf(error)}`);
      status = 1;
    }
  }
  return status;
}

function isEmptyDirectory(context: CommandContext, path: string): boolean {
  try {
    return context.fs.readdir(path, { cwd: context.cwd }).length === 0;
  } catch {
    return false;
  }
}

export function touch(args: string[], context: CommandContext): number {
  const options = parseOptions(args, { flags: "acm", long: { "no-create": "c" } });
  if ("error" in options) return usageError(context, options.error);
  if (options.operands.length === 0) return usageError(context, "missing file operand");
  let status = 0;
  for (const operand of options.operands) {
    try {
      context.fs.touch(operand, { cwd: context.cwd, create: !options.flags.has("c") });
    } catch (error) {
      report(context, `cannot touch ${quoted(operand)}: ${reasonOf(error)}`);
      status = 1;
    }
  }
  return status;
}

export function chmod(args: string[], context: CommandContext): number {
  const recursive = args[0] === "-R";
  const [modeText, ...operands] = recursive ? args.slice(1) : args;
  if (modeText === undefined) return usageError(context, "missing operand");
  if (operands.length === 0) return usageError(context, `missing operand after ${quoted(modeText)}`);
  let status = 0;
  const apply = (path: string): void => {
    const stat = context.fs.stat(path, { cwd: context.cwd });
    const mode = applyMode(stat.mode, modeText, stat.kind === "directory");
    if (mode === undefined) throw new Error(`invalid mode: ${quoted(modeText)}`);
    context.fs.setAttributes(path, { mode }, { cwd: context.cwd });
    if (recursive && stat.kind === "directory") {
      for (const child of context.fs.readdir(path, { cwd: context.cwd })) apply(`${path}/${child}`);
    }
  };
  for (const operand of operands) {
    try {
      apply(operand);
    } catch (error) {
      if (!isFileSystemError(error)) {
        report(context, error instanceof Error ? error.message : String(error));
        return 1;
      }
      report(context, `cannot access ${quoted(operand)}: ${error.message}`);
      status = 1;
    }
  }
  return status;
}

/** Octal (`755`) or symbolic (`u+x,go-w`) modes. */
export function applyMode(current: number, text: string, isDirectory: boolean): number | undefined {
  if (/^[0-7]{1,4}$/.test(text)) return Number.parseInt(text, 8);
  let mode = current;
  for (const clause of text.split(",")) {
    const match = /^([ugoa]*)([-+=])([rwxX]*)$/.exec(clause);
    if (match === null) return undefined;
    const who = match[1] === "" || match[1] === undefined ? "a" : match[1];
    let bits = 0;
    for (const permission of match[3] ?? "") {
      const value = permission === "r" ? 4 : permission === "w" ? 2 : permission === "x" || (permission === "X" && (isDirectory || (current & 0o111) !== 0)) ? 1 : 0;
      bits |= value;
    }
    let mask = 0;
    if (who.includes("u") || who.includes("a")) mask |= bits << 6;
    if (who.includes("g") || who.includes("a")) mask |= bits << 3;
    if (who.includes("o") || who.includes("a")) mask |= bits;
    const whoMask = (who.includes("u") || who.includes("a") ? 0o700 : 0) | (who.includes("g") || who.includes("a") ? 0o70 : 0) | (who.includes("o") || who.includes("a") ? 0o7 : 0);
    if (match[2] === "+") mode |= mask;
    else if (match[2] === "-") mode &= ~mask;
    else mode = (mode & ~whoMask) | mask;
  }
  return mode;
}

interface CopyOptions {
  recursive: boolean;
  preserve: boolean;
}

export function cp(args: string[], context: CommandContext): number {
  const options = parseOptions(args, { flags: "rRapfvT", long: { recursive: "r", archive: "a", preserve: "p", force: "f", verbose: "v" } });
  if ("error" in options) return usageError(context, options.error);
  const copyOptions: CopyOptions = {
    recursive: options.flags.has("r") || options.flags.has("R") || options.flags.has("a"),
    preserve: options.flags.has("p") || options.flags.has("a"),
  };
  return transfer(options.operands, context, (source, target) => copyTree(context, source, target, copyOptions));
}

export function mv(args: string[], context: CommandContext): number {
  const options = parseOptions(args, { flags: "fivnT", long: { force: "f", verbose: "v" } });
  if ("error" in options) return usageError(context, options.error);
  return transfer(options.operands, context, (source, target) => {
    if (context.fs.isMountPoint(source, { cwd: context.cwd })) throw new MoveError(`cannot move ${quoted(source)} to ${quoted(target)}: Device or resource busy`);
    // Across volumes a rename is a copy and an unlink; within one, nothing observable tells them apart.
    copyTree(context, source, target, { recursive: true, preserve: true });
    context.fs.remove(source, { cwd: context.cwd, recursive: true });
  });
}

class MoveError extends Error {}

/** The operand rules cp and mv share: `SOURCE TARGET` or `SOURCE… DIRECTORY`. */
function transfer(operands: string[], context: CommandContext, move: (source: string, target: string) => void): number {
  if (operands.length === 0) return usageError(context, "missing file operand");
  const last = operands.at(-1) ?? "";
  if (operands.length === 1) return usageError(context, `missing destination file operand after ${quoted(last)}`);
  const sources = operands.slice(0, -1);
  const targetIsDirectory = isDirectory(context, last);
  if (sources.length > 1 && !targetIsDirectory) {
    report(context, `target ${quoted(last)} is not a directory`);
    return 1;
  }
  let status = 0;
  for (const source of sources) {
    const target = targetIsDirectory ? `${last.replace(/\/+$/, "")}/${baseName(source)}` : last;
    try {
      move(source, target);
    } catch (error) {
      if (error instanceof MoveError || error instanceof CopyError) report(context, error.message);
      else report(context, `cannot stat ${quoted(source)}: ${reasonOf(error)}`);
      status = 1;
    }
  }
  return status;
}

class CopyError extends Error {}

function copyTree(context: CommandContext, source: string, target: string, options: CopyOptions): void {
  const { fs, cwd } = context;
  const stat = fs.stat(source, { cwd });
  if (stat.kind === "directory") {
    if (!options.recursive) throw new CopyError(`-r not specified; omitting directory ${quoted(source)}`);
    const from = fs.resolve(source, cwd);
    const to = fs.resolve(target, cwd);
    if (to === from || to.startsWith(`${from}/`)) throw new CopyError(`cannot copy a directory, ${quoted(source)}, into itself, ${quoted(target)}`);
    try {
      if (!isDirectory(context, target)) fs.mkdir(target, { cwd, mode: stat.mode });
    } catch (error) {
      throw new CopyError(`cannot create directory ${quoted(target)}: ${reasonOf(error)}`);
    }
    for (const child of fs.readdir(source, { cwd })) copyTree(context, `${source}/${child}`, `${target}/${child}`, options);
  } else {
    try {
      fs.writeFile(target, fs.readFile(source, { cwd }), { cwd, mode: stat.mode });
    } catch (error) {
      throw new CopyError(`cannot create regular file ${quoted(target)}: ${reasonOf(error)}`);
    }
  }
  if (options.preserve) fs.setAttributes(target, { mtimeMs: stat.mtimeMs, mode: stat.mode }, { cwd });
}

function isDirectory(context: CommandContext, path: string): boolean {
  try {
    return context.fs.stat(path, { cwd: context.cwd }).kind === "directory";
  } catch {
    return false;
  }
}
