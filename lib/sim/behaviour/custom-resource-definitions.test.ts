import { ApiException, ApiextensionsV1Api, type V1CustomResourceDefinition } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// The definitions of the custom resources the embedded cluster serves, as a controller checking
// its CRDs are installed (or kubectl get crds) finds them; and the fixed set they make.

let sim: SimFixture;
let extensions: ApiextensionsV1Api;
beforeAll(async () => {
  sim = await startSimFixture();
  extensions = sim.config.makeApiClient(ApiextensionsV1Api);
});
afterAll(() => sim.cluster.stop());

const SANDBOXES = "sandboxes.agents.x-k8s.io";
const codeOf = (promise: Promise<unknown>) => promise.then(() => 200, (error: ApiException<unknown>) => error.code);

describe("the served custom resources' definitions", () => {
  it("lists one for every custom resource the cluster serves", async () => {
    const names = (await extensions.listCustomResourceDefinition()).items.map((definition) => definition.metadata!.name);
    expect(names).toEqual(expect.arrayContaining([SANDBOXES, "volumesnapshots.snapshot.storage.k8s.io", "volumesnapshotclasses.snapshot.storage.k8s.io", "maintenanceruns.berth.dev"]));
  });

  it("says the Sandbox definition is established, storing v1beta1", async () => {
    const { status } = await extensions.readCustomResourceDefinition({ name: SANDBOXES });
    expect([status?.conditions?.find((condition) => condition.type === "Established")?.status, status?.storedVersions]).toEqual(["True", ["v1beta1"]]);
  });

  it("holds the schema agent-sandbox publishes", async () => {
    const { spec } = await extensions.readCustomResourceDefinition({ name: SANDBOXES });
    const v1beta1 = spec.versions.find((version) => version.name === "v1beta1");
    expect(Object.keys(v1beta1?.schema?.openAPIV3Schema?.properties ?? {})).toEqual(expect.arrayContaining(["spec", "status"]));
  });

  it("refuses a definition of a resource it does not serve, saying which it serves", async () => {
    const widgets: V1CustomResourceDefinition = {
      metadata: { name: "widgets.example.com" },
      spec: { group: "example.com", scope: "Namespaced", names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" }, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }] },
    };
    const refused = await extensions.createCustomResourceDefinition({ body: widgets }).catch((error: ApiException<string>) => error);
    expect([(refused as ApiException<string>).code, String((refused as ApiException<string>).body)]).toEqual([422, expect.stringContaining("serves a fixed set of custom resources")]);
  });

  it("refuses to take a served definition away", async () => {
    expect(await codeOf(extensions.deleteCustomResourceDefinition({ name: SANDBOXES }))).toBe(403);
  });

  it("takes an update that leaves what it serves as it is", async () => {
    const current = await extensions.readCustomResourceDefinition({ name: SANDBOXES });
    current.metadata!.labels = { "example.com/checked": "true" };
    expect(await codeOf(extensions.replaceCustomResourceDefinition({ name: SANDBOXES, body: current }))).toBe(200);
  });

  it("refuses an update that would change the versions it serves", async () => {
    const current = await extensions.readCustomResourceDefinition({ name: SANDBOXES });
    current.spec.versions = current.spec.versions.filter((version) => version.name === "v1beta1");
    expect(await codeOf(extensions.replaceCustomResourceDefinition({ name: SANDBOXES, body: current }))).toBe(422);
  });
});

describe("a cluster that withholds a version, as agent-sandbox 1.0 no longer serves v1alpha1", () => {
  let oneOh: SimFixture;
  beforeAll(async () => {
    oneOh = await startSimFixture({ withdrawnVersions: ["agents.x-k8s.io/v1alpha1"] });
  });
  afterAll(() => oneOh.cluster.stop());

  it("answers 404 on the withheld version's paths", async () => {
    expect(await codeOf(oneOh.custom.listNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1alpha1", namespace: "default", plural: "sandboxes" }))).toBe(404);
  });

  it("still serves the other version", async () => {
    expect(await codeOf(oneOh.custom.listNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes" }))).toBe(200);
  });
});
