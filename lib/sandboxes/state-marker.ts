import { STATE_MARKER_PATH, stateMarkerSchema, type MarkerReading, type StateMarker } from "../domain/durable-state.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { execInPod } from "../kube/pod-exec.ts";

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

const markerFile = (target: MarkerTarget) => `${target.mountPath.replace(/\/$/, "")}/${STATE_MARKER_PATH}`;

export async function writeStateMarker(connection: ClusterConnection, target: MarkerTarget, marker: StateMarker): Promise<void> {
  const file = markerFile(target);
  const directory = file.slice(0, file.lastIndexOf("/"));
  // JSON of ids and timestamps has no single quote in it, so it is safe inside one.
  const script = `mkdir -p ${directory} && echo '${JSON.stringify(marker)}' > ${file} && sync`;
  const result = await execInPod(connection, target, ["sh", "-c", script], EXEC_TIMEOUT_SECONDS);
  if (result.exitCode !== 0) throw new Error(`writing the state marker failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
}

export async function readStateMarker(connection: ClusterConnection, target: MarkerTarget): Promise<MarkerReading> {
  const file = markerFile(target);
  try {
    const result = await execInPod(connection, target, ["sh", "-c", `test -f ${file} && cat ${file} || exit 3`], EXEC_TIMEOUT_SECONDS);
    if (result.exitCode === 3) return { kind: "missing" };
    if (result.exitCode !== 0) return { kind: "unreadable", why: `exit ${result.exitCode}: ${result.stderr.trim()}` };
    const parsed = stateMarkerSchema.safeParse(JSON.parse(result.stdout));
    return parsed.success ? { kind: "found", marker: parsed.data } : { kind: "unreadable", why: "the marker file is not one Berth wrote" };
  } catch (error) {
    return { kind: "unreadable", why: (error as Error).message };
  }
}
