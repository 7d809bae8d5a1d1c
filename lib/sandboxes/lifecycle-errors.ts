import type { SpecProblem } from "../domain/problems.ts";

// What the lifecycle service refuses, in terms the API turns into problem+json: each names the
// field at fault and what to do about it.

/** The submitted spec breaks a rule (400). */
export class SpecRejectedError extends Error {
  constructor(readonly problems: SpecProblem[]) {
    super(problems.map((problem) => `${problem.path.join(".") || "(body)"}: ${problem.message}`).join("; "));
    this.name = "SpecRejectedError";
  }
}

/** A create would take the namespace past a quota of the gateway (403, as Kubernetes answers a ResourceQuota). */
export class QuotaExceededError extends Error {
  constructor(
    readonly limit: string,
    readonly problems: SpecProblem[],
  ) {
    super(problems.map((problem) => problem.message).join("; "));
    this.name = "QuotaExceededError";
  }
}

/** The spec is valid but conflicts with what exists (409): a claim another live sandbox manages. */
export class SandboxConflictError extends Error {
  constructor(readonly problems: SpecProblem[]) {
    super(problems.map((problem) => problem.message).join("; "));
    this.name = "SandboxConflictError";
  }
}

/** The sandbox cannot do this in its current state (409), e.g. exec while it is stopped. */
export class SandboxStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxStateError";
  }
}

/** The cluster has no node of that name (404). */
export class NodeNotFoundError extends Error {
  constructor(readonly nodeName: string) {
    super(`The cluster has no node named ${nodeName}. GET /api/v1/nodes lists the nodes it has.`);
    this.name = "NodeNotFoundError";
  }
}

/** No maintenance run has that id (404). */
export class MaintenanceRunNotFoundError extends Error {
  constructor(readonly runId: string) {
    super(`No maintenance run has the id ${runId}. GET /api/v1/nodes/{name}/maintenance lists a node's runs.`);
    this.name = "MaintenanceRunNotFoundError";
  }
}

/** A request other than a sandbox spec (settings, a volume action) breaks a rule (400). */
export class RequestRejectedError extends Error {
  constructor(
    readonly problems: SpecProblem[],
    /** What the problem+json calls it: invalid-request (a body), invalid-query, invalid-parameter. */
    readonly code = "invalid-request",
  ) {
    super(problems.map((problem) => `${problem.path.join(".") || "(body)"}: ${problem.message}`).join("; "));
    this.name = "RequestRejectedError";
  }
}

/** Berth knows no claim of that name: it does not exist, or is not a sandbox's (404). */
export class VolumeNotFoundError extends Error {
  constructor(namespace: string, name: string) {
    super(`Berth knows no claim ${namespace}/${name}: it does not exist, or no sandbox made or used it. GET /api/v1/volumes lists the claims Berth knows.`);
    this.name = "VolumeNotFoundError";
  }
}

/** The claim is used — by a pod, or by a sandbox that mounts it or owns it — so it stays (409). */
export class VolumeInUseError extends Error {
  constructor(namespace: string, name: string, readonly users: string[]) {
    super(`Claim ${namespace}/${name} is in use by ${users.join(", ")}: delete those first (or stop using the claim), then delete it.`);
    this.name = "VolumeInUseError";
  }
}

/** The claim cannot do this in its current state (409), e.g. grow while it is not bound yet. */
export class PersistentVolumeNotFoundError extends Error {
  constructor(name: string) {
    super(`Berth knows no bound or released PersistentVolume named ${name}: it does not exist, or its claim is not one Berth knows. GET /api/v1/volumes lists each claim's volume.`);
    this.name = "PersistentVolumeNotFoundError";
  }
}

export class SnapshotNotFoundError extends Error {
  constructor(namespace: string, claim: string, snapshot: string) {
    super(`Claim ${namespace}/${claim} has no VolumeSnapshot named ${snapshot}. GET /api/v1/volumes/${namespace}/${claim}/snapshots lists its snapshots.`);
    this.name = "SnapshotNotFoundError";
  }
}

/** 409: the claim would clash with one that exists (its name). */
export class VolumeConflictError extends Error {
  constructor(
    message: string,
    readonly path: string[],
  ) {
    super(message);
    this.name = "VolumeConflictError";
  }
}

export class VolumeStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VolumeStateError";
  }
}

/** The namespace has no template of that name, or the person may not see it (404). */
export class TemplateNotFoundError extends Error {
  constructor(namespace: string, name: string) {
    super(`Namespace ${namespace} has no template named ${name}. GET /api/v1/templates lists the templates you may see.`);
    this.name = "TemplateNotFoundError";
  }
}

/** The template conflicts with what exists (409): its name is taken, it changed meanwhile, or Berth did not make it. */
export class TemplateConflictError extends Error {
  constructor(
    message: string,
    /** The field at fault, where one is. */
    readonly path: string[],
  ) {
    super(message);
    this.name = "TemplateConflictError";
  }
}

/** The namespace has no sandbox claim of that name (404). */
export class ClaimNotFoundError extends Error {
  constructor(namespace: string, name: string) {
    super(`Namespace ${namespace} has no sandbox claim named ${name}: it was never made, or its sandbox was deleted with it.`);
    this.name = "ClaimNotFoundError";
  }
}

/** A read inside a claim that cannot be answered: the path (400, 404), a file too large (413), a helper pod that would not start (504). */
export class VolumeFileError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 413 | 502 | 504,
    readonly code: string,
    message: string,
    /** Set where the `path` query parameter is at fault. */
    readonly aboutPath = false,
  ) {
    super(message);
    this.name = "VolumeFileError";
  }
}
