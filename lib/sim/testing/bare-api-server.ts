import { ApiServer, type PodSubresources } from "../api/api-server.ts";
import { ManualClock } from "../clock.ts";
import { ObjectStore } from "../store/object-store.ts";
import { accessForTests } from "./access-for-tests.ts";

// Test support: the simulated API machinery alone, listening — no controllers, no kubelet — so
// what is stored is exactly what was written. A default namespace, and an admin's token.

const noPodSubresources: PodSubresources = {
  evict: () => ({}),
  bind: () => ({}),
  log: () => "",
  exec: (_request, socket) => socket.destroy(),
};

export async function startBareApiServer(): Promise<{ server: ApiServer; url: string; adminToken: string }> {
  const clock = new ManualClock();
  const store = new ObjectStore(clock);
  store.create({ group: "", resource: "namespaces" }, { apiVersion: "v1", kind: "Namespace", metadata: { name: "default" } });
  const { access, adminToken } = accessForTests(store, clock);
  const server = new ApiServer({ store, access, pods: noPodSubresources, bookmarkIntervalMs: 50, now: () => clock.now() });
  return { server, url: await server.listen(), adminToken };
}
