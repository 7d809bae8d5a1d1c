import type { FileStat } from "../../filesystem/pod-file-system.ts";
import { type CommandContext, parseOptions, quoted, reasonOf, report, usageError } from "./command.ts";
import { modeString } from "./ls.ts";

// GNU stat(1) with `-c FORMAT` (or `--format=FORMAT`), the form scripts use, and a short default.
// Each operand is stat'ed without following links (the simulated file systems have none).
// Directives: %n name, %s size, %Y mtime in seconds, %f raw mode in hex (type bits included),
// %F file type, %a permissions in octal, %A permissions as ls shows them, %%.

const TYPE_BITS: Record<FileStat["kind"], number> = { file: 0o100000, directory: 0o040000, device: 0o020000 };

function fileType(stat: FileStat): string {
  if (stat.kind === "directory") return "directory";
  if (stat.kind === "device") return "character special file";
  return stat.size === 0 ? "regular empty file" : "regular file";
}

function formatted(format: string, name: string, stat: FileStat): string {
  return format.replace(/%(.)/g, (directive, letter: string) => {
    switch (letter) {
      case "n": return name;
      case "s": return String(stat.size);
      case "Y": return String(Math.floor(stat.mtimeMs / 1000));
      case "f": return (TYPE_BITS[stat.kind] | stat.mode).toString(16);
      case "F": return fileType(stat);
      case "a": return (stat.mode & 0o7777).toString(8);
      case "A": return modeString(stat);
      case "%": return "%";
      default: return directive;
    }
  });
}

const DEFAULT_FORMAT = "  File: %n\n  Size: %s\t%F\nAccess: (0%a/%A)\n";

export function stat(args: string[], context: CommandContext): number {
  const options = parseOptions(args, { valued: "c", long: { format: "c" } });
  if ("error" in options) return usageError(context, options.error);
  if (options.operands.length === 0) return usageError(context, "missing operand");
  const format = options.values.has("c") ? `${options.values.get("c")}\n` : DEFAULT_FORMAT;
  let status = 0;
  for (const operand of options.operands) {
    try {
      context.stdout.write(formatted(format, operand, context.fs.stat(operand, { cwd: context.cwd })));
    } catch (error) {
      report(context, `cannot statx ${quoted(operand)}: ${reasonOf(error)}`);
      status = 1;
    }
  }
  return status;
}
