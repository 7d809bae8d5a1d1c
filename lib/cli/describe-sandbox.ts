import type { Checkpoint } from "../domain/checkpoint.ts";
import { userLabelsOf } from "../domain/labels.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { TimelineEvent } from "../domain/timeline.ts";
import type { Volume } from "../domain/volume.ts";
import { claimFate } from "../domain/workspace.ts";
import { ageOf } from "../domain/human-duration.ts";
import { table } from "./printers.ts";
import { labelsText } from "./resource-kinds.ts";

// `berth describe sandbox`: everything a person asks about one sandbox, laid out as
// `kubectl describe` lays things out — fields, then sections, then the recent events. Pure.

export interface SandboxDescription {
  sandbox: SandboxRecord;
  claims: Volume[];
  checkpoints: Checkpoint[];
  /** Oldest first. */
  timeline: TimelineEvent[];
  now: Date;
}

const none = "<none>";
const RECENT_EVENTS = 20;

/** Label and value columns, the values lined up as kubectl lines them up. */
function fields(rows: [string, string][], indent = ""): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${indent}${`${label}:`.padEnd(width)}${value}\n`).join("");
}

function section(title: string, body: string): string {
  return `${title}:\n${body === "" ? "  <none>\n" : body}`;
}

function indented(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? line : `  ${line}`))
    .join("\n");
}

const when = (at: Date | string, now: Date) => `${new Date(at).toISOString()} (${ageOf(at, now)} ago)`;
const seconds = (ms: number | null) => (ms === null ? none : `${(ms / 1000).toFixed(1)}s`);

function identity({ nodeName, podName, podUid, previousNodeName, previousPodUid }: SandboxRecord): string {
  return fields(
    [
      ["Node", nodeName ?? none],
      ["Pod", podName ? `${podName} (uid ${podUid ?? "unknown"})` : none],
      ["Previous Node", previousNodeName ?? none],
      ["Previous Pod UID", previousPodUid ?? none],
    ],
    "  ",
  );
}

function disruption({ details }: SandboxRecord, now: Date): string {
  const { disruption: last, recovery } = details;
  if (!last) return "";
  const rows: [string, string][] = [
    ["Reason", last.reason],
    ["At", when(last.at, now)],
    ["Pod", `${last.podUid ?? "unknown"} on ${last.nodeName ?? "an unknown node"}`],
    ["Checkpoint Taken", last.checkpointTaken ? `yes${last.checkpointFinishedAt ? `, finished ${when(last.checkpointFinishedAt, now)}` : ""}` : "no"],
    ["Message", last.message],
  ];
  if (recovery) {
    rows.push(["Recovery", recovery.reason], ["Recovery Duration", recovery.recoveredAt ? seconds(recovery.durationMs) : `under way for ${ageOf(recovery.startedAt, now)}`]);
    if (recovery.replacementPodUid) rows.push(["Replacement", `${recovery.replacementPodUid} on ${recovery.replacementNodeName ?? "an unknown node"}`]);
    rows.push(["Recovery Message", recovery.message]);
  }
  return fields(rows, "  ");
}

function durableState({ details }: SandboxRecord): string {
  const state = details.durableState;
  if (!state) return "";
  return fields(
    [
      ["Verdict", state.verdict],
      ["Why", state.why],
      ["Checked In Pod", state.podUid],
      ["Never Survives", state.neverSurvives.join("; ")],
    ],
    "  ",
  );
}

function protection({ details }: SandboxRecord): string {
  const state = details.protection;
  if (!state) return "";
  return fields(
    [
      ["Wanted", state.wanted ? "yes" : "no"],
      ["Protected", state.protected ? `yes, by PodDisruptionBudget ${state.budgetName ?? ""}`.trim() : "no"],
      ["Refusing Evictions", state.refusingEvictions ? "yes" : "no"],
      ["Drain Blocked", state.drainBlocked ? "yes" : "no"],
      ...(state.message ? ([["Message", state.message]] as [string, string][]) : []),
    ],
    "  ",
  );
}

function rowsOrNothing(header: string[], rows: string[][]): string {
  return rows.length === 0 ? "" : `${indented(table(header, rows))}\n`;
}

export function describeSandbox({ sandbox, claims, checkpoints, timeline, now }: SandboxDescription): string {
  const profile = typeof sandbox.spec.profile === "string" ? sandbox.spec.profile : "generic";
  const recent = timeline.slice(-RECENT_EVENTS);
  return [
    fields([
      ["Name", sandbox.name],
      ["Namespace", sandbox.namespace],
      ["Labels", labelsText(userLabelsOf(sandbox.spec))],
      ["ID", sandbox.id],
      ["Phase", sandbox.phase],
      ["Reason", sandbox.reason ?? none],
      ["Message", sandbox.message ?? none],
      ["Profile", profile],
      ["Workspace", sandbox.workspaceBackend === "pvc" ? "pvc (a claim: survives pod replacement)" : "ephemeral (emptyDir: fresh at every pod start)"],
      ["Origin", sandbox.origin === "berth" ? "made through Berth" : "found in the cluster"],
      ["Created", when(sandbox.createdAt, now)],
    ]),
    section("Identity", identity(sandbox)),
    section(
      "Conditions",
      rowsOrNothing(
        ["TYPE", "STATUS", "REASON", "LAST TRANSITION", "MESSAGE"],
        sandbox.conditions.map((condition) => [condition.type, condition.status, condition.reason ?? "", ageOf(condition.lastTransitionTime, now), condition.message ?? ""]),
      ),
    ),
    section("Last Disruption", disruption(sandbox, now)),
    section("Durable State", durableState(sandbox)),
    section("Protection", protection(sandbox)),
    section(
      "Claims",
      rowsOrNothing(
        ["NAME", "OWNERSHIP", "STATUS", "CAPACITY", "STORAGECLASS", "ON DELETE"],
        claims.map((claim) => [claim.name, claim.ownership ?? none, claim.phase, claim.capacity ?? claim.requested ?? none, claim.storageClassName ?? none, claim.ownership ? claimFate(claim.ownership) : "kept"]),
      ),
    ),
    section(
      "Checkpoints",
      rowsOrNothing(
        ["STARTED", "TRIGGER", "RESULT", "DURATION", "STATE MARKER"],
        checkpoints.map((checkpoint) => [ageOf(checkpoint.startedAt, now), checkpoint.trigger, checkpoint.result, seconds(checkpoint.durationMs), checkpoint.markerWritten ? "written" : "not written"]),
      ),
    ),
    section(
      `Events${timeline.length > RECENT_EVENTS ? ` (the last ${RECENT_EVENTS} of ${timeline.length})` : ""}`,
      rowsOrNothing(
        ["AGE", "TYPE", "REASON", "MESSAGE"],
        recent.map((event) => [ageOf(event.occurredAt, now), event.type, event.reason, event.message]),
      ),
    ),
  ].join("");
}
