import type { AndOrList, CaseCommand, Command, ForCommand, IfCommand, LoopCommand, Pipeline, Script, SimpleCommand } from "./ast.ts";
import { BUILTINS, SPECIAL_BUILTINS } from "./builtins.ts";
import { type ExpansionHost, expandFields, expandPattern, expandText } from "./expand.ts";
import { globMatches } from "./pattern.ts";
import { parseScript } from "./parser.ts";
import { resolveProgram, runProgram } from "./programs.ts";
import { RedirectionError, applyRedirections } from "./redirections.ts";
import { ExitSignal, LoopSignal, ReturnSignal, type ShellState, type Variable } from "./shell-state.ts";
import { BufferSink, NO_INPUT, Pipe, type Streams } from "./streams.ts";
import { ShellSyntaxError, describeForBash, describeForDash } from "./syntax-error.ts";

/** Loops that never sleep would otherwise hold the event loop: give it a turn this often. */
const ITERATIONS_BETWEEN_YIELDS = 200;
/** Characters a pipe holds unread before its writer is stopped as if by SIGPIPE (exit status 128 + 13). */
export const PIPE_CAPACITY = 16 * 1024 * 1024;
const BROKEN_PIPE_STATUS = 141;

/**
 * Parses and runs shell source in `state`. Syntax errors are reported the dialect's way with
 * status 2; `exit` ends the run with its status. ShellAborted passes through to the caller.
 */
export async function runSource(source: string, state: ShellState, streams: Streams): Promise<number> {
  const script = parseReporting(source, state, streams);
  return script === undefined ? 2 : runScript(script, state, streams);
}

/** Source run inside a running shell (`eval`, `.`): `exit`, `return` and `break` reach the code around it. */
export async function runNestedSource(source: string, state: ShellState, streams: Streams): Promise<number> {
  const script = parseReporting(source, state, streams);
  return script === undefined ? 2 : runList(script, state, streams);
}

function parseReporting(source: string, state: ShellState, streams: Streams): Script | undefined {
  try {
    return parseScript(source);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    const text = state.dialect === "bash" ? describeForBash(error.problem) : describeForDash(error.problem);
    streams.stderr.write(state.diagnostic(error.line, text));
    state.lastStatus = 2;
    return undefined;
  }
}

/**
 * Runs a parsed script as a shell's whole input: `exit` stops here. A signal trapped while the
 * last command ran has its action run before the shell ends, and then the EXIT trap.
 */
export async function runScript(script: Script, state: ShellState, streams: Streams): Promise<number> {
  const status = await untilExit(state, async () => {
    await runList(script, state, streams);
    return runPendingTraps(state, streams);
  });
  const exitAction = state.traps.get("EXIT");
  if (!exitAction) return status;
  state.traps.delete("EXIT");
  return untilExit(state, async () => {
    await runNestedSource(exitAction, state, streams);
    return status;
  });
}

async function untilExit(state: ShellState, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ExitSignal || error instanceof ReturnSignal) {
      state.lastStatus = error.status;
      return error.status;
    }
    throw error;
  }
}

/** The actions of trapped signals that arrived, each once; `$?` is as it was unless one exits. */
async function runPendingTraps(state: ShellState, streams: Streams): Promise<number> {
  const status = state.lastStatus;
  for (let condition = state.pendingSignals.shift(); condition !== undefined; condition = state.pendingSignals.shift()) {
    const action = state.traps.get(condition);
    if (action) await runNestedSource(action, state, streams);
  }
  state.lastStatus = status;
  return status;
}

async function runList(script: Script, state: ShellState, streams: Streams): Promise<number> {
  let status = 0;
  for (const item of script.items) {
    if (item.background) {
      // A job of a non-interactive shell reads nothing: its standard input is /dev/null.
      state.startJob((job) => runAndOr(item, job, { ...streams, stdin: NO_INPUT }));
      status = 0;
    } else {
      status = await runAndOr(item, state, streams);
    }
    state.lastStatus = status;
  }
  return status;
}

async function inCondition<T>(state: ShellState, run: () => Promise<T>): Promise<T> {
  state.conditionDepth += 1;
  try {
    return await run();
  } finally {
    state.conditionDepth -= 1;
  }
}

async function runAndOr(list: AndOrList, state: ShellState, streams: Streams): Promise<number> {
  const steps = [{ operator: undefined, pipeline: list.first }, ...list.rest];
  let status = 0;
  let lastCounts = false;
  for (const [index, { operator, pipeline }] of steps.entries()) {
    if ((operator === "&&" && status !== 0) || (operator === "||" && status === 0)) continue;
    const isLast = index === steps.length - 1;
    status = isLast ? await runPipeline(pipeline, state, streams) : await inCondition(state, () => runPipeline(pipeline, state, streams));
    state.lastStatus = status;
    lastCounts = isLast && !pipeline.negated;
  }
  // set -e: only a failure that decides the list's status, outside any condition, ends the shell.
  if (status !== 0 && lastCounts && state.options.errexit && state.conditionDepth === 0) throw new ExitSignal(status);
  return status;
}

async function runPipeline(pipeline: Pipeline, state: ShellState, streams: Streams): Promise<number> {
  const run = () => (pipeline.commands.length === 1 ? runCommand(pipeline.commands[0] as Command, state, streams) : runStages(pipeline, state, streams));
  const status = pipeline.negated ? await inCondition(state, run) : await run();
  return pipeline.negated ? (status === 0 ? 1 : 0) : status;
}

/**
 * Every stage runs at once in its own subshell, joined by streaming pipes: a stage's exit closes
 * its end of each pipe, so readers see end of file and writers to a gone reader get SIGPIPE.
 */
async function runStages(pipeline: Pipeline, state: ShellState, streams: Streams): Promise<number> {
  const pipes = pipeline.commands.slice(1).map(
    () =>
      new Pipe(PIPE_CAPACITY, () => {
        throw new ExitSignal(BROKEN_PIPE_STATUS);
      }),
  );
  const stages = pipeline.commands.map(async (command, index) => {
    const input = pipes[index - 1];
    const output = pipes[index];
    try {
      return await inSubshell(state, (subshell) => runCommand(command, subshell, { stdin: input ?? streams.stdin, stdout: output ?? streams.stdout, stderr: streams.stderr }));
    } finally {
      input?.closeReader();
      output?.closeWriter();
    }
  });
  const statuses = await Promise.all(stages);
  if (state.options.pipefail) return statuses.findLast((status) => status !== 0) ?? 0;
  return statuses.at(-1) ?? 0;
}

async function inSubshell(state: ShellState, run: (subshell: ShellState) => Promise<number>): Promise<number> {
  const subshell = state.subshell();
  try {
    return await run(subshell);
  } catch (error) {
    if (error instanceof ExitSignal) return error.status;
    throw error;
  }
}

async function runCommand(command: Command, state: ShellState, streams: Streams): Promise<number> {
  state.throwIfAborted();
  if (state.pendingSignals.length > 0) await runPendingTraps(state, streams);
  if (command.kind === "simple") return runSimple(command, state, streams);
  if (command.kind === "function") {
    state.functions.set(command.name, command.body);
    return 0;
  }
  let redirected: Streams;
  try {
    redirected = await applyRedirections(command.redirects, streams, host(state, streams, command.line));
  } catch (error) {
    return redirectionFailed(error, state, streams, command.line);
  }
  switch (command.kind) {
    case "if":
      return runIf(command, state, redirected);
    case "while":
    case "until":
      return runLoop(command, state, redirected);
    case "for":
      return runFor(command, state, redirected);
    case "case":
      return runCase(command, state, redirected);
    case "group":
      return command.subshell ? inSubshell(state, (subshell) => runList(command.body, subshell, redirected)) : runList(command.body, state, redirected);
  }
}

async function runCase(command: CaseCommand, state: ShellState, streams: Streams): Promise<number> {
  const expansion = host(state, streams, command.line);
  const subject = await expandText(command.subject, expansion);
  for (const item of command.items) {
    for (const pattern of item.patterns) {
      if (globMatches(await expandPattern(pattern, expansion), subject)) return runList(item.body, state, streams);
    }
  }
  return 0;
}

/** Calls a shell function: its own positional parameters and `local` frame, and `return` ends it. */
async function callFunction(body: Command, args: string[], state: ShellState, streams: Streams): Promise<number> {
  const savedPositional = state.positional;
  const frame = new Map<string, Variable | undefined>();
  state.positional = args;
  state.localFrames.push(frame);
  try {
    return await runCommand(body, state, streams);
  } catch (error) {
    if (error instanceof ReturnSignal) return error.status;
    throw error;
  } finally {
    state.localFrames.pop();
    state.restoreLocals(frame);
    state.positional = savedPositional;
  }
}

async function runIf(command: IfCommand, state: ShellState, streams: Streams): Promise<number> {
  for (const branch of command.branches) {
    const condition = await inCondition(state, () => runList(branch.condition, state, streams));
    if (condition === 0) return runList(branch.body, state, streams);
  }
  return command.otherwise === undefined ? 0 : runList(command.otherwise, state, streams);
}

/** Runs one loop iteration's body; says whether to stop, honouring `break N` and `continue N`. */
async function loopBody(body: Script, state: ShellState, streams: Streams): Promise<{ status: number; stop: boolean }> {
  try {
    return { status: await runList(body, state, streams), stop: false };
  } catch (error) {
    if (!(error instanceof LoopSignal)) throw error;
    if (error.levels > 1) {
      error.levels -= 1;
      throw error;
    }
    return { status: 0, stop: error.kind === "break" };
  }
}

async function yieldNow(iteration: number): Promise<void> {
  if (iteration % ITERATIONS_BETWEEN_YIELDS === ITERATIONS_BETWEEN_YIELDS - 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function runLoop(command: LoopCommand, state: ShellState, streams: Streams): Promise<number> {
  let status = 0;
  state.loopDepth += 1;
  try {
    for (let iteration = 0; ; iteration += 1) {
      state.throwIfAborted();
      await yieldNow(iteration);
      const condition = await inCondition(state, () => runList(command.condition, state, streams));
      if ((condition === 0) !== (command.kind === "while")) break;
      const outcome = await loopBody(command.body, state, streams);
      status = outcome.status;
      if (outcome.stop) break;
    }
  } finally {
    state.loopDepth -= 1;
  }
  return status;
}

async function runFor(command: ForCommand, state: ShellState, streams: Streams): Promise<number> {
  const items = command.items === undefined ? [...state.positional] : await expandFields(command.items, host(state, streams, command.line));
  let status = 0;
  state.loopDepth += 1;
  try {
    for (const [iteration, item] of items.entries()) {
      state.throwIfAborted();
      await yieldNow(iteration);
      state.set(command.variable, item);
      const outcome = await loopBody(command.body, state, streams);
      status = outcome.status;
      if (outcome.stop) break;
    }
  } finally {
    state.loopDepth -= 1;
  }
  return status;
}

/** `onSubstitution` learns each `$( … )` status: a command of assignments alone returns the last one. */
function host(state: ShellState, streams: Streams, line: number, onSubstitution?: (status: number) => void): ExpansionHost {
  return {
    state,
    stderr: streams.stderr,
    line,
    runSubstitution: async (script) => {
      const output = new BufferSink();
      const status = await inSubshell(state, (subshell) => runList(script, subshell, { ...streams, stdout: output }));
      state.lastStatus = status;
      onSubstitution?.(status);
      return output.text;
    },
  };
}

function redirectionFailed(error: unknown, state: ShellState, streams: Streams, line: number): number {
  if (!(error instanceof RedirectionError)) throw error;
  streams.stderr.write(state.diagnostic(line, error.message));
  return state.dialect === "bash" ? 1 : 2;
}

async function runSimple(command: SimpleCommand, state: ShellState, streams: Streams): Promise<number> {
  let substitutionStatus = 0;
  const expansion = host(state, streams, command.line, (status) => (substitutionStatus = status));
  let argv = await expandFields(command.words, expansion);
  const assignments: [string, string][] = [];
  for (const assignment of command.assignments) assignments.push([assignment.name, await expandText(assignment.value, expansion)]);

  if (state.options.xtrace) {
    const traced = [...assignments.map(([name, value]) => `${name}=${value}`), ...argv];
    if (traced.length > 0) streams.stderr.write(`+ ${traced.join(" ")}\n`);
  }

  let redirected: Streams;
  try {
    redirected = await applyRedirections(command.redirects, streams, expansion);
  } catch (error) {
    return redirectionFailed(error, state, streams, command.line);
  }

  if (argv[0] === "command" && argv[1] !== undefined && !argv[1].startsWith("-")) argv = argv.slice(1);
  const [name, ...args] = argv;
  if (name === undefined) {
    for (const [variable, value] of assignments) state.set(variable, value);
    return substitutionStatus;
  }

  const definition = SPECIAL_BUILTINS.has(name) ? undefined : state.functions.get(name);
  if (definition !== undefined) {
    const restore = assignments.map(([variable]) => [variable, state.get(variable)] as const);
    for (const [variable, value] of assignments) state.set(variable, value);
    try {
      return await callFunction(definition, args, state, redirected);
    } finally {
      for (const [variable, value] of restore) {
        if (value === undefined) state.unset(variable);
        else state.set(variable, value);
      }
    }
  }

  const builtin = BUILTINS.get(name);
  if (builtin !== undefined) {
    const restore = SPECIAL_BUILTINS.has(name) ? [] : assignments.map(([variable]) => [variable, state.get(variable)] as const);
    for (const [variable, value] of assignments) state.set(variable, value);
    try {
      return await builtin(args, {
        state,
        streams: redirected,
        line: command.line,
        runSource: runNestedSource,
        findProgram: (program) => {
          const found = resolveProgram(program, state.services.fs, state.environment(), state.cwd, state.services);
          return found.kind === "utility" ? (program.includes("/") ? program : `/bin/${found.name}`) : found.kind === "script" ? found.path : undefined;
        },
      });
    } finally {
      for (const [variable, value] of restore) {
        if (value === undefined) state.unset(variable);
        else state.set(variable, value);
      }
    }
  }

  const outcome = await runProgram(argv, {
    env: state.environment(Object.fromEntries(assignments)),
    cwd: state.cwd,
    streams: redirected,
    services: state.services,
    shellPrefix: state.dialect === "dash" ? `${state.scriptName}: ${command.line}` : `${state.scriptName}: line ${command.line}`,
  });
  if ("status" in outcome) return outcome.status;
  if ("missing" in outcome) {
    const message = state.dialect === "bash" ? (name.includes("/") ? `${name}: No such file or directory` : `${name}: command not found`) : `${name}: not found`;
    redirected.stderr.write(state.diagnostic(command.line, message));
    return 127;
  }
  redirected.stderr.write(state.diagnostic(command.line, `${name}: Permission denied`));
  return 126;
}
