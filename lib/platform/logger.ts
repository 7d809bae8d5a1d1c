import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";

// Berth's server log: JSON lines (one object per line, as log pipelines read them) through
// pino, or readable lines when a person is watching a terminal. BERTH_LOG_FORMAT=json|pretty
// chooses; BERTH_LOG_LEVEL (trace … fatal, silent) filters. Credentials never reach it: the
// fields that could carry one are redacted wherever they appear.

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/** Paths that could hold a secret, at the top of an entry or one level down (err.config, request.headers…). */
const REDACTED = ["authorization", "cookie", "token", "password", "secret", "refreshToken", "idToken", "accessToken"].flatMap((key) => [key, `*.${key}`, `*.headers.${key}`]);

function destination(format: string | undefined): DestinationStream {
  const readable = format === "pretty" || (format === undefined && process.stdout.isTTY === true);
  return readable ? pretty({ colorize: process.stdout.isTTY === true, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" }) : pino.destination({ fd: 1, sync: true });
}

function levelOf(value: string | undefined): (typeof LOG_LEVELS)[number] {
  return (LOG_LEVELS as readonly string[]).includes(value ?? "") ? (value as (typeof LOG_LEVELS)[number]) : "info";
}

/** A logger writing to `stream` (the tests'), or to standard output as configured. */
export function createLogger(stream?: DestinationStream, env: Readonly<Record<string, string | undefined>> = process.env): Logger {
  return pino(
    {
      level: levelOf(env.BERTH_LOG_LEVEL),
      base: { service: "berth" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    stream ?? destination(env.BERTH_LOG_FORMAT),
  );
}

const GLOBAL = Symbol.for("berth.logger");
const holder = globalThis as { [GLOBAL]?: Logger };

/** The process's logger: one for every module, whichever bundle loaded it (Next.js loads server code more than once). */
export function logger(): Logger {
  return (holder[GLOBAL] ??= createLogger());
}

/** A part of Berth's log: its entries say which part wrote them. */
export function logOf(component: string): Logger {
  return logger().child({ component });
}
