import type { Utility } from "./command.ts";
import { echo } from "./echo.ts";
import { cat, chmod, cp, mkdir, mv, rm, touch } from "./files.ts";
import { ls } from "./ls.ts";
import { printf } from "./printf.ts";
import { basename, date, dirname, env, failQuietly, hostname, pwd, sleep, succeed, sync, uname } from "./system.ts";
import { stat } from "./stat.ts";
import { tar } from "./tar.ts";
import { bracket, test } from "./test.ts";
import { grep, head, tail, wc } from "./text-filters.ts";

/** The programs every simulated image has (see IMAGE_COMMANDS), by name; `sh` itself is added by the shell. */
export const CORE_UTILITIES: ReadonlyMap<string, Utility> = new Map<string, Utility>([
  ["[", bracket],
  ["basename", basename],
  ["cat", cat],
  ["chmod", chmod],
  ["cp", cp],
  ["date", date],
  ["dirname", dirname],
  ["echo", echo],
  ["env", env],
  ["false", failQuietly],
  ["grep", grep],
  ["head", head],
  ["hostname", hostname],
  ["ls", ls],
  ["mkdir", mkdir],
  ["mv", mv],
  ["printf", printf],
  ["pwd", pwd],
  ["rm", rm],
  ["sleep", sleep],
  ["stat", stat],
  ["sync", sync],
  ["tail", tail],
  ["tar", tar],
  ["test", test],
  ["touch", touch],
  ["true", succeed],
  ["uname", uname],
  ["wc", wc],
]);

/**
 * Programs dash runs as builtins: inside a shell their diagnostics read `sh: 1: printf: …`
 * rather than `printf: …`.
 */
export const DASH_BUILTIN_UTILITIES: ReadonlySet<string> = new Set(["[", "echo", "false", "printf", "pwd", "test", "true"]);
