import { CoreV1Api, type V1Service } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulatedCluster, type SimCluster } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { connectToEmbeddedCluster, type ClusterConnection } from "./cluster-connection.ts";
import { NamespacedWatchCache, WatchedNamespaces, type NamespaceScope } from "./namespaced-watch-cache.ts";
import { collectionPath } from "./watch-cache.ts";
import type { CacheChange } from "./watch-reducer.ts";

// A cache limited to some namespaces, against the embedded cluster: what it holds, and what it
// hears when a namespace joins or leaves the set.

let sim: SimCluster;
let connection: ClusterConnection;
let core: CoreV1Api;
const stoppers: (() => void)[] = [];

beforeAll(async () => {
  sim = await startSimulatedCluster({ clockScale: 50 });
  connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
  core = connection.kubeConfig.makeApiClient(CoreV1Api);
});
afterEach(() => {
  for (const stop of stoppers.splice(0)) stop();
});
afterAll(() => sim.stop());

let counter = 0;
const unique = (what: string) => `${what}-${++counter}`;

async function aNamespace(labels: Record<string, string> = {}): Promise<string> {
  const name = unique("tenant");
  await core.createNamespace({ body: { metadata: { name, labels } } });
  return name;
}

async function aService(namespace: string): Promise<string> {
  const name = unique("svc");
  await core.createNamespacedService({ namespace, body: { metadata: { name }, spec: { ports: [{ port: 80 }] } } });
  return name;
}

async function startedCache(scope: Exclude<NamespaceScope, { kind: "all" }>) {
  const namespaces = new WatchedNamespaces(connection, scope);
  const cache = new NamespacedWatchCache<V1Service>(connection, { apiVersion: "v1", kind: "Service", path: "/api/v1/services", backoff: { initialMs: 20, maxMs: 200 } }, namespaces);
  const changes: CacheChange<V1Service>[] = [];
  cache.subscribe((change) => changes.push(change));
  stoppers.push(() => cache.stop(), () => namespaces.stop());
  await cache.start();
  const held = () => cache.list().map((service) => `${service.metadata!.namespace}/${service.metadata!.name}`).sort();
  return { cache, changes, held };
}

describe("a cache limited to listed namespaces", () => {
  it("holds what those namespaces hold and nothing of the others", async () => {
    const [mine, theirs] = [await aNamespace(), await aNamespace()];
    const [before] = [await aService(mine), await aService(theirs)];
    const { held } = await startedCache({ kind: "listed", names: [mine] });
    const after = await aService(mine);
    await aService(theirs);
    await eventually(() => expect(held()).toEqual([`${mine}/${before}`, `${mine}/${after}`].sort()));
  });

  it("answers get only for its own namespaces", async () => {
    const [mine, theirs] = [await aNamespace(), await aNamespace()];
    const name = unique("same-name");
    for (const namespace of [mine, theirs]) await core.createNamespacedService({ namespace, body: { metadata: { name }, spec: { ports: [{ port: 80 }] } } });
    const { cache } = await startedCache({ kind: "listed", names: [mine] });
    expect([cache.get(mine, name)?.metadata?.namespace, cache.get(theirs, name)]).toEqual([mine, undefined]);
  });
});

describe("a cache limited to labelled namespaces", () => {
  const label = () => ({ [`scope-${counter}`]: "true" });

  it("starts following a namespace as soon as it is labelled", async () => {
    const labels = label();
    const { held } = await startedCache({ kind: "labelled", labelSelector: `${Object.keys(labels)[0]}=true` });
    const joining = await aNamespace();
    const waiting = await aService(joining);
    await core.patchNamespace({ name: joining, body: [{ op: "add", path: "/metadata/labels", value: labels }] });
    await eventually(() => expect(held()).toEqual([`${joining}/${waiting}`]));
  });

  it("forgets a namespace whose label is taken off, and tells its listeners", async () => {
    const labels = label();
    const leaving = await aNamespace(labels);
    const service = await aService(leaving);
    const { held, changes } = await startedCache({ kind: "labelled", labelSelector: `${Object.keys(labels)[0]}=true` });
    await core.patchNamespace({ name: leaving, body: [{ op: "replace", path: "/metadata/labels", value: {} }] });
    await eventually(() => expect(held()).toEqual([]));
    expect(changes.filter((change) => change.type === "DELETED").map((change) => change.object.metadata?.name)).toEqual([service]);
  });

  it("counts the lists and watches of every namespace it followed", async () => {
    const labels = label();
    await aNamespace(labels);
    await aNamespace(labels);
    const { cache } = await startedCache({ kind: "labelled", labelSelector: `${Object.keys(labels)[0]}=true` });
    expect(cache.stats.lists).toBe(2);
  });
});

describe("a namespace's collection path", () => {
  it.each([
    ["/api/v1/pods", "a", "/api/v1/namespaces/a/pods"],
    ["/apis/agents.x-k8s.io/v1beta1/sandboxes", "team-a", "/apis/agents.x-k8s.io/v1beta1/namespaces/team-a/sandboxes"],
    ["/api/v1/nodes", undefined, "/api/v1/nodes"],
  ])("%s in %s is %s", (path, namespace, expected) => {
    expect(collectionPath(path, namespace)).toBe(expected);
  });
});
