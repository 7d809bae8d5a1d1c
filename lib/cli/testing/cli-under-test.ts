import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

// The `berth` command run as a person runs it: a child process of bin/berth.mjs, with only the
// environment a test gives it (its own config file, server and token), its output collected.

const BIN = path.resolve(import.meta.dirname, "../../../bin/berth.mjs");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The parent's environment without anything that would point berth elsewhere. */
function environment(extra: Record<string, string>): Record<string, string | undefined> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("BERTH_") && name !== "XDG_CONFIG_HOME"));
  return { ...clean, NO_COLOR: "1", ...extra };
}

function spawnBerth(args: string[], env: Record<string, string>, terminal = false): ChildProcess {
  if (!terminal) return spawn(process.execPath, [BIN, ...args], { env: environment(env) as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
  // util-linux's script(1) runs it on a pseudo-terminal: a full-screen view sees a terminal, and
  // what is typed on script's standard input reaches it as keystrokes. Ink renders only the last
  // frame when it thinks it runs in CI, so CI is left out.
  const command = [process.execPath, BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  const { CI: _ci, ...rest } = environment({ TERM: "xterm-256color", ...env });
  return spawn("script", ["--quiet", "--flush", "--return", "--command", `stty cols 140 rows 40; exec ${command}`, "/dev/null"], { env: rest as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
}

function collect(child: ChildProcess): { out: string[]; err: string[]; done: Promise<CliRun> } {
  const out: string[] = [];
  const err: string[] = [];
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => out.push(chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => err.push(chunk));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : -1), stdout: out.join(""), stderr: err.join("") }));
  });
  return { out, err, done };
}

/** Runs `berth ARGS…` to the end; `input` is its standard input. */
export async function berth(args: string[], env: Record<string, string>, input = ""): Promise<CliRun> {
  const child = spawnBerth(args, env);
  const { done } = collect(child);
  child.stdin!.end(input);
  return done;
}

export interface FollowingCli {
  /** Resolves with the first line of standard output (or error, with `stream: "stderr"`) that matches. */
  untilLine(pattern: RegExp, options?: { stream?: "stdout" | "stderr"; timeoutMs?: number }): Promise<string>;
  /** Interrupts it (Ctrl-C) and answers what it printed. */
  stop(): Promise<CliRun>;
  /** Presses Ctrl-C and goes on: a command that asks something then waits for the answer. */
  interrupt(): void;
  /** Types a line on its standard input. */
  type(line: string): void;
  /** Presses keys, as they are ("\r" is Enter, "\u001b" Escape), in one go. */
  press(keys: string): void;
  /** What it printed, once it has ended by itself. */
  ended(): Promise<CliRun>;
}

/**
 * Starts a `berth` that keeps running (get -w, timeline --follow, drain; top on a pseudo-terminal
 * with `terminal`); its standard input stays open.
 */
export function follow(args: string[], env: Record<string, string>, options: { terminal?: boolean } = {}): FollowingCli {
  const child = spawnBerth(args, env, options.terminal);
  const { out, err, done } = collect(child);
  return {
    interrupt: () => void child.kill("SIGINT"),
    type: (line) => void child.stdin!.write(`${line}\n`),
    press: (keys) => void child.stdin!.write(keys),
    ended: () => done,
    untilLine(pattern, { stream = "stdout", timeoutMs = 30_000 } = {}) {
      const source = stream === "stdout" ? child.stdout! : child.stderr!;
      const printed = () => (stream === "stdout" ? out : err).join("").split("\n").find((one) => pattern.test(one));
      return new Promise<string>((resolve, reject) => {
        const settle = (outcome: () => void) => {
          clearTimeout(timer);
          source.off("data", check);
          child.off("close", gone);
          outcome();
        };
        const check = () => {
          const line = printed();
          if (line !== undefined) settle(() => resolve(line));
        };
        const gone = () => settle(() => reject(new Error(`berth ${args.join(" ")} ended without printing a line matching ${pattern}:\n${out.join("")}\n${err.join("")}`)));
        const timer = setTimeout(() => settle(() => reject(new Error(`berth ${args.join(" ")} printed no line matching ${pattern} on ${stream} in ${timeoutMs} ms:\n--- stdout\n${out.join("")}\n--- stderr\n${err.join("")}`))), timeoutMs);
        // Listeners added after collect()'s, so the chunk is already in `out` or `err`.
        source.on("data", check);
        child.on("close", gone);
        check();
      });
    },
    async stop() {
      child.kill("SIGINT");
      child.stdin!.end();
      return done;
    },
  };
}
