import type { AccessAttributes, ResourceAttributes } from "../domain/access.ts";
import { personKey, type Person } from "../domain/person.ts";

// Kubernetes decides what a person may do; Berth asks it (SubjectAccessReview) and remembers the
// answer for a short while, so that a read served from Berth's caches stays fast while a change
// of RoleBindings takes effect within the TTL. A failed question is not remembered: the next
// request asks again.

export interface AccessDecision {
  allowed: boolean;
  reason: string;
}

export type AskKubernetes = (person: Person, attributes: AccessAttributes) => Promise<AccessDecision>;

export interface AccessDecisionsOptions {
  /** How long an answer is trusted; 30 s by default. */
  ttlMs?: number;
  /** At most this many answers are kept; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}

interface Remembered {
  decision: Promise<AccessDecision>;
  until: number;
}

export class AccessDecisions {
  private readonly remembered = new Map<string, Remembered>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Questions actually sent to Kubernetes, for the benchmark and for tests. */
  asked = 0;

  constructor(
    private readonly ask: AskKubernetes,
    options: AccessDecisionsOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 20_000;
    this.now = options.now ?? Date.now;
  }

  /** Kubernetes' answer to whether `person` may do this, remembered for the TTL. */
  decide(person: Person, attributes: AccessAttributes): Promise<AccessDecision> {
    const key = `${personKey(person)}\u0000${JSON.stringify(attributes)}`;
    const now = this.now();
    const known = this.remembered.get(key);
    if (known && known.until > now) return known.decision;
    if (known) this.remembered.delete(key);
    this.asked++;
    const decision = this.ask(person, attributes);
    // Concurrent requests share one question; a failure is forgotten at once.
    this.remember(key, { decision, until: now + this.ttlMs });
    decision.catch(() => {
      if (this.remembered.get(key)?.decision === decision) this.remembered.delete(key);
    });
    return decision;
  }

  async allows(person: Person, attributes: AccessAttributes): Promise<boolean> {
    return (await this.decide(person, attributes)).allowed;
  }

  /**
   * Of `namespaces`, those where `person` may do `attributes` — all of them when the person may
   * at the cluster scope, which one question settles for platform admins.
   */
  async namespacesAllowing(person: Person, attributes: Omit<ResourceAttributes, "namespace">, namespaces: Iterable<string>): Promise<Set<string>> {
    const wanted = [...new Set(namespaces)];
    if (wanted.length === 0) return new Set();
    if (await this.allows(person, { resource: attributes })) return new Set(wanted);
    const answers = await Promise.all(wanted.map(async (namespace) => [namespace, await this.allows(person, { resource: { ...attributes, namespace } })] as const));
    return new Set(answers.filter(([, allowed]) => allowed).map(([namespace]) => namespace));
  }

  /** Forgets every answer: after Berth's own RBAC changed, say. */
  clear(): void {
    this.remembered.clear();
  }

  private remember(key: string, entry: Remembered): void {
    if (this.remembered.size >= this.maxEntries) {
      const oldest = this.remembered.keys().next().value;
      if (oldest !== undefined) this.remembered.delete(oldest);
    }
    this.remembered.set(key, entry);
  }
}
