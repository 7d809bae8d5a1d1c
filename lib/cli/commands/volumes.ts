import type { Command } from "commander";
import type { Io } from "../io.ts";
import { openSession, type GlobalOptions } from "../session.ts";
import { UsageError } from "../cli-errors.ts";

// berth volumes delete|expand NAME -n NAMESPACE: the claims Berth knows, as the Volumes page
// offers them. Listing them is `berth get volumes`.

function namespaceOf(options: GlobalOptions, fallback: string | undefined): string {
  const namespace = options.namespace ?? fallback;
  if (!namespace) throw new UsageError("say the claim's namespace with -n NAMESPACE");
  return namespace;
}

export function registerVolumes(program: Command, io: Io): void {
  const volumes = program.command("volumes").description("Delete or grow the claims Berth knows (list them with berth get volumes)");
  volumes
    .command("delete")
    .description("Delete a claim no sandbox mounts: a retained workspace, an orphan")
    .argument("<name>", "the claim")
    .action(async (name: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const session = openSession(options);
      const namespace = namespaceOf(options, session.namespace);
      await session.client.deleteVolume({ params: { namespace, name } });
      io.out(`volume/${name} deleted from ${namespace}\n`);
    });
  volumes
    .command("expand")
    .description("Grow a claim whose StorageClass allows expansion")
    .argument("<name>", "the claim")
    .requiredOption("--size <quantity>", "the new size, larger than the current one, e.g. 10Gi")
    .action(async (name: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions & { size: string }>();
      const session = openSession(options);
      const namespace = namespaceOf(options, session.namespace);
      const { from, to } = await session.client.expandVolume({ params: { namespace, name }, body: { size: options.size } });
      io.out(`volume/${name} in ${namespace}: expansion from ${from ?? "its current size"} to ${to} requested\n`);
    });
}
