export {
  CLOSE_SIGNAL,
  ERROR_CHANNEL,
  RESIZE_CHANNEL,
  STDERR_CHANNEL,
  STDIN_CHANNEL,
  STDOUT_CHANNEL,
  SUPPORTED_PROTOCOLS,
  V1_PROTOCOL,
  V4_PROTOCOL,
  V5_PROTOCOL,
} from "./channel-protocol.ts";
export { type ExecOptions, execTarget, parseExecOptions } from "./exec-request.ts";
export {
  type ExecStatus,
  type StatusCause,
  badRequestStatus,
  internalErrorStatus,
  nonZeroExitStatus,
  serializeStatus,
  startFailureStatus,
  successStatus,
} from "./exec-status.ts";
export { type ExecIo, type ExecOutcome, type ExecRunner, handleExecUpgrade } from "./handle-exec-upgrade.ts";
export { rejectUpgrade } from "./reject-upgrade.ts";
export { type ContainerShell, execInShell } from "./shell-exec.ts";
