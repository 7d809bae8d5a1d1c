import type { Command } from "commander";
import { render } from "ink";
import { createElement } from "react";
import { UsageError } from "../cli-errors.ts";
import type { Io } from "../io.ts";
import { openSession, type GlobalOptions } from "../session.ts";
import { TopView } from "../top/top-view.tsx";

// berth top [-n NS | -A]

export function registerTop(program: Command, io: Io): void {
  program
    .command("top")
    .description("A live full-screen view of the sandboxes: phase, node, protection, last disruption; Enter for one's conditions and timeline, keys to act")
    .option("-A, --all-namespaces", "every namespace you may see")
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions & { allNamespaces?: boolean }>();
      if (!io.interactive || !process.stdin.isTTY) throw new UsageError("berth top needs a terminal; in a script, use berth get sandboxes -w");
      const session = openSession(options);
      const namespace = options.allNamespaces ? undefined : session.namespace;
      const app = render(createElement(TopView, { session, namespace }), { exitOnCtrlC: true });
      await app.waitUntilExit();
    });
}
