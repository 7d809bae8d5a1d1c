import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import { z } from "zod";

// The CLI's contexts, as kubectl keeps its own: where each Berth is, who to be there, which
// namespace by default, and which context is current. It holds bearer tokens, so only its owner
// may read it (0600). BERTH_CONFIG names another file; otherwise it lives in
// $XDG_CONFIG_HOME/berth/config.yaml (~/.config/berth/config.yaml).

const contextSchema = z.object({
  name: z.string().min(1),
  server: z.url({ protocol: /^https?$/, error: "server must be an http:// or https:// URL" }),
  namespace: z.string().min(1).optional(),
  /** A Kubernetes bearer token (`berth login --token`), checked by Berth with TokenReview, or a Berth token (`berth login` through the browser). */
  token: z.string().min(1).optional(),
});
export type CliContext = z.infer<typeof contextSchema>;

const configSchema = z.object({
  "current-context": z.string().optional(),
  contexts: z.array(contextSchema).default([]),
});
export type CliConfig = z.infer<typeof configSchema>;

/** The variables the CLI reads: BERTH_CONFIG, XDG_CONFIG_HOME, BERTH_SERVER, BERTH_TOKEN. */
export type Environment = Readonly<Record<string, string | undefined>>;

export class CliConfigError extends Error {
  override name = "CliConfigError";
}

export function configPath(env: Environment = process.env): string {
  if (env.BERTH_CONFIG) return env.BERTH_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), ".config");
  return path.join(base, "berth", "config.yaml");
}

export function readConfig(file: string): CliConfig {
  if (!existsSync(file)) return { contexts: [] };
  const parsed = configSchema.safeParse(parse(readFileSync(file, "utf8")) ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliConfigError(`${file}: ${issue.path.join(".") || "the file"}: ${issue.message}. Fix it, or remove it and log in again.`);
  }
  return parsed.data;
}

/** Written whole, then moved into place, readable by its owner only. */
export function writeConfig(file: string, config: CliConfig): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, stringify(configSchema.parse(config)), { mode: 0o600 });
  chmodSync(next, 0o600);
  renameSync(next, file);
}

export function currentContext(config: CliConfig): CliContext | null {
  return config.contexts.find((context) => context.name === config["current-context"]) ?? null;
}

/** The config with `context` added, or replacing the one of its name, and made current. */
export function withContext(config: CliConfig, context: CliContext): CliConfig {
  return { "current-context": context.name, contexts: [...config.contexts.filter((one) => one.name !== context.name), contextSchema.parse(context)] };
}

/** A context's name made from its server, as kubectl names contexts after clusters: localhost-3000. */
export function contextNameFor(server: string): string {
  const url = new URL(server);
  return [url.hostname, url.port].filter(Boolean).join("-");
}
