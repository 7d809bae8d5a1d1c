import type { PodFileSystem } from "../filesystem/pod-file-system.ts";
import type { Command } from "./ast.ts";
import type { UtilityTable } from "./commands/command.ts";

/** What the shell gets from the world: never the real clock or timers, always the simulated cluster's. */
export interface ShellServices {
  fs: PodFileSystem;
  /** Resolves after `ms` of simulated time; may reject or never resolve once `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Milliseconds since the epoch on the simulated clock. */
  now(): number;
  hostname: string;
  signal: AbortSignal;
  utilities: UtilityTable;
  /**
   * SIGTERM for the container's main process, handed to the first shell that asks (the one
   * that is PID 1); every later shell, and every shell in an exec session, gets none.
   */
  takeTermination(): AbortSignal | undefined;
}

/** The conditions `trap` knows; only TERM is ever delivered (by the kubelet) and EXIT runs on exit. */
export const TRAP_CONDITIONS = ["EXIT", "HUP", "INT", "QUIT", "TERM"] as const;
export type TrapCondition = (typeof TRAP_CONDITIONS)[number];

/** The status `wait` returns when a trapped signal interrupts it: 128 + SIGTERM's number. */
export const INTERRUPTED_BY_TERM = 143;

/** Thrown when the caller aborted the run: the process was killed, nothing else runs. */
export class ShellAborted extends Error {
  constructor() {
    super("killed");
    this.name = "ShellAborted";
  }
}

/** `exit`, a fatal expansion error, or `set -e`: leaves the current shell (or subshell). */
export class ExitSignal extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
    this.name = "ExitSignal";
  }
}

export class LoopSignal extends Error {
  constructor(
    readonly kind: "break" | "continue",
    public levels: number,
  ) {
    super(kind);
    this.name = "LoopSignal";
  }
}

/** `return`: leaves the function (or dot script) being run. */
export class ReturnSignal extends Error {
  constructor(readonly status: number) {
    super(`return ${status}`);
    this.name = "ReturnSignal";
  }
}

export type Dialect = "dash" | "bash";

export interface ShellOptions {
  errexit: boolean;
  nounset: boolean;
  xtrace: boolean;
  pipefail: boolean;
}

export interface Variable {
  value: string;
  exported: boolean;
}

let nextPid = 100;

export class ShellState {
  readonly variables: Map<string, Variable>;
  cwd: string;
  lastStatus = 0;
  /** `$0`: also what every diagnostic starts with, as in dash and bash. */
  scriptName: string;
  positional: string[];
  readonly options: ShellOptions;
  readonly dialect: Dialect;
  readonly services: ShellServices;
  readonly pid: number;
  loopDepth = 0;
  readonly functions: Map<string, Command>;
  /** One frame per running function: the values its `local` names had before, to put back. */
  readonly localFrames: Map<string, Variable | undefined>[] = [];
  /** Inside an `if`/`while` condition or on the left of `&&`/`||`, where `set -e` does not apply. */
  conditionDepth = 0;
  /** Actions set with `trap`; an empty action ignores the signal. A subshell starts with none. */
  readonly traps = new Map<TrapCondition, string>();
  /** Trapped signals that arrived and whose action has not run yet. */
  readonly pendingSignals: TrapCondition[] = [];
  /** Jobs started with `&`, by process id, until `wait` collects them. */
  readonly jobs = new Map<number, Promise<number>>();
  lastJobPid: number | undefined;
  /** One promise for everyone waiting on the next trapped signal, settled when it comes. */
  private nextSignal?: { arrived: Promise<void>; settle: () => void };

  constructor(init: {
    env: Readonly<Record<string, string>>;
    cwd: string;
    scriptName: string;
    positional?: string[];
    options?: Partial<ShellOptions>;
    dialect: Dialect;
    services: ShellServices;
    variables?: Map<string, Variable>;
    functions?: Map<string, Command>;
    pid?: number;
  }) {
    this.functions = init.functions ?? new Map();
    this.variables = init.variables ?? new Map(Object.entries(init.env).map(([name, value]) => [name, { value, exported: true }]));
    this.cwd = init.cwd;
    this.scriptName = init.scriptName;
    this.positional = init.positional ?? [];
    this.options = { errexit: false, nounset: false, xtrace: false, pipefail: false, ...init.options };
    this.dialect = init.dialect;
    this.services = init.services;
    this.pid = init.pid ?? (nextPid += 1);
    if (!this.variables.has("PWD")) this.variables.set("PWD", { value: this.cwd, exported: true });
  }

  /** A copy for `( … )`, pipeline stages and `$( … )`: changes inside do not come back. */
  subshell(): ShellState {
    const copy = new ShellState({
      env: {},
      cwd: this.cwd,
      scriptName: this.scriptName,
      positional: [...this.positional],
      options: { ...this.options },
      dialect: this.dialect,
      services: this.services,
      variables: new Map([...this.variables].map(([name, variable]) => [name, { ...variable }])),
      functions: new Map(this.functions),
      pid: this.pid,
    });
    copy.lastStatus = this.lastStatus;
    return copy;
  }

  get(name: string): string | undefined {
    return this.variables.get(name)?.value;
  }

  set(name: string, value: string, exported?: boolean): void {
    const existing = this.variables.get(name);
    this.variables.set(name, { value, exported: exported ?? existing?.exported ?? false });
  }

  export(name: string): void {
    const existing = this.variables.get(name);
    if (existing !== undefined) existing.exported = true;
    else this.variables.set(name, { value: "", exported: true });
  }

  unset(name: string): void {
    this.variables.delete(name);
  }

  /** `local name`: remembered in the innermost function frame, put back when it returns. */
  makeLocal(name: string): boolean {
    const frame = this.localFrames.at(-1);
    if (frame === undefined) return false;
    if (!frame.has(name)) {
      const current = this.variables.get(name);
      frame.set(name, current === undefined ? undefined : { ...current });
    }
    return true;
  }

  restoreLocals(frame: Map<string, Variable | undefined>): void {
    for (const [name, variable] of frame) {
      if (variable === undefined) this.variables.delete(name);
      else this.variables.set(name, variable);
    }
  }

  isSet(name: string): boolean {
    return this.variables.has(name);
  }

  /** The environment a child process gets. */
  environment(overrides: Readonly<Record<string, string>> = {}): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, variable] of this.variables) if (variable.exported) env[name] = variable.value;
    return { ...env, ...overrides };
  }

  changeDirectory(path: string): void {
    this.set("OLDPWD", this.cwd, true);
    this.cwd = path;
    this.set("PWD", path, true);
  }

  /** `sh: 3: text` (dash) or `bash: line 3: text`. */
  diagnostic(line: number, text: string): string {
    return this.dialect === "bash" ? `${this.scriptName}: line ${line}: ${text}\n` : `${this.scriptName}: ${line}: ${text}\n`;
  }

  optionFlags(): string {
    return `${this.options.errexit ? "e" : ""}${this.options.nounset ? "u" : ""}${this.options.xtrace ? "x" : ""}`;
  }

  /**
   * A signal for this shell: PID 1 has no default action, so only a trapped signal does
   * anything, and its action waits until the command in the foreground has finished.
   */
  receive(condition: TrapCondition): void {
    if (!this.traps.get(condition)) return;
    this.pendingSignals.push(condition);
    this.nextSignal?.settle();
    this.nextSignal = undefined;
  }

  /** Settles when a trapped signal is pending (at once if one already is). */
  untilSignal(): Promise<void> {
    if (this.pendingSignals.length > 0) return Promise.resolve();
    if (this.nextSignal === undefined) {
      let settle = () => {};
      const arrived = new Promise<void>((resolve) => (settle = resolve));
      this.nextSignal = { arrived, settle };
    }
    return this.nextSignal.arrived;
  }

  /** Runs `run` as a job in a subshell with its own process id, for `&`. */
  startJob(run: (subshell: ShellState) => Promise<number>): number {
    const subshell = this.subshell();
    const pid = (nextPid += 1);
    const job = run(subshell).catch((error: unknown) => {
      if (error instanceof ExitSignal) return error.status;
      if (error instanceof ShellAborted) return 137;
      throw error;
    });
    // A job nobody waits for must not take the process down with it.
    job.catch(() => undefined);
    this.jobs.set(pid, job);
    this.lastJobPid = pid;
    return pid;
  }

  throwIfAborted(): void {
    if (this.services.signal.aborted) throw new ShellAborted();
  }

  /** Waits for `promise` unless the run is aborted first. */
  async untilAborted<T>(promise: Promise<T>): Promise<T> {
    return raceAbort(promise, this.services.signal);
  }
}

export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ShellAborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ShellAborted());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
