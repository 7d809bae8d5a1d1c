import type { PodFileSystem } from "../filesystem/pod-file-system.ts";
import { baseName, resolvePath } from "../filesystem/paths.ts";
import type { CommandContext, Utility } from "./commands/command.ts";
import { DASH_BUILTIN_UTILITIES } from "./commands/core-utilities.ts";
import { type ShellServices, raceAbort } from "./shell-state.ts";
import type { Streams } from "./streams.ts";

/**
 * How exec finds a program: a name with a slash is that file; a bare name is searched along PATH.
 * Files in an image's /bin are empty stand-ins for the utilities the simulation implements; any
 * other executable file is a script, run by its `#!` interpreter or, without one, by sh (as
 * shells do on ENOEXEC).
 */
export type ResolvedProgram =
  | { kind: "utility"; utility: Utility; name: string }
  | { kind: "script"; path: string; interpreter: string[] }
  | { kind: "missing" }
  | { kind: "not-executable"; path: string };

const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export function resolveProgram(name: string, fs: PodFileSystem, env: Readonly<Record<string, string>>, cwd: string, services: ShellServices): ResolvedProgram {
  if (name === "") return { kind: "missing" };
  if (name.includes("/")) return resolveFile(resolvePath(name, cwd), fs, services) ?? { kind: "missing" };
  for (const directory of (env.PATH ?? DEFAULT_PATH).split(":")) {
    const found = resolveFile(resolvePath(name, directory === "" ? cwd : directory), fs, services);
    if (found !== undefined && found.kind !== "not-executable") return found;
  }
  // Images built without the stand-ins (a bare root in a test) still have the simulated utilities.
  const utility = services.utilities.get(name);
  return utility === undefined ? { kind: "missing" } : { kind: "utility", utility, name };
}

function resolveFile(path: string, fs: PodFileSystem, services: ShellServices): ResolvedProgram | undefined {
  let stat;
  try {
    stat = fs.stat(path);
  } catch {
    return undefined;
  }
  if (stat.kind !== "file" || (stat.mode & 0o111) === 0) return { kind: "not-executable", path };
  const content = fs.readFile(path);
  const utility = services.utilities.get(baseName(path));
  if (content === "" && utility !== undefined) return { kind: "utility", utility, name: baseName(path) };
  const shebang = /^#!\s*(\S+)(?:[ \t]+(.*))?/.exec(content.split("\n", 1)[0] ?? "");
  if (shebang === null) return { kind: "script", path, interpreter: ["sh"] };
  const interpreter = [shebang[1] ?? "sh", ...(shebang[2] === undefined ? [] : [shebang[2].trim()])];
  return { kind: "script", path, interpreter };
}

export interface ProgramLaunch {
  env: Readonly<Record<string, string>>;
  cwd: string;
  streams: Streams;
  services: ShellServices;
  /** Set when a shell starts the program: dash's builtins then report as `sh: 1: printf: …`. */
  shellPrefix?: string;
}

export type ProgramOutcome = { status: number } | { missing: true } | { notExecutable: true; path: string };

/** Runs argv the way exec would: resolve, then start it with a fresh context. */
export async function runProgram(argv: readonly string[], launch: ProgramLaunch): Promise<ProgramOutcome> {
  const [name = "", ...args] = argv;
  const resolved = resolveProgram(name, launch.services.fs, launch.env, launch.cwd, launch.services);
  switch (resolved.kind) {
    case "missing":
      return { missing: true };
    case "not-executable":
      return { notExecutable: true, path: resolved.path };
    case "script":
      return runProgram([...resolved.interpreter, resolved.path, ...args], launch);
    case "utility": {
      const prefix =
        launch.shellPrefix !== undefined && !name.includes("/") && DASH_BUILTIN_UTILITIES.has(resolved.name) ? `${launch.shellPrefix}: ${name}` : name;
      const status = await resolved.utility(args, programContext(name, prefix, launch));
      return { status };
    }
  }
}

export function programContext(name: string, errorPrefix: string, launch: ProgramLaunch): CommandContext {
  const { services, streams } = launch;
  const { signal } = services;
  return {
    name,
    errorPrefix,
    stdin: {
      readAll: () => raceAbort(streams.stdin.readAll(), signal),
      readLine: () => raceAbort(streams.stdin.readLine(), signal),
    },
    stdout: streams.stdout,
    stderr: streams.stderr,
    fs: services.fs,
    cwd: launch.cwd,
    env: launch.env,
    hostname: services.hostname,
    now: services.now,
    sleep: (ms) => raceAbort(services.sleep(ms, signal), signal),
    waitForAbort: () => raceAbort(new Promise<never>(() => {}), signal),
    run: async (argv, env) => {
      const outcome = await runProgram(argv, { ...launch, env, shellPrefix: undefined });
      if ("status" in outcome) return outcome.status;
      return "notExecutable" in outcome ? 126 : undefined;
    },
  };
}
