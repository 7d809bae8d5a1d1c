// Test support: a stand-in console process that opens the embedded store, starts one create
// against a cluster, and says how far it got. restart-mid-create.test.ts kills it half-way.
//
//   BERTH_TEST_DATA_DIR=… BERTH_TEST_SERVER=http://127.0.0.1:… BERTH_TEST_TOKEN=… BERTH_TEST_SPEC='{"name":…}' \
//     node --import tsx lib/sandboxes/testing/console-that-creates.ts
import { anActor } from "../../domain/test-fixtures.ts";
import { gatewayDefaultsSchema } from "../../domain/gateway-defaults.ts";
import { connectToEmbeddedCluster } from "../../kube/cluster-connection.ts";
import { sandboxResources } from "../../kube/sandbox-resources.ts";
import { openStore } from "../../store/index.ts";
import { createSandbox } from "../create-sandbox.ts";

const { BERTH_TEST_DATA_DIR: dataDir, BERTH_TEST_SERVER: server, BERTH_TEST_TOKEN: token, BERTH_TEST_SPEC: spec } = process.env;
if (!dataDir || !server || !token || !spec) throw new Error("set BERTH_TEST_DATA_DIR, BERTH_TEST_SERVER, BERTH_TEST_TOKEN and BERTH_TEST_SPEC");

const store = await openStore({ kind: "pglite", dataDir });
const connection = connectToEmbeddedCluster(server, token);
console.log("creating");
const { record } = await createSandbox(
  { store, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1", defaults: gatewayDefaultsSchema.parse({}) },
  JSON.parse(spec),
  anActor("console-that-creates"),
);
console.log(`created ${record.id}`);
await store.close();
