import { bearerTokenOf } from "../kube/cluster-connection.ts";
import { simulatorClient, type SimulatorClient, type SimulatorRequestError } from "./simulator-client.ts";
import { problem, type ProblemDetails } from "./problem-details.ts";
import type { RuntimeCluster } from "./cluster.ts";

// The routes under /api/v1/simulator speak for the embedded cluster's fault API. On a real
// cluster there is nothing to speak for: they answer 404, saying why and how to get a simulator.

export class SimulatorUnavailableError extends Error {
  constructor(mode: string) {
    super(
      `This console runs on a real Kubernetes cluster (${mode}), where disruptions are real: the Simulator exists only on the embedded simulated cluster. Start a console without a kubeconfig (BERTH_CLUSTER=embedded) to rehearse them.`,
    );
    this.name = "SimulatorUnavailableError";
  }
}

/** The fault API's client, or SimulatorUnavailableError when the console is not on the embedded cluster. */
export function simulatorOf(cluster: RuntimeCluster): SimulatorClient {
  if (!cluster.simulatorUrl) throw new SimulatorUnavailableError(cluster.connection.mode);
  return simulatorClient(cluster.simulatorUrl, bearerTokenOf(cluster.connection));
}

/** The problem a simulator failure is, or null for other errors. Told apart by name, as api-problems.ts does. */
export function simulatorProblem(error: unknown): ProblemDetails | null {
  if (!(error instanceof Error)) return null;
  if (error.name === "SimulatorUnavailableError") return problem(404, "simulator-unavailable", "There is no simulator on this cluster", error.message);
  if (error.name !== "SimulatorRequestError") return null;
  const { status } = error as SimulatorRequestError;
  if (status === 404) return problem(404, "simulator-not-found", "No such node or pod in the simulated cluster", `${error.message}. It may have just gone away: the page shows what is there now.`);
  if (status === 400 || status === 422) return problem(400, "simulator-bad-request", "The simulator refused the request", error.message);
  if (status === 409) return problem(409, "simulator-conflict", "The simulator cannot do that now", error.message);
  if (status === 503) return problem(503, "simulator-unreachable", "The simulated cluster does not answer", error.message);
  return problem(502, "simulator-error", "The simulated cluster failed the request", `${error.message} (HTTP ${status})`);
}
