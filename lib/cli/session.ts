import { createBerthClient, type BerthClient } from "../client/berth-client.ts";
import { BERTH_TOKEN_PREFIX, RENEWED_TOKEN_HEADER } from "../domain/cli-sign-in.ts";
import { configPath, currentContext, readConfig, writeConfig, type CliConfig, type CliContext, type Environment } from "./cli-config.ts";

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

export const USER_AGENT = { "User-Agent": "berth-cli" };

/**
 * A Berth token's provider tokens expire; Berth refreshes them and hands back a new Berth token
 * in a header. Every later request of this command sends the new one (a long `get -w` or `top`
 * goes on as the same sign-in), and `keep` stores it for the next command.
 */
function renewingToken(first: string, keep: ((token: string) => void) | null): typeof fetch {
  let current = first;
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${current}`);
    const response = await fetch(input, { ...init, headers });
    const renewed = response.headers.get(RENEWED_TOKEN_HEADER);
    if (renewed && renewed !== current) {
      current = renewed;
      keep?.(renewed);
    }
    return response;
  };
}

function keptInContext(configFile: string, contextName: string): (token: string) => void {
  return (token) => {
    const config = readConfig(configFile);
    writeConfig(configFile, { ...config, contexts: config.contexts.map((one) => (one.name === contextName ? { ...one, token } : one)) });
  };
}

export function openSession(options: GlobalOptions, env: Environment = process.env): Session {
  const configFile = configPath(env);
  const config = readConfig(configFile);
  const context = contextNamed(config, options.context);
  const server = options.server ?? env.BERTH_SERVER ?? context?.server;
  if (!server) {
    throw new NoServerError("No Berth to talk to: pass --server URL, set BERTH_SERVER, or sign in once with `berth login --server URL`.");
  }
  const sameServer = context !== null && context.server.replace(/\/+$/, "") === server.replace(/\/+$/, "");
  const token = options.token ?? env.BERTH_TOKEN ?? (sameServer ? context.token : undefined);
  const fromContext = token !== undefined && options.token === undefined && env.BERTH_TOKEN === undefined;
  const renewing = token !== undefined && token.startsWith(BERTH_TOKEN_PREFIX) ? { fetch: renewingToken(token, fromContext ? keptInContext(configFile, context!.name) : null) } : {};
  const client = createBerthClient({ server, ...(token ? { token } : {}), headers: USER_AGENT, ...renewing });
  return { server, token, namespace: options.namespace ?? (sameServer ? context.namespace : undefined), client, configFile, config };
}
