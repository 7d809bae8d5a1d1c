import type { Metadata } from "next";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { PageHeader } from "@/app/components/page-header.tsx";
import type { SimulatorState } from "@/lib/domain/simulator.ts";
import { permissionOnCluster } from "../_components/permissions.ts";
import { requireViewer } from "../_components/page-caller.ts";
import { RefusedPage } from "../_components/refused-page.tsx";
import { simulatorOf } from "@/lib/server/simulator-route.ts";
import { simulatorState } from "@/lib/server/simulator-state.ts";
import { SimulatorBoard } from "./_components/simulator-board.tsx";

export const metadata: Metadata = { title: "Simulator" };

const DESCRIPTION = "Rehearse disruptions on the embedded simulated cluster: cordon, drain or lose a node, delete, evict or preempt a sandbox's pod — then follow the sandbox's timeline as it recovers.";

export default async function SimulatorPage() {
  const { runtime, you } = await requireViewer();
  const permission = permissionOnCluster(you, "useSimulator");
  if (!permission.allowed) {
    return (
      <RefusedPage header={<PageHeader title="Simulator" />} title="The simulator is for platform admins">
        Rehearsing a drain or a lost node disrupts everyone&apos;s sandboxes. {permission.reason}
      </RefusedPage>
    );
  }
  if (!runtime.cluster.simulatorUrl) {
    return (
      <>
        <PageHeader title="Simulator" />
        <EmptyState title="There is no simulator on a real cluster">
          <p>
            This console runs on a real Kubernetes cluster ({runtime.cluster.connection.mode}), where a drain or a lost node is real. The Simulator exists only on Berth&apos;s embedded simulated
            cluster: start a console without a kubeconfig (or with <code>BERTH_CLUSTER=embedded</code>) to rehearse disruptions there.
          </p>
        </EmptyState>
      </>
    );
  }
  const reconciler = runtime.reconciler.current();
  // Before Berth watches the cluster there is nothing to show yet; the board fills in live.
  let initial: SimulatorState | null = null;
  if (reconciler) initial = await simulatorOf(runtime.cluster).state().then((cluster) => simulatorState(cluster, reconciler.nodeViews(), runtime.live.all())).catch(() => null);
  return (
    <>
      <PageHeader title="Simulator" description={DESCRIPTION} />
      <SimulatorBoard initialState={initial} initialAt={Date.now()} />
    </>
  );
}
