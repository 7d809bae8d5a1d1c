import type { Command } from "commander";
import { allPages } from "../../client/berth-client.ts";
import { UsageError } from "../cli-errors.ts";
import { describeSandbox } from "../describe-sandbox.ts";
import type { Io } from "../io.ts";
import { findSandbox } from "../listings.ts";
import { openSession, type GlobalOptions } from "../session.ts";

// berth describe sandbox NAME

export function registerDescribe(program: Command, io: Io): void {
  program
    .command("describe")
    .description("Everything about one sandbox: phase, conditions, identity, the last disruption and its recovery, claims, protection, checkpoints, recent events")
    .argument("<kind>", "sandbox")
    .argument("<name>")
    .action(async (kind: string, name: string, _options: unknown, command: Command) => {
      if (!["sandbox", "sandboxes", "sb"].includes(kind.toLowerCase())) throw new UsageError(`berth describes sandboxes; got "${kind}"`);
      const session = openSession(command.optsWithGlobals<GlobalOptions>());
      const sandbox = await findSandbox(session, name, session.namespace);
      const params = { id: sandbox.id };
      const [volumes, checkpoints, timeline] = await Promise.all([
        allPages((cursor) => session.client.listVolumes({ query: { limit: 500, namespace: sandbox.namespace, ...(cursor ? { cursor } : {}) } })),
        session.client.listCheckpoints({ params }),
        allPages((cursor) => session.client.sandboxTimeline({ params, query: cursor ? { cursor } : {} })),
      ]);
      const claims = volumes.filter((volume) => volume.sandbox?.id === sandbox.id);
      io.out(describeSandbox({ sandbox, claims, checkpoints: checkpoints.items, timeline, now: new Date() }));
    });
}
