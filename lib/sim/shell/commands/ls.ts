import type { FileStat } from "../../filesystem/pod-file-system.ts";
import { type CommandContext, parseOptions, quoted, reasonOf, report, usageError } from "./command.ts";

const SIX_MONTHS_MS = 182.5 * 24 * 3600 * 1000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

interface Entry {
  name: string;
  stat: FileStat;
}

/**
 * GNU ls writing to a pipe, which is what exec without a TTY gives it: one name per line.
 * `-l` shows owner and group as root, the only user the simulation knows.
 */
export function ls(args: string[], context: CommandContext): number {
  const options = parseOptions(args, { flags: "aAld1F", long: { all: "a", "almost-all": "A", directory: "d" } });
  if ("error" in options) return usageError(context, options.error, 2);
  const all = options.flags.has("a");
  const almostAll = options.flags.has("A");
  const long = options.flags.has("l");
  const operands = options.operands.length === 0 ? ["."] : options.operands;
  const files: Entry[] = [];
  const directories: Entry[] = [];
  let status = 0;
  for (const operand of operands) {
    try {
      const stat = context.fs.stat(operand, { cwd: context.cwd });
      (stat.kind === "directory" && !options.flags.has("d") ? directories : files).push({ name: operand, stat });
    } catch (error) {
      report(context, `cannot access ${quoted(operand)}: ${reasonOf(error)}`);
      status = 2;
    }
  }
  const sections: string[] = [];
  if (files.length > 0) sections.push(render(sortEntries(files), long, context.now()));
  const heading = operands.length > 1;
  for (const directory of sortEntries(directories)) {
    let entries: Entry[];
    try {
      entries = context.fs
        .readdir(directory.name, { cwd: context.cwd })
        .filter((name) => all || almostAll || !name.startsWith("."))
        .map((name) => ({ name, stat: context.fs.stat(`${directory.name}/${name}`, { cwd: context.cwd }) }));
    } catch (error) {
      report(context, `cannot open directory ${quoted(directory.name)}: ${reasonOf(error)}`);
      status = 2;
      continue;
    }
    if (all) {
      const parent = context.fs.stat(`${directory.name}/..`, { cwd: context.cwd });
      entries = [{ name: ".", stat: directory.stat }, { name: "..", stat: parent }, ...entries];
    }
    const body = long ? `total ${entries.reduce((sum, entry) => sum + blocks(entry.stat), 0)}\n${render(entries, true, context.now())}` : render(entries, false, context.now());
    sections.push(heading ? `${directory.name}:\n${body}` : body);
  }
  context.stdout.write(sections.join("\n"));
  return status;
}

function sortEntries(entries: Entry[]): Entry[] {
  return [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
}

function blocks(stat: FileStat): number {
  return stat.kind === "directory" ? 4 : Math.ceil(stat.size / 4096) * 4;
}

function render(entries: Entry[], long: boolean, now: number): string {
  if (!long) return entries.map((entry) => `${entry.name}\n`).join("");
  const sizeWidth = Math.max(...entries.map((entry) => String(entry.stat.size).length), 1);
  return entries
    .map(({ name, stat }) => `${modeString(stat)} 1 root root ${String(stat.size).padStart(sizeWidth)} ${timeString(stat.mtimeMs, now)} ${name}\n`)
    .join("");
}

export function modeString(stat: FileStat): string {
  const type = stat.kind === "directory" ? "d" : stat.kind === "device" ? "c" : "-";
  const triplet = (bits: number, special: boolean, specialLetter: string) =>
    `${bits & 4 ? "r" : "-"}${bits & 2 ? "w" : "-"}${special ? (bits & 1 ? specialLetter : specialLetter.toUpperCase()) : bits & 1 ? "x" : "-"}`;
  const mode = stat.mode;
  return `${type}${triplet(mode >> 6, (mode & 0o4000) !== 0, "s")}${triplet(mode >> 3, (mode & 0o2000) !== 0, "s")}${triplet(mode, (mode & 0o1000) !== 0, "t")}`;
}

function timeString(mtimeMs: number, now: number): string {
  const date = new Date(mtimeMs);
  const month = MONTHS[date.getUTCMonth()] ?? "Jan";
  const day = String(date.getUTCDate()).padStart(2);
  if (Math.abs(now - mtimeMs) < SIX_MONTHS_MS) {
    return `${month} ${day} ${String(date.getUTCHours()).padStart(2, "0")}:${String(date.getUTCMinutes()).padStart(2, "0")}`;
  }
  return `${month} ${day}  ${date.getUTCFullYear()}`;
}
