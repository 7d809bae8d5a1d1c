export { type CommandResult, KILLED_EXIT_CODE, type ShellContext, type StartFailure, runCommand } from "./run-command.ts";
export { parseScript } from "./parser.ts";
export { ShellSyntaxError } from "./syntax-error.ts";
