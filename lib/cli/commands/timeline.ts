import type { Command } from "commander";
import { allPages } from "../../client/berth-client.ts";
import { layoutTimeline } from "../../domain/timeline-lanes.ts";
import type { TimelineEvent } from "../../domain/timeline.ts";
import { dropNotice, startFollowing, untilInterrupted } from "../event-stream.ts";
import type { Io } from "../io.ts";
import { findSandbox } from "../listings.ts";
import { openSession, type GlobalOptions } from "../session.ts";
import { drawLanes, eventLines } from "../timeline-text.ts";

// berth timeline NAME [--follow]

export function registerTimeline(program: Command, io: Io): void {
  program
    .command("timeline")
    .description("A sandbox's history: its pods as lanes per node, its disruptions and recoveries, and every event")
    .argument("<name>", "the sandbox")
    .option("-f, --follow", "then print each new event as it happens")
    .option("--width <columns>", "how wide the lanes are drawn", "60")
    .action(async (name: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions & { follow?: boolean; width: string }>();
      const session = openSession(options);
      const sandbox = await findSandbox(session, name, session.namespace);
      const seen = new Set<string>();
      // Events that come while the history is read wait for it to be printed.
      let early: TimelineEvent[] | null = [];
      const print = (event: TimelineEvent) => {
        if (seen.has(event.id)) return;
        seen.add(event.id);
        io.out(eventLines([event], false));
      };
      // Opened before the history is read, so an event between the two is not lost; one in both is printed once.
      const following = options.follow
        ? await startFollowing(session.client, {
            sandbox: sandbox.id,
            signal: untilInterrupted(),
            onEvent: (event) => (early ? early.push(event) : print(event)),
            onReload: () => io.err("the server cannot replay that far back: run berth timeline again for the whole history\n"),
            onDrop: (from) => io.err(dropNotice(from)),
          })
        : null;
      const events = await allPages((cursor) => session.client.sandboxTimeline({ params: { id: sandbox.id }, query: cursor ? { cursor } : {} }));
      for (const event of events) seen.add(event.id);
      const width = Math.max(20, Number.parseInt(options.width, 10) || 60);
      io.out(`${drawLanes(layoutTimeline({ events, now: new Date(), durableState: sandbox.details.durableState ?? null }), width)}\n${eventLines(events)}`);
      for (const event of early) print(event);
      early = null;
      await following?.done;
    });
}
