import { CoreV1Api } from "@kubernetes/client-node";
import { kubeletSummarySchema, type KubeletSummary } from "../domain/volume-usage.ts";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube } from "./kube-errors.ts";

// The kubelet's Summary API of one node, through the API server's node proxy
// (`GET /api/v1/nodes/{node}/proxy/stats/summary`), which needs `get` on `nodes/proxy`: a grant
// that reaches every kubelet endpoint, so Berth asks for it only where the chart is told to.

export class KubeletSummaryError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "KubeletSummaryError";
  }
}

export async function readKubeletSummary(connection: ClusterConnection, nodeName: string): Promise<KubeletSummary> {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  const answer: unknown = await kube(() => core.connectGetNodeProxyWithPath({ name: nodeName, path: "stats/summary" }));
  // client-node hands back the kubelet's JSON already parsed, or as text when it did not say it is JSON.
  let body = answer;
  if (typeof answer === "string") {
    try {
      body = JSON.parse(answer) as unknown;
    } catch (error) {
      throw new KubeletSummaryError(`the kubelet on ${nodeName} answered something other than JSON`, { cause: error });
    }
  }
  const parsed = kubeletSummarySchema.safeParse(body);
  if (!parsed.success) throw new KubeletSummaryError(`the kubelet on ${nodeName} answered a summary Berth cannot read: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}
