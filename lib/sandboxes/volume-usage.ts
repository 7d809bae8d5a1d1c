import { KubeApiError } from "../kube/kube-errors.ts";
import type { Volume } from "../domain/volume.ts";
import { claimUsagesIn, unknownUsage, type ClaimUsage, type KubeletSummary } from "../domain/volume-usage.ts";

// How full the mounted claims are, from the kubelets' Summary API: asked per node, never per
// request. A node's answer (or its failure) is kept for `maxAgeMs`; a page of claims on three
// nodes costs at most three requests, shared by everyone asking at the same time, and none while
// the answers are fresh. A slow kubelet holds a page back for at most `waitMs`: the page then
// shows its last figures, or says they are still coming.

export interface VolumeUsageOptions {
  /** One node's summary, as Berth's own identity. */
  readSummary: (nodeName: string) => Promise<KubeletSummary>;
  /** How long a node's answer counts as current; the kubelet itself refreshes volume stats about once a minute. */
  maxAgeMs?: number;
  /** How long a request waits for a node that has not answered. */
  waitMs?: number;
  now?: () => Date;
}

interface NodeAnswer {
  at: number;
  usages: Map<string, ClaimUsage>;
  /** Why this node's figures are not known, when it failed. */
  failure: string | null;
}

interface NodeSample {
  answer?: NodeAnswer;
  pending?: Promise<NodeAnswer>;
}

export const NO_PERMISSION =
  "Berth may not read the kubelets' volume stats: its service account needs get on nodes/proxy (the chart's rbac.readVolumeUsage)";

function failureOf(nodeName: string, error: unknown): string {
  if (error instanceof KubeApiError && error.code === 403) return NO_PERMISSION;
  return `the kubelet on ${nodeName} did not answer: ${(error as Error)?.message ?? String(error)}`;
}

export class VolumeUsageSampler {
  private readonly nodes = new Map<string, NodeSample>();

  constructor(private readonly options: VolumeUsageOptions) {}

  private now(): number {
    return (this.options.now?.() ?? new Date()).getTime();
  }

  /** The volumes with the figures of those a pod mounts; the others as they came. */
  async withUsage(volumes: Volume[]): Promise<Volume[]> {
    this.forgetIdleNodes();
    const nodeNames = new Set(volumes.flatMap((volume) => (volume.attachedTo?.nodeName ? [volume.attachedTo.nodeName] : [])));
    const answers = new Map(await Promise.all([...nodeNames].map(async (nodeName) => [nodeName, await this.answerOf(nodeName)] as const)));
    return volumes.map((volume) => {
      const nodeName = volume.attachedTo?.nodeName;
      if (!nodeName) return volume;
      const answer = answers.get(nodeName);
      if (!answer) return { ...volume, ...unknownUsage(`the kubelet on ${nodeName} has not answered yet`) };
      if (answer.failure) return { ...volume, ...unknownUsage(answer.failure) };
      const usage = answer.usages.get(`${volume.namespace}/${volume.name}`);
      return { ...volume, ...(usage ?? unknownUsage(`the kubelet on ${nodeName} does not report it yet`)) };
    });
  }

  /** The node's current answer: the cached one while fresh, else a new one (shared) within the wait. */
  private async answerOf(nodeName: string): Promise<NodeAnswer | undefined> {
    const sample = this.nodes.get(nodeName) ?? {};
    this.nodes.set(nodeName, sample);
    const maxAgeMs = this.options.maxAgeMs ?? 30_000;
    if (sample.answer && this.now() - sample.answer.at < maxAgeMs) return sample.answer;
    sample.pending ??= this.ask(nodeName).then((answer) => {
      sample.answer = answer;
      sample.pending = undefined;
      return answer;
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.options.waitMs ?? 2_000);
    });
    try {
      return (await Promise.race([sample.pending, waited])) ?? sample.answer;
    } finally {
      clearTimeout(timer);
    }
  }

  private async ask(nodeName: string): Promise<NodeAnswer> {
    const at = this.now();
    try {
      const summary = await this.options.readSummary(nodeName);
      return { at, usages: claimUsagesIn(summary, new Date(at).toISOString()), failure: null };
    } catch (error) {
      return { at, usages: new Map(), failure: failureOf(nodeName, error) };
    }
  }

  /** Forgets nodes nobody asked about for a while (drained and removed ones), so the cache does not outgrow the cluster. */
  private forgetIdleNodes(): void {
    const horizon = this.now() - 10 * (this.options.maxAgeMs ?? 30_000);
    for (const [name, sample] of this.nodes) if (!sample.pending && sample.answer && sample.answer.at < horizon) this.nodes.delete(name);
  }
}
