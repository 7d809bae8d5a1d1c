import { Option, type Command } from "commander";
import { stringify } from "yaml";
import type { DryRunResult } from "../../domain/dry-run.ts";
import { PROFILES } from "../../domain/profiles.ts";
import { CLAIM_OWNERSHIPS } from "../../domain/workspace.ts";
import { EXIT, UsageError } from "../cli-errors.ts";
import type { Io } from "../io.ts";
import { findSandbox } from "../listings.ts";
import { serialized } from "../printers.ts";
import { openSession, type GlobalOptions } from "../session.ts";
import { specFrom, type SpecFlags } from "../sandbox-spec-flags.ts";

// Making, removing and operating on sandboxes: create, delete, stop, start, recover, checkpoint
// and exec, each addressed by name (and -n) as kubectl addresses objects.

/** `create` and `delete` take the kind first, as kubectl does; Berth's CLI creates sandboxes only. */
function sandboxKind(kind: string): void {
  if (!["sandbox", "sandboxes", "sb"].includes(kind.toLowerCase())) throw new UsageError(`berth creates and deletes sandboxes only (volumes: berth volumes delete); got "${kind}"`);
}

/** The manifests a create would make, in the order it makes them, as one YAML stream. */
function manifestsAsYaml({ manifests }: DryRunResult): string {
  const objects = [...manifests.claims.flatMap((claim) => (claim.manifest ? [claim.manifest] : [])), ...(manifests.secret ? [manifests.secret] : []), manifests.sandbox, ...(manifests.podDisruptionBudget ? [manifests.podDisruptionBudget] : [])];
  return objects.map((object) => stringify(object, { lineWidth: 0 })).join("---\n");
}

export function registerSandboxCommands(program: Command, io: Io): void {
  program
    .command("create")
    .description("Create a sandbox (--dry-run -o yaml prints the exact manifests and creates nothing)")
    .argument("<kind>", "sandbox")
    .argument("[name]", "the sandbox's name (or the name in the file given with -f)")
    .option("-f, --filename <file>", "a sandbox spec in YAML or JSON (- for standard input); flags override it")
    .addOption(new Option("--profile <profile>", "the agent's image and command").choices(PROFILES))
    .option("--image <image>", "the container image (the custom profile needs one)")
    .addOption(new Option("--workspace <backend>", "pvc: a claim that survives pod replacement; ephemeral: an emptyDir").choices(["pvc", "ephemeral"]))
    .addOption(new Option("--ownership <mode>", "the workspace claim's ownership").choices(CLAIM_OWNERSHIPS))
    .option("--claim <name>", "the claim's name (required for --ownership existing)")
    .option("--storage-class <name>", 'the claim\'s StorageClass ("" for none; leave out for the cluster default)')
    .option("--size <quantity>", "the claim's size, e.g. 5Gi")
    .option("--protect", "protect it from voluntary evictions with a PodDisruptionBudget")
    .option("--env <NAME=VALUE...>", "environment variables")
    .option("-l, --label <KEY=VALUE...>", "labels to find it by (berth get sandboxes -l KEY=VALUE)")
    .option("--dry-run", "validate against the cluster and print what would be made; create nothing")
    .addOption(new Option("-o, --output <format>", "print the result as").choices(["yaml", "json", "name"]))
    .action(async (kind: string, name: string | undefined, _options: unknown, command: Command) => {
      sandboxKind(kind);
      const options = command.optsWithGlobals<GlobalOptions & SpecFlags & { dryRun?: boolean; output?: "yaml" | "json" | "name" }>();
      const session = openSession(options);
      const spec = specFrom(name, { ...options, namespace: options.namespace ?? session.namespace });
      if (options.dryRun) {
        const answer = await session.client.createSandbox({ query: { dryRun: "true" }, body: spec });
        if (!("dryRun" in answer)) throw new Error("the server created the sandbox in a dry run");
        if (options.output === "json") io.out(serialized(answer, "json"));
        else if (options.output === "name") io.out(`sandbox/${answer.manifests.sandbox.metadata.name} (dry run)\n`);
        else io.out(manifestsAsYaml(answer));
        return;
      }
      const created = await session.client.createSandbox({ body: spec });
      if ("dryRun" in created) throw new Error("the server answered a create with a dry run");
      if (options.output === "json" || options.output === "yaml") io.out(serialized(created, options.output));
      else io.out(options.output === "name" ? `sandbox/${created.name}\n` : `sandbox/${created.name} created in ${created.namespace}\n`);
    });

  program
    .command("delete")
    .description("Delete a sandbox; its claims are removed or kept by their ownership")
    .argument("<kind>", "sandbox")
    .argument("<name>")
    .action(async (kind: string, name: string, _options: unknown, command: Command) => {
      sandboxKind(kind);
      const options = command.optsWithGlobals<GlobalOptions>();
      const session = openSession(options);
      const sandbox = await findSandbox(session, name, session.namespace);
      const { removedClaims, keptClaims } = await session.client.deleteSandbox({ params: { id: sandbox.id } });
      io.out(`sandbox/${sandbox.name} deleted from ${sandbox.namespace}\n`);
      for (const claim of removedClaims) io.out(`  claim ${claim} removed\n`);
      for (const claim of keptClaims) io.out(`  claim ${claim} kept\n`);
    });

  const lifecycle = [
    ["stop", "Stop a sandbox: its pod goes, its workspace stays", "stopSandbox", "stopping"],
    ["start", "Start a stopped sandbox", "startSandbox", "starting"],
    ["recover", "Bring back a sandbox whose pod ended and was not replaced", "recoverSandbox", "recovering"],
  ] as const;
  for (const [verb, description, endpoint, doing] of lifecycle) {
    program
      .command(verb)
      .description(description)
      .argument("<name>", "the sandbox")
      .action(async (name: string, _options: unknown, command: Command) => {
        const session = openSession(command.optsWithGlobals<GlobalOptions>());
        const sandbox = await findSandbox(session, name, session.namespace);
        const answer = await session.client[endpoint]({ params: { id: sandbox.id } });
        io.out(`sandbox/${answer.name} ${doing} (${answer.phase})\n`);
      });
  }

  program
    .command("checkpoint")
    .description("Run a sandbox's checkpoint now: its hook, a flush, the state marker; exits 1 unless it succeeded")
    .argument("<name>", "the sandbox")
    .action(async (name: string, _options: unknown, command: Command) => {
      const session = openSession(command.optsWithGlobals<GlobalOptions>());
      const sandbox = await findSandbox(session, name, session.namespace);
      const checkpoint = await session.client.checkpointSandbox({ params: { id: sandbox.id } });
      const duration = checkpoint.durationMs === null ? "" : ` in ${(checkpoint.durationMs / 1000).toFixed(1)}s`;
      io.out(`checkpoint of sandbox/${sandbox.name}: ${checkpoint.result}${duration}; state marker ${checkpoint.markerWritten ? "written" : "not written"}\n`);
      if (checkpoint.hookOutputTail) io.out(`hook output:\n${checkpoint.hookOutputTail}\n`);
      if (checkpoint.result !== "Succeeded") process.exitCode = EXIT.failed;
    });

  program
    .command("exec")
    .description("Run a command in a sandbox; its output and exit code are passed through")
    .argument("<name>", "the sandbox")
    .argument("<command...>", "the command and its arguments, after --")
    .option("--timeout <seconds>", "how long the command may run (at most 600)", "30")
    .action(async (name: string, argv: string[], _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions & { timeout: string }>();
      const timeoutSeconds = Number(options.timeout);
      if (!Number.isInteger(timeoutSeconds)) throw new UsageError(`--timeout ${options.timeout}: give whole seconds`);
      const session = openSession(options);
      const sandbox = await findSandbox(session, name, session.namespace);
      const result = await session.client.execInSandbox({ params: { id: sandbox.id }, body: { command: argv, timeoutSeconds } });
      io.out(result.stdout);
      io.err(result.stderr);
      process.exitCode = result.exitCode;
    });
}
