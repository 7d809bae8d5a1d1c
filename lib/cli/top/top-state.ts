import type { SandboxRecord } from "../../domain/sandbox-record.ts";
import type { TimelineEvent } from "../../domain/timeline.ts";

// What `berth top` shows and how its keys move through it. Pure: the view draws this state, the
// command feeds it what the API and the event stream say.

export type StreamState = "connecting" | "live" | "reconnecting";

export interface TopState {
  /** In namespace, then name order: a row keeps its place as phases change. */
  sandboxes: SandboxRecord[];
  /** Only rows whose `namespace/name` holds this are shown (typed after `/`, as in less or k9s). */
  filter: string;
  /** The filter is being typed: letters go into it instead of acting. */
  typingFilter: boolean;
  /** By id, so the selection follows its sandbox as the list changes. */
  selectedId: string | null;
  view: "list" | "detail";
  /** The selected sandbox's timeline, read when its detail is open. */
  timeline: TimelineEvent[];
  stream: StreamState;
  /** What the last action did, or why it failed. */
  notice: string | null;
}

export const ACTIONS = { s: "stop", t: "start", r: "recover", c: "checkpoint" } as const;
export type TopAction = (typeof ACTIONS)[keyof typeof ACTIONS];

export type TopKey =
  | { kind: "move"; by: number }
  | { kind: "open" }
  | { kind: "back" }
  | { kind: "quit" }
  | { kind: "action"; action: TopAction }
  | { kind: "filter" }
  | { kind: "type"; text: string }
  | { kind: "erase" };

/** The keys ink reports besides the text typed. */
export interface KeyFlags {
  upArrow?: boolean;
  downArrow?: boolean;
  return?: boolean;
  escape?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
}

/** The key a person pressed, as `berth top` understands it in the state it is in; null for any other. */
export function keyOf(input: string, key: KeyFlags, typingFilter = false): TopKey | null {
  if (key.return) return { kind: "open" };
  if (key.escape) return { kind: "back" };
  if (typingFilter) {
    if (key.backspace || key.delete) return { kind: "erase" };
    return input && !key.ctrl && /^[\p{L}\p{N}._/-]+$/u.test(input) ? { kind: "type", text: input } : null;
  }
  if (key.upArrow) return { kind: "move", by: -1 };
  if (key.downArrow) return { kind: "move", by: 1 };
  // A key held down (or typed fast) can arrive as one chunk: "jjj" moves three rows.
  if (/^k+$/.test(input)) return { kind: "move", by: -input.length };
  if (/^j+$/.test(input)) return { kind: "move", by: input.length };
  if (key.pageUp) return { kind: "move", by: -10 };
  if (key.pageDown) return { kind: "move", by: 10 };
  if (input === "/") return { kind: "filter" };
  if (input === "q") return { kind: "quit" };
  const action = ACTIONS[input as keyof typeof ACTIONS];
  return action ? { kind: "action", action } : null;
}

export const initialState: TopState = { sandboxes: [], filter: "", typingFilter: false, selectedId: null, view: "list", timeline: [], stream: "connecting", notice: null };

const order = (a: SandboxRecord, b: SandboxRecord) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);

/** The rows the filter lets through, in order. */
export function visible(state: TopState): SandboxRecord[] {
  return state.filter ? state.sandboxes.filter((one) => `${one.namespace}/${one.name}`.includes(state.filter)) : state.sandboxes;
}

/**
 * The selection stays on its sandbox while it is shown, else it goes to the first row shown —
 * and an open sandbox that went closes, so no key acts on one nobody chose.
 */
function reselected(state: TopState): TopState {
  const rows = visible(state);
  const stays = rows.some((one) => one.id === state.selectedId);
  return { ...state, selectedId: stays ? state.selectedId : (rows[0]?.id ?? null), view: stays ? state.view : "list" };
}

/** A fresh list from the API. */
export function withSandboxes(state: TopState, sandboxes: SandboxRecord[]): TopState {
  return reselected({ ...state, sandboxes: [...sandboxes].sort(order) });
}

export function selected(state: TopState): SandboxRecord | null {
  return visible(state).find((one) => one.id === state.selectedId) ?? null;
}

export function moved(state: TopState, by: number): TopState {
  const rows = visible(state);
  if (rows.length === 0) return state;
  const at = Math.max(0, rows.findIndex((one) => one.id === state.selectedId));
  const next = Math.min(rows.length - 1, Math.max(0, at + by));
  return { ...state, selectedId: rows[next]!.id, timeline: state.view === "detail" ? [] : state.timeline };
}

/** What a key that only moves through the view does to it (quitting and actions are the view's). */
export function afterKey(state: TopState, key: Exclude<TopKey, { kind: "quit" | "action" }>): TopState {
  switch (key.kind) {
    case "move":
      return moved(state, key.by);
    case "filter":
      return { ...state, view: "list", typingFilter: true };
    case "type":
      return reselected({ ...state, filter: state.filter + key.text });
    case "erase":
      return reselected({ ...state, filter: state.filter.slice(0, -1) });
    case "open":
      if (state.typingFilter) return { ...state, typingFilter: false };
      return { ...state, view: selected(state) ? "detail" : "list", timeline: [] };
    case "back":
      // Escape closes what is open, innermost first: the filter being typed, a sandbox, the filter.
      if (state.typingFilter) return reselected({ ...state, typingFilter: false, filter: "" });
      if (state.view === "detail") return { ...state, view: "list" };
      return reselected({ ...state, filter: "" });
  }
}

/** Counts by phase, for the header: "3 Ready, 1 Disrupted". */
export function phaseCounts(sandboxes: readonly SandboxRecord[]): string {
  const counts = new Map<string, number>();
  for (const sandbox of sandboxes) counts.set(sandbox.phase, (counts.get(sandbox.phase) ?? 0) + 1);
  return [...counts].map(([phase, count]) => `${count} ${phase}`).join(", ");
}
