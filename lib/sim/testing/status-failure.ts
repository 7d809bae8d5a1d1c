import { StatusError } from "../status-error.ts";

/** The StatusError a call throws; fails the test if it throws nothing or something else. */
export function statusFailure(run: () => unknown): StatusError {
  try {
    run();
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected a StatusError");
}
