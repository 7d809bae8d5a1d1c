import type { BuiltinContext } from "./builtins.ts";
import { INTERRUPTED_BY_TERM, TRAP_CONDITIONS, type TrapCondition } from "./shell-state.ts";

// `trap` and `wait`: what a container's main process needs to stop when the kubelet sends
// SIGTERM (`trap 'exit 0' TERM; sleep infinity & wait`), and nothing a terminal would add.

const CONDITION_NUMBERS: Readonly<Record<string, TrapCondition>> = { "0": "EXIT", "1": "HUP", "2": "INT", "3": "QUIT", "15": "TERM" };

function conditionNamed(operand: string): TrapCondition | undefined {
  const name = CONDITION_NUMBERS[operand] ?? operand.toUpperCase().replace(/^SIG/, "");
  return (TRAP_CONDITIONS as readonly string[]).includes(name) ? (name as TrapCondition) : undefined;
}

function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `trap`, `trap -p`: the actions set, as input the shell could read back. */
function listTraps(context: BuiltinContext): number {
  for (const [condition, action] of context.state.traps) context.streams.stdout.write(`trap -- ${quoted(action)} ${condition}\n`);
  return 0;
}

/**
 * `trap ACTION CONDITION…` sets, `trap - CONDITION…` (or a lone number) resets, `trap ''
 * CONDITION…` ignores. A condition the shell does not know is reported the dialect's way.
 */
export function trap(args: string[], context: BuiltinContext): number {
  const operands = args[0] === "--" ? args.slice(1) : args;
  if (operands.length === 0 || (operands.length === 1 && operands[0] === "-p")) return listTraps(context);
  const resetsOnly = operands.length === 1 || /^\d+$/.test(operands[0] ?? "");
  const action = resetsOnly ? "-" : (operands[0] ?? "-");
  const conditions = resetsOnly ? operands : operands.slice(1);
  let status = 0;
  for (const operand of conditions) {
    const condition = conditionNamed(operand);
    if (condition === undefined) {
      const message = context.state.dialect === "bash" ? `trap: ${operand}: invalid signal specification` : `trap: ${operand}: bad trap`;
      context.streams.stderr.write(context.state.diagnostic(context.line, message));
      status = 1;
      continue;
    }
    if (action === "-") context.state.traps.delete(condition);
    else context.state.traps.set(condition, action);
  }
  return status;
}

/**
 * `wait [PID…]`: the jobs' end (the last one's status; 127 for a process id that is not a job),
 * or 143 at once when a trapped signal arrives, whose action then runs before the next command.
 */
export async function wait(args: string[], context: BuiltinContext): Promise<number> {
  const { state } = context;
  const pids = args.length > 0 ? args.map(Number) : [...state.jobs.keys()];
  let status = 0;
  for (const pid of pids) {
    const job = state.jobs.get(pid);
    if (job === undefined) {
      status = 127;
      continue;
    }
    const outcome = await state.untilAborted(Promise.race([job, state.untilSignal().then(() => undefined)]));
    if (outcome === undefined) return INTERRUPTED_BY_TERM;
    state.jobs.delete(pid);
    status = outcome;
  }
  return args.length > 0 ? status : 0;
}
