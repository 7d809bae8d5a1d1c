import { createBerthClient, type BerthClient } from "../client/berth-client.ts";
import { configPath, currentContext, readConfig, type CliConfig, type CliContext, type Environment } from "./cli-config.ts";

// Which Berth a command talks to, and as whom: the server from --server, else BERTH_SERVER, else
// the current context; the token from --token, else BERTH_TOKEN, else the context's — but a
// context's token only ever goes to that context's own server.

export interface GlobalOptions {
  server?: string;
  token?: string;
  context?: string;
  namespace?: string;
}

export class NoServerError extends Error {
  override name = "NoServerError";
}

export interface Session {
  server: string;
  token: string | undefined;
  /** The namespace a name means without -n: the context's, if it has one. */
  namespace: string | undefined;
  client: BerthClient;
  configFile: string;
  config: CliConfig;
}

function contextNamed(config: CliConfig, name: string | undefined): CliContext | null {
  if (name === undefined) return currentContext(config);
  const found = config.contexts.find((context) => context.name === name);
  if (!found) throw new NoServerError(`There is no context ${name}: \`berth config get-contexts\` lists them.`);
  return found;
}

export function openSession(options: GlobalOptions, env: Environment = process.env): Session {
  const configFile = configPath(env);
  const config = readConfig(configFile);
  const context = contextNamed(config, options.context);
  const server = options.server ?? env.BERTH_SERVER ?? context?.server;
  if (!server) {
    throw new NoServerError("No Berth to talk to: pass --server URL, set BERTH_SERVER, or sign in once with `berth login --server URL --token TOKEN`.");
  }
  const sameServer = context !== null && context.server.replace(/\/+$/, "") === server.replace(/\/+$/, "");
  const token = options.token ?? env.BERTH_TOKEN ?? (sameServer ? context.token : undefined);
  const client = createBerthClient({ server, ...(token ? { token } : {}), headers: { "User-Agent": "berth-cli" } });
  return { server, token, namespace: options.namespace ?? (sameServer ? context.namespace : undefined), client, configFile, config };
}
