import { readFileSync } from "node:fs";
import { Option, type Command } from "commander";
import { createBerthClient } from "../../client/berth-client.ts";
import type { WhoAmI } from "../../domain/who-am-i.ts";
import { BERTH_TOKEN_PREFIX } from "../../domain/cli-sign-in.ts";
import { configPath, contextNameFor, type CliContext, readConfig, withContext, writeConfig } from "../cli-config.ts";
import { NotFoundError, UsageError } from "../cli-errors.ts";
import type { Io } from "../io.ts";
import { serialized, table } from "../printers.ts";
import { openSession, USER_AGENT, type GlobalOptions } from "../session.ts";
import { signInThroughBrowser } from "../browser-sign-in.ts";
import { signInWithDeviceCode } from "../device-sign-in.ts";

// Signing in and out, who you are, and which Berth you talk to (contexts).

interface LoginOptions extends GlobalOptions {
  contextName?: string;
  /** Commander's negation of --no-browser. */
  browser: boolean;
  device?: boolean;
}

/** `--token -` reads the token from standard input, so it stays out of the shell's history. */
function tokenFrom(option: string): string {
  const token = option === "-" ? readFileSync(0, "utf8").trim() : option.trim();
  if (token === "") throw new UsageError("the token is empty");
  return token;
}

/** What a context signs in with, without showing it. */
function credentialOf(context: CliContext): string {
  if (!context.token) return "<none>";
  return context.token.startsWith(BERTH_TOKEN_PREFIX) ? "berth-login" : "token";
}

/** A Kubernetes token, checked by asking Berth who it belongs to. */
async function checkedToken(server: string, token: string): Promise<{ token: string; you: WhoAmI }> {
  return { token, you: await createBerthClient({ server, token, headers: USER_AGENT }).whoAmI({}) };
}

function describeWhoAmI(you: WhoAmI): string {
  const lines = [
    `Name:            ${you.person.username}`,
    `Groups:          ${you.person.groups.join(", ") || "<none>"}`,
    `Signed in with:  ${you.signedInWith}`,
    `Role:            ${you.role ?? "<none>"}`,
    `Cluster:         ${you.cluster.join(", ") || "<nothing cluster-wide>"}`,
  ];
  const namespaces = you.namespaces.filter((entry) => entry.may.length > 0);
  const rows = namespaces.map((entry) => [entry.namespace, entry.may.join(", ")]);
  return `${lines.join("\n")}\nNamespaces:\n${rows.length > 0 ? table(["  NAMESPACE", "MAY"], rows.map(([namespace, may]) => [`  ${namespace}`, may!])) : "  <none>"}\n`;
}

export function registerAuth(program: Command, io: Io): void {
  program
    .command("login")
    .description("Sign in to a Berth — through its OpenID provider in your browser, with a code entered in a browser anywhere (--device), or with --token TOKEN (a Kubernetes bearer token) — and make it the current context")
    .option("--context-name <name>", "what to call the context (default: the server's host and port)")
    .option("--no-browser", "print the sign-in address instead of opening a browser (it must still be opened on this machine)")
    .option("--device", "sign in with a code entered in a browser on any device (the OAuth device flow), for a terminal with no browser on its machine")
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<LoginOptions>();
      const server = options.server ?? process.env.BERTH_SERVER;
      if (!server) throw new UsageError("berth login needs --server URL (or BERTH_SERVER): the Berth to sign in to");
      if (options.device && options.token !== undefined) throw new UsageError("--device and --token are two ways to sign in: give one of them");
      const client = createBerthClient({ server, headers: USER_AGENT });
      const { token, you } =
        options.token !== undefined
          ? await checkedToken(server, tokenFrom(options.token))
          : options.device
            ? await signInWithDeviceCode({ client, io })
            : await signInThroughBrowser({ client, io, openBrowser: options.browser });
      const file = configPath();
      const name = options.contextName ?? contextNameFor(server);
      writeConfig(file, withContext(readConfig(file), { name, server, token, ...(options.namespace ? { namespace: options.namespace } : {}) }));
      io.out(`Logged in to ${server} as ${you.person.username}; the current context is now ${name}.\n`);
    });

  program
    .command("logout")
    .description("Forget the current context's token (the context stays, to log in again)")
    .action((_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const file = configPath();
      const config = readConfig(file);
      const name = options.context ?? config["current-context"];
      const context = config.contexts.find((one) => one.name === name);
      if (!context) throw new NotFoundError("there is no current context to log out of");
      const { token: _forgotten, ...rest } = context;
      writeConfig(file, { ...config, contexts: config.contexts.map((one) => (one.name === context.name ? rest : one)) });
      io.out(`Logged out of ${context.server} (context ${context.name}).\n`);
    });

  program
    .command("whoami")
    .description("Who Berth takes you for, and what Kubernetes lets you do through it")
    .addOption(new Option("-o, --output <format>", "output format").choices(["text", "json", "yaml"]).default("text"))
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions & { output: "text" | "json" | "yaml" }>();
      const you = await openSession(options).client.whoAmI({});
      io.out(options.output === "text" ? describeWhoAmI(you) : serialized(you, options.output));
    });

  const config = program.command("config").description("Contexts: which Berth, as whom, in which namespace");
  config
    .command("get-contexts")
    .description("List the contexts")
    .action(() => {
      const current = readConfig(configPath());
      const rows = current.contexts.map((one) => [one.name === current["current-context"] ? "*" : "", one.name, one.server, one.namespace ?? "", credentialOf(one)]);
      io.out(`${table(["CURRENT", "NAME", "SERVER", "NAMESPACE", "CREDENTIAL"], rows)}\n`);
    });
  config
    .command("current-context")
    .description("Print the current context's name")
    .action(() => {
      const current = readConfig(configPath())["current-context"];
      if (!current) throw new NotFoundError("no current context: `berth login` makes one");
      io.out(`${current}\n`);
    });
  config
    .command("use-context")
    .description("Make a context the current one")
    .argument("<name>")
    .action((name: string) => {
      const file = configPath();
      const current = readConfig(file);
      if (!current.contexts.some((one) => one.name === name)) throw new NotFoundError(`there is no context ${name}: \`berth config get-contexts\` lists them`);
      writeConfig(file, { ...current, "current-context": name });
      io.out(`Switched to context "${name}".\n`);
    });
}
