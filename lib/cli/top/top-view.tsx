import { Box, Text, useApp, useInput } from "ink";
import { useEffect, useReducer, useRef } from "react";
import { allPages } from "../../client/berth-client.ts";
import { ApiProblem } from "../../client/api-problem.ts";
import { layoutTimeline } from "../../domain/timeline-lanes.ts";
import { coalesced } from "../coalesced.ts";
import { startFollowing } from "../event-stream.ts";
import { printItems, table } from "../printers.ts";
import { SANDBOXES } from "../resource-kinds.ts";
import type { Session } from "../session.ts";
import { drawLanes } from "../timeline-text.ts";
import { ageOf } from "../../domain/human-duration.ts";
import { afterKey, initialState, keyOf, phaseCounts, selected, visible, withSandboxes, type TopAction, type TopState } from "./top-state.ts";

// `berth top`: a full-screen view of the sandboxes, kept live by the event stream like `get -w`;
// Enter opens one (conditions, the lanes of its timeline, recent events), letters act on it.

type Change = (state: TopState) => TopState;
const apply = (state: TopState, change: Change) => change(state);

const HELP = {
  list: "↑/↓ select · Enter details · / filter · s stop · t start · r recover · c checkpoint · q quit",
  detail: "Esc back · ↑/↓ previous/next sandbox · s stop · t start · r recover · c checkpoint · q quit",
  filter: "type part of a name · Enter keep the filter · Esc clear it",
};

/** The open sandbox's timeline, if one is open; an answer for a sandbox no longer open is dropped. */
async function readTimeline(session: Session, state: TopState, change: (change: Change) => void): Promise<void> {
  const open = selected(state);
  if (state.view !== "detail" || !open) return;
  try {
    const events = await allPages((cursor) => session.client.sandboxTimeline({ params: { id: open.id }, query: cursor ? { cursor } : {} }));
    change((current) => (current.view === "detail" && current.selectedId === open.id ? { ...current, timeline: events } : current));
  } catch (error) {
    change((current) => ({ ...current, notice: `Reading ${open.name}'s timeline failed: ${ApiProblem.from(error, "timeline").detail}` }));
  }
}

function Header({ session, namespace, state }: { session: Session; namespace: string | undefined; state: TopState }) {
  const stream = { connecting: "connecting…", live: "live", reconnecting: "reconnecting…" }[state.stream];
  return (
    <Box flexDirection="column">
      <Text bold>
        berth top — {session.server} — {namespace ?? "all namespaces"} — {state.sandboxes.length} sandboxes
        {state.sandboxes.length > 0 ? `: ${phaseCounts(state.sandboxes)}` : ""} — <Text color={state.stream === "live" ? "green" : "yellow"}>{stream}</Text>
      </Text>
      {state.typingFilter || state.filter ? (
        <Text>
          /{state.filter}
          {state.typingFilter ? "▏" : ` — ${visible(state).length} shown`}
        </Text>
      ) : null}
      {state.notice ? <Text color="cyan">{state.notice}</Text> : <Text> </Text>}
    </Box>
  );
}

function SandboxList({ state, rows }: { state: TopState; rows: number }) {
  const shown = visible(state);
  if (state.sandboxes.length === 0) return <Text dimColor>No sandboxes here yet.</Text>;
  if (shown.length === 0) return <Text dimColor>No sandbox name holds “{state.filter}”; Esc clears the filter.</Text>;
  const lines = printItems(SANDBOXES, shown, { format: "table", allNamespaces: true, now: new Date(), colour: false }).trimEnd().split("\n");
  const at = shown.findIndex((one) => one.id === state.selectedId);
  // The window of rows that fits, scrolled to keep the selection in it.
  const first = Math.max(0, Math.min(at - Math.floor(rows / 2), shown.length - rows));
  return (
    <Box flexDirection="column">
      <Text bold>{lines[0]}</Text>
      {shown.slice(first, first + rows).map((sandbox, index) => (
        <Text key={sandbox.id} inverse={sandbox.id === state.selectedId}>
          {lines[first + index + 1]}
        </Text>
      ))}
    </Box>
  );
}

function SandboxDetail({ state, width }: { state: TopState; width: number }) {
  const sandbox = selected(state);
  if (!sandbox) return null;
  const now = new Date();
  const conditions = table(["TYPE", "STATUS", "REASON", "AGE", "MESSAGE"], sandbox.conditions.map((one) => [one.type, one.status, one.reason ?? "", ageOf(one.lastTransitionTime, now), one.message ?? ""]));
  const lanes = drawLanes(layoutTimeline({ events: state.timeline, now, durableState: sandbox.details.durableState ?? null }), Math.max(20, width - 30));
  const recent = table(["AGE", "TYPE", "REASON", "MESSAGE"], state.timeline.slice(-10).map((event) => [ageOf(event.occurredAt, now), event.type, event.reason, event.message]));
  return (
    <Box flexDirection="column">
      <Text bold>
        {sandbox.namespace}/{sandbox.name} — {sandbox.phase}
        {sandbox.reason ? ` (${sandbox.reason})` : ""} on {sandbox.nodeName ?? "no node"}
      </Text>
      {sandbox.message ? <Text>{sandbox.message}</Text> : null}
      <Text> </Text>
      <Text>{conditions}</Text>
      <Text> </Text>
      <Text>{lanes.trimEnd()}</Text>
      <Text> </Text>
      <Text>{state.timeline.length > 0 ? recent : "No events yet."}</Text>
    </Box>
  );
}

export function TopView({ session, namespace }: { session: Session; namespace: string | undefined }) {
  const { exit } = useApp();
  const [state, change] = useReducer(apply, initialState);
  const latest = useRef(state);
  latest.current = state;

  useEffect(() => {
    const stop = new AbortController();
    const refresh = coalesced(
      async () => {
        const sandboxes = await allPages((cursor) => session.client.listSandboxes({ query: { limit: 500, ...(cursor ? { cursor } : {}), ...(namespace ? { namespace } : {}) } }));
        change((current) => withSandboxes(current, sandboxes));
        await readTimeline(session, latest.current, change);
      },
      (error) => change((current) => ({ ...current, notice: `Reading the sandboxes failed: ${error instanceof Error ? error.message : String(error)}` })),
    );
    void startFollowing(session.client, {
      signal: stop.signal,
      // Each time the stream opens — the first time, and after every drop.
      onOpen: () => change((current) => ({ ...current, stream: "live" })),
      onEvent: refresh.request,
      onReload: refresh.request,
      onDrop: () => {
        change((current) => ({ ...current, stream: "reconnecting" }));
        refresh.request();
      },
    })
      .then(({ done }) => {
        refresh.start();
        refresh.request();
        return done;
      })
      .catch((error: unknown) => change((current) => ({ ...current, notice: `The event stream was refused: ${error instanceof Error ? error.message : String(error)}` })));
    return () => stop.abort();
  }, [session, namespace]);

  // Opening a sandbox (or moving to another while open) reads its timeline.
  useEffect(() => {
    void readTimeline(session, latest.current, change);
  }, [session, state.view, state.selectedId]);

  const act = async (action: TopAction) => {
    const sandbox = selected(latest.current);
    if (!sandbox) return;
    change((current) => ({ ...current, notice: `${action} ${sandbox.namespace}/${sandbox.name}…` }));
    try {
      const params = { params: { id: sandbox.id } };
      const notice =
        action === "checkpoint"
          ? `Checkpoint of ${sandbox.name}: ${(await session.client.checkpointSandbox(params)).result}`
          : `${sandbox.name}: ${action} asked, now ${(await (action === "stop" ? session.client.stopSandbox(params) : action === "start" ? session.client.startSandbox(params) : session.client.recoverSandbox(params))).phase}`;
      change((current) => ({ ...current, notice }));
    } catch (error) {
      const problem = ApiProblem.from(error, `${action} failed`);
      change((current) => ({ ...current, notice: `${problem.title}: ${problem.detail}` }));
    }
  };

  useInput((input, key) => {
    const pressed = keyOf(input, key, latest.current.typingFilter);
    if (!pressed) return;
    if (pressed.kind === "quit") return exit();
    if (pressed.kind === "action") return void act(pressed.action);
    change((current) => afterKey(current, pressed));
  });

  const rows = Math.max(3, (process.stdout.rows || 24) - 5);
  return (
    <Box flexDirection="column">
      <Header session={session} namespace={namespace} state={state} />
      {state.view === "detail" ? <SandboxDetail state={state} width={process.stdout.columns || 80} /> : <SandboxList state={state} rows={rows} />}
      <Text dimColor>{HELP[state.typingFilter ? "filter" : state.view]}</Text>
    </Box>
  );
}
