import { z } from "zod";
import { isFileSystemError } from "../../filesystem/file-system-error.ts";
import { dirName, resolvePath, splitPath } from "../../filesystem/paths.ts";
import { type CommandContext, reasonOf, report, usageError } from "./command.ts";

/**
 * tar(1) for what sandbox images do with it: `tar -C SRC -cf - . | tar -C DST -xpf -` (how the
 * workspace-init container seeds a workspace), plus archives kept as files and `-t`.
 *
 * The archive is not ustar: it is a header line and one JSON object per member, which is all a
 * text-only file system needs and keeps pipes printable. GNU tar's messages and exit codes are kept.
 */

const ARCHIVE_HEADER = "berth-sim-tar/1\n";

const memberSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("directory"), path: z.string(), mode: z.number().int(), mtimeMs: z.number() }),
  z.object({ type: z.literal("file"), path: z.string(), mode: z.number().int(), mtimeMs: z.number(), content: z.string() }),
]);
type Member = z.infer<typeof memberSchema>;

type Mode = "create" | "extract" | "list";

interface TarOptions {
  mode: Mode | undefined;
  archive: string;
  verbose: boolean;
  /** Member names with the -C directory in force where each appeared. */
  names: { name: string; directory: string }[];
  directory: string;
}

const LONG_OPTIONS: Record<string, string> = {
  create: "c",
  extract: "x",
  get: "x",
  list: "t",
  file: "f",
  directory: "C",
  verbose: "v",
  gzip: "z",
  gunzip: "z",
  "preserve-permissions": "p",
  "same-permissions": "p",
  "same-owner": "",
  "no-same-owner": "",
  "numeric-owner": "",
  "no-same-permissions": "",
};

const FAILURE_TRAILER = "Exiting with failure status due to previous errors";

export async function tar(args: string[], context: CommandContext): Promise<number> {
  const parsed = parseTarOptions(args, context.cwd);
  if (typeof parsed === "string") return usageError(context, parsed, 2);
  if (parsed.mode === undefined) return usageError(context, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options", 2);
  const failures: string[] = [];
  const status = parsed.mode === "create" ? createArchive(parsed, context, failures) : await readArchive(parsed, context, failures);
  for (const failure of failures) report(context, failure);
  if (status !== 0) return status;
  if (failures.length === 0) return 0;
  report(context, FAILURE_TRAILER);
  return 2;
}

function parseTarOptions(args: string[], cwd: string): TarOptions | string {
  const options: TarOptions = { mode: undefined, archive: "-", verbose: false, names: [], directory: cwd };
  // The traditional first argument is a bundle of letters without a dash: `tar cf - .`.
  const queue = args[0] !== undefined && !args[0].startsWith("-") ? [`-${args[0]}`, ...args.slice(1)] : [...args];
  const apply = (letter: string, value: () => string | undefined): string | undefined => {
    switch (letter) {
      case "c":
        options.mode = "create";
        return undefined;
      case "x":
        options.mode = "extract";
        return undefined;
      case "t":
        options.mode = "list";
        return undefined;
      case "v":
        options.verbose = true;
        return undefined;
      case "f": {
        const archive = value();
        if (archive === undefined) return "option requires an argument -- 'f'";
        options.archive = archive;
        return undefined;
      }
      case "C": {
        const directory = value();
        if (directory === undefined) return "option requires an argument -- 'C'";
        options.directory = resolvePath(directory, options.directory);
        return undefined;
      }
      case "p":
      case "z":
      case "o":
      case "":
        return undefined;
      default:
        return `invalid option -- '${letter}'`;
    }
  };
  while (queue.length > 0) {
    const arg = queue.shift() ?? "";
    if (arg === "--") {
      options.names.push(...queue.splice(0).map((name) => ({ name, directory: options.directory })));
    } else if (arg.startsWith("--")) {
      const [name = "", attached] = arg.slice(2).split(/=(.*)/s, 2);
      const letter = LONG_OPTIONS[name];
      if (letter === undefined) return `unrecognized option '${arg}'`;
      const problem = apply(letter, () => attached ?? queue.shift());
      if (problem !== undefined) return problem;
    } else if (arg.startsWith("-") && arg !== "-") {
      for (let position = 1; position < arg.length; position += 1) {
        const letter = arg[position] ?? "";
        const rest = arg.slice(position + 1);
        let consumedRest = false;
        const problem = apply(letter, () => {
          if (rest !== "" && (letter === "f" || letter === "C")) {
            consumedRest = true;
            return rest;
          }
          return queue.shift();
        });
        if (problem !== undefined) return problem;
        if (consumedRest) break;
      }
    } else {
      options.names.push({ name: arg, directory: options.directory });
    }
  }
  return options;
}

function memberName(name: string): string {
  return name.replace(/^\/+/, "");
}

function createArchive(options: TarOptions, context: CommandContext, failures: string[]): number {
  if (options.names.length === 0) {
    report(context, "Cowardly refusing to create an empty archive");
    context.stderr.write(`Try '${context.name} --help' for more information.\n`);
    return 2;
  }
  const { fs } = context;
  const members: Member[] = [];
  let warnedLeadingSlash = false;
  const add = (name: string, directory: string): void => {
    const path = resolvePath(name, directory);
    let stat;
    try {
      stat = fs.stat(path);
    } catch (error) {
      failures.push(`${name}: Cannot stat: ${reasonOf(error)}`);
      return;
    }
    const archived = memberName(name);
    if (archived !== name && !warnedLeadingSlash) {
      warnedLeadingSlash = true;
      report(context, "Removing leading `/' from member names");
    }
    if (stat.kind === "directory") {
      members.push({ type: "directory", path: archived.endsWith("/") ? archived : `${archived}/`, mode: stat.mode, mtimeMs: stat.mtimeMs });
      for (const child of fs.readdir(path)) add(`${name.replace(/\/+$/, "")}/${child}`, directory);
    } else {
      members.push({ type: "file", path: archived, mode: stat.mode, mtimeMs: stat.mtimeMs, content: fs.readFile(path) });
    }
  };
  for (const { name, directory } of options.names) add(name, directory);
  const text = ARCHIVE_HEADER + members.map((member) => `${JSON.stringify(member)}\n`).join("");
  if (options.verbose) {
    const listing = members.map((member) => `${member.path}\n`).join("");
    (options.archive === "-" ? context.stderr : context.stdout).write(listing);
  }
  if (options.archive === "-") context.stdout.write(text);
  else {
    try {
      fs.writeFile(options.archive, text, { cwd: context.cwd });
    } catch (error) {
      report(context, `${options.archive}: Cannot open: ${reasonOf(error)}`);
      report(context, "Error is not recoverable: exiting now");
      return 2;
    }
  }
  return 0;
}

async function readArchive(options: TarOptions, context: CommandContext, failures: string[]): Promise<number> {
  let text: string;
  try {
    text = options.archive === "-" ? await context.stdin.readAll() : context.fs.readFile(options.archive, { cwd: context.cwd });
  } catch (error) {
    report(context, `${options.archive}: Cannot open: ${reasonOf(error)}`);
    report(context, "Error is not recoverable: exiting now");
    return 2;
  }
  const members = parseArchive(text);
  if (members === undefined) {
    report(context, "This does not look like a tar archive");
    report(context, FAILURE_TRAILER);
    return 2;
  }
  if (options.mode === "list") {
    context.stdout.write(members.map((member) => `${member.path}\n`).join(""));
    return 0;
  }
  return extract(members, options, context, failures);
}

function parseArchive(text: string): Member[] | undefined {
  if (!text.startsWith(ARCHIVE_HEADER)) return undefined;
  const members: Member[] = [];
  for (const line of text.slice(ARCHIVE_HEADER.length).split("\n")) {
    if (line === "") continue;
    try {
      members.push(memberSchema.parse(JSON.parse(line)));
    } catch {
      return undefined;
    }
  }
  return members;
}

function extract(members: Member[], options: TarOptions, context: CommandContext, failures: string[]): number {
  const { fs } = context;
  const target = options.directory;
  try {
    if (fs.stat(target).kind !== "directory") throw new Error("Not a directory");
  } catch (error) {
    report(context, `${target}: Cannot chdir: ${error instanceof Error ? error.message : String(error)}`);
    report(context, "Error is not recoverable: exiting now");
    return 2;
  }
  // GNU tar stamps directories last, because writing their contents would move their mtimes again.
  const directories: Member[] = [];
  for (const member of members) {
    const name = memberName(member.path);
    if (splitPath(name).includes("..")) {
      failures.push(`${member.path}: Member name contains '..'`);
      continue;
    }
    const path = resolvePath(name, target);
    if (options.verbose) context.stdout.write(`${member.path}\n`);
    try {
      if (member.type === "directory") {
        fs.mkdir(path, { parents: true });
        directories.push(member);
        continue;
      }
      fs.mkdir(dirName(path), { parents: true });
      if (fs.exists(path) && fs.stat(path).kind === "directory") fs.remove(path, { recursive: true });
      fs.writeFile(path, member.content);
      fs.setAttributes(path, { mtimeMs: member.mtimeMs, mode: member.mode });
    } catch (error) {
      if (!isFileSystemError(error)) throw error;
      failures.push(`${member.path}: Cannot ${member.type === "directory" ? "mkdir" : "open"}: ${error.message}`);
    }
  }
  for (const member of directories) {
    try {
      fs.setAttributes(resolvePath(memberName(member.path), target), { mtimeMs: member.mtimeMs, mode: member.mode });
    } catch (error) {
      failures.push(`${member.path}: Cannot utime: ${reasonOf(error)}`);
    }
  }
  return 0;
}
