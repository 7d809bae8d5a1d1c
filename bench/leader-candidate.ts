// A Berth replica reduced to its leader election, run as a process of its own by
// replicas.bench.ts so that it can be killed as a pod is: SIGKILL (no release) or SIGTERM (it
// releases the Lease, as Berth does when it stops). Prints "leading <term>" once it leads.
//
//   node --import tsx bench/leader-candidate.ts <server> <token> <namespace> <lease> <identity>
import { connectToEmbeddedCluster } from "../lib/kube/cluster-connection.ts";
import { LeaderElector } from "../lib/kube/leader-election.ts";

const [server, token, namespace, name, identity] = process.argv.slice(2) as [string, string, string, string, string];
const elector = new LeaderElector(connectToEmbeddedCluster(server, token), { namespace, name, identity });
elector.onChange(({ leading }) => {
  if (leading) console.log(`leading ${leading.term}`);
});
elector.start();
process.once("SIGTERM", () => void elector.stop().then(() => process.exit(0)));
setInterval(() => {}, 1 << 30);
