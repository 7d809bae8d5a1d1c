import { ApiProblem } from "../client/api-problem.ts";
import { CliConfigError } from "./cli-config.ts";
import { NoServerError } from "./session.ts";

// What a command that did not succeed prints and how it exits, as scripts rely on: 1 when Berth
// (or Kubernetes behind it) refused or failed, 2 when the command itself was wrong.

export const EXIT = { done: 0, failed: 1, usage: 2 } as const;

/** The command line asks for something that cannot be: exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** What was asked for is not there: exit 1, as kubectl exits for NotFound. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
}

/** The problem in a person's words: the title, what to do, and each field that was refused. */
export function describeProblem(problem: ApiProblem): string {
  const status = problem.status > 0 ? ` (HTTP ${problem.status}${problem.code ? `, ${problem.code}` : ""})` : "";
  const fields = problem.fields.map((field) => `  ${field.field}: ${field.message}\n`).join("");
  return `error: ${problem.title}${status}\n${problem.detail}\n${fields}${problem.requestId ? `(request ${problem.requestId})\n` : ""}`;
}

/** Prints why the command failed, and answers the exit code. */
export function reportFailure(error: unknown, write: (text: string) => void): number {
  if (error instanceof ApiProblem) {
    write(describeProblem(error));
    return EXIT.failed;
  }
  if (error instanceof UsageError) {
    write(`error: ${error.message}\nSee 'berth --help'.\n`);
    return EXIT.usage;
  }
  if (error instanceof NotFoundError || error instanceof NoServerError || error instanceof CliConfigError) {
    write(`error: ${error.message}\n`);
    return EXIT.failed;
  }
  write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.failed;
}
