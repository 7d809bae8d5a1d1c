import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

/**
 * How this process is named among Berth's replicas, as the store's operations in flight name
 * who runs each. The host name is the pod's name in Kubernetes; the suffix is this start's
 * own, because a restarted container keeps its name (and its pid, 1) and must not be taken for
 * its previous life.
 */
export function replicaName(): string {
  return `${hostname()}/${randomBytes(3).toString("hex")}`;
}
