import { STATE_MARKER_PATH, stateMarkerSchema, type MarkerReading, type StateMarker } from "../domain/durable-state.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { execInPod } from "../kube/pod-exec.ts";
import { shellWord } from "../domain/shell-words.ts";

// The marker file in a sandbox's workspace, written and read through exec in the agent
// container (so it is the workspace as the agent sees it).

const EXEC_TIMEOUT_SECONDS = 10;

export interface MarkerTarget {
  namespace: string;
  pod: string;
  container: string;
  /** Where the workspace is mounted, e.g. /sandbox. */
  mountPath: string;
}

const markerFile = (mountPath: string) => `${mountPath.replace(/\/$/, "")}/${STATE_MARKER_PATH}`;

/** The script that writes the marker; every piece of it a single shell word, whatever the mount path. */
export function writeMarkerScript(mountPath: string, marker: StateMarker): string {
  const file = markerFile(mountPath);
  const directory = file.slice(0, file.lastIndexOf("/"));
  return `mkdir -p ${shellWord(directory)} && printf '%s\\n' ${shellWord(JSON.stringify(marker))} > ${shellWord(file)} && sync`;
}

/** The script that prints the marker, or exits 3 when there is none. */
export function readMarkerScript(mountPath: string): string {
  const file = shellWord(markerFile(mountPath));
  return `test -f ${file} && cat ${file} || exit 3`;
}

export async function writeStateMarker(connection: ClusterConnection, target: MarkerTarget, marker: StateMarker): Promise<void> {
  const result = await execInPod(connection, target, ["sh", "-c", writeMarkerScript(target.mountPath, marker)], EXEC_TIMEOUT_SECONDS);
  if (result.exitCode !== 0) throw new Error(`writing the state marker failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
}

export async function readStateMarker(connection: ClusterConnection, target: MarkerTarget): Promise<MarkerReading> {
  try {
    const result = await execInPod(connection, target, ["sh", "-c", readMarkerScript(target.mountPath)], EXEC_TIMEOUT_SECONDS);
    if (result.exitCode === 3) return { kind: "missing" };
    if (result.exitCode !== 0) return { kind: "unreadable", why: `exit ${result.exitCode}: ${result.stderr.trim()}` };
    const parsed = stateMarkerSchema.safeParse(JSON.parse(result.stdout));
    return parsed.success ? { kind: "found", marker: parsed.data } : { kind: "unreadable", why: "the marker file is not one Berth wrote" };
  } catch (error) {
    return { kind: "unreadable", why: (error as Error).message };
  }
}
