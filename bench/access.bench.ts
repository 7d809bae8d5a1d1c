import { startApiUnderTest } from "../app/api/testing/api-under-test.ts";
import type { Person } from "../lib/domain/person.ts";
import type { SandboxRecord } from "../lib/domain/sandbox-record.ts";
import { demoPersonIdentity } from "../lib/identity/demo-people.ts";
import { eventually } from "../lib/sim/testing/eventually.ts";
import { measure, median, type Measurement } from "./measure.ts";

// What authorization costs: a cached read through the whole API edge (sign-in, the access
// reviews from cache, the checks) against the same answer made without the edge; and how many
// questions (SubjectAccessReviews, each one Kubernetes request) a write adds, the first time a
// person asks to change a sandbox and again within the cache's 30 s.

const SANDBOXES = 40;
const READS = 400;
const WRITES = 10;

export interface AccessBenchResult {
  sandboxes: number;
  throughTheEdge: Measurement;
  withoutTheEdge: Measurement;
  /** SubjectAccessReviews per write, for a person not asked about before, and for one asked about already. */
  questionsPerWrite: { firstTime: number; cached: number };
}

const demo = demoPersonIdentity;


export async function benchAccess(): Promise<AccessBenchResult> {
  const api = await startApiUnderTest({ BERTH_SIM_CLOCK_SCALE: "50", BERTH_CREATES_PER_MINUTE: "100000", BERTH_WRITES_PER_MINUTE: "100000" });
  try {
    const { runtime } = api;
    await eventually(() => {
      if (!runtime.live.ready) throw new Error("not loaded yet");
    }, { timeoutMs: 60_000 });
    const paula = demo("paula");
    const ids: string[] = [];
    for (let i = 0; i < SANDBOXES; i++) {
      const answer = await api.call("createSandbox", paula, { body: { name: `bench-access-${i}`, namespace: "team-a", workspace: { backend: "ephemeral" } } });
      if (answer.status !== 201) throw new Error(`create answered ${answer.status}: ${answer.text}`);
      ids.push((answer.json as SandboxRecord).id);
    }

    // A developer's list of their team's sandboxes, once the access reviews are cached.
    const alex = demo("alex");
    const query = { namespace: "team-a", limit: "50" };
    await api.call("listSandboxes", alex, { query });
    const throughTheEdge = await measure(`GET /api/v1/sandboxes?namespace=team-a as a developer (${SANDBOXES} sandboxes)`, READS, () => api.call("listSandboxes", alex, { query }));
    const withoutTheEdge = await measure("the same page from memory, as its wire form, with no sign-in or access review", READS, () =>
      new Response(runtime.live.wirePage({ limit: 50, namespaces: new Set(["team-a"]) }).body).text(),
    );

    // A person of team-a no question was asked about yet stops a sandbox, then starts it again
    // (the same question: may they patch that Sandbox?).
    const decisions = runtime.identity.decisions;
    const questionsFor = async (id: "stopSandbox" | "startSandbox", person: Person, sandbox: string) => {
      const before = decisions.asked;
      const answer = await api.call(id, person, { params: { id: sandbox } });
      if (answer.status !== 202) throw new Error(`${id} answered ${answer.status}: ${answer.text}`);
      return decisions.asked - before;
    };
    const firstTime: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < WRITES; i++) {
      const newcomer: Person = { username: `newcomer-${i}@berth.example`, groups: ["team-a"] };
      firstTime.push(await questionsFor("stopSandbox", newcomer, ids[i]!));
      cached.push(await questionsFor("startSandbox", newcomer, ids[i]!));
    }
    return { sandboxes: SANDBOXES, throughTheEdge, withoutTheEdge, questionsPerWrite: { firstTime: median(firstTime), cached: median(cached) } };
  } finally {
    await api.stop();
  }
}
