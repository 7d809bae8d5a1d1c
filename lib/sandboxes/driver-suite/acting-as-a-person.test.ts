import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessAttributes } from "../../domain/access.ts";
import { BERTH_ROLES } from "../../domain/berth-roles.ts";
import type { Person } from "../../domain/person.ts";
import { anActor } from "../../domain/test-fixtures.ts";
import { accessObjects, group } from "../../kube/access-objects.ts";
import { reviewAccess, reviewToken } from "../../kube/access-reviews.ts";
import { connectionFor } from "../../kube/acting-as.ts";
import { listNamespaceNames } from "../../kube/namespace-resources.ts";
import { sandboxResources } from "../../kube/sandbox-resources.ts";
import { createSandbox } from "../create-sandbox.ts";
import { startSuiteWorld, type SuiteWorld } from "./suite-world.ts";

// Driver suite: Kubernetes, not Berth, decides what a person may do. Berth's writes for a person
// carry their name and groups (impersonation) and are refused in the API server's own words; its
// access reviews and token reviews answer as the person's bindings say. Runs on the embedded
// cluster in `npm test` and on a real control plane in `npm run test:cluster` (there also as the
// chart's service account, which must be allowed to impersonate and to ask).

let world: SuiteWorld;
let developer: Person;
let stranger: Person;

const DEVELOPER_ROLE = BERTH_ROLES.find((role) => role.name === "berth-developer")!;
const createSandboxes = (namespace: string): AccessAttributes => ({ resource: { verb: "create", group: "agents.x-k8s.io", resource: "sandboxes", namespace } });

/** The lifecycle's create, with its Kubernetes calls made as `person`. */
function createAs(person: Person, name: string) {
  const asPerson = connectionFor(world.cluster.connection, { kind: "impersonate", person });
  const deps = { ...world.deps, resources: sandboxResources(asPerson, world.deps.sandboxApiVersion) };
  return createSandbox(deps, { name, workspace: { backend: "ephemeral" } }, anActor(person.username));
}

beforeAll(async () => {
  world = await startSuiteWorld();
  developer = { username: world.named("dana"), groups: [world.named("team")] };
  stranger = { username: world.named("sam"), groups: [world.named("others")] };
  // As a platform team would: the shipped role, bound to the team's group in one namespace.
  const operator = accessObjects(world.cluster.operatorConnection);
  await operator.ensureClusterRole(DEVELOPER_ROLE.name, DEVELOPER_ROLE.rules);
  await operator.ensureRoleBinding("default", world.named("team-developers"), DEVELOPER_ROLE.name, [group(developer.groups[0]!)]);
}, 120_000);
afterAll(async () => {
  await world?.stop();
});

describe("a person's writes, made as the person", () => {
  it("are refused when no binding allows them, in the API server's words", async () => {
    const refusal = await createAs(stranger, world.named("refused")).catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      name: "KubeApiError",
      code: 403,
      message: expect.stringContaining(`User "${stranger.username}" cannot create resource "sandboxes" in API group "agents.x-k8s.io" in the namespace "default"`),
    });
  });

  it("leave nothing behind when refused", async () => {
    await createAs(stranger, world.named("left")).catch(() => undefined);
    expect((await world.deps.store.sandboxes.listAllLive()).map((record) => record.name)).not.toContain(world.named("left"));
  });

  it("go through when the person's group is bound", async () => {
    const { record } = await createAs(developer, world.named("allowed"));
    expect(record.namespace).toBe("default");
  });
});

describe("asking Kubernetes about a person", () => {
  it("an access review allows what the binding grants, in its namespace", async () => {
    expect((await reviewAccess(world.cluster.connection, developer, createSandboxes("default"))).allowed).toBe(true);
  });

  it("an access review refuses the same in a namespace the person is not bound in", async () => {
    expect((await reviewAccess(world.cluster.connection, developer, createSandboxes("kube-system"))).allowed).toBe(false);
  });

  it("a token review names the service account a token belongs to", async () => {
    const operator = accessObjects(world.cluster.operatorConnection);
    const name = world.named("robot");
    await operator.ensureServiceAccount("default", name);
    const { token } = await operator.requestToken("default", name, 600);
    expect(await reviewToken(world.cluster.connection, token)).toMatchObject({ authenticated: true, person: { username: `system:serviceaccount:default:${name}` } });
  });

  it("the namespaces Berth may manage are listed as Berth", async () => {
    expect(await listNamespaceNames(world.cluster.connection)).toContain("default");
  });
});
