import { z } from "zod";
import { BERTH_RESOURCES, KUBERNETES_RESOURCES, type ResourceVerb } from "./access.ts";
import { auditEntrySchema, auditQuerySchema } from "./audit.ts";
import { checkpointSchema } from "./checkpoint.ts";
import { cliDeviceAuthorizationSchema, cliDevicePendingSchema, cliDeviceTokenRequestSchema, cliSignInSchema, cliTokenRequestSchema, cliTokenSchema } from "./cli-sign-in.ts";
import { dryRunResultSchema } from "./dry-run.ts";
import { serialIdSchema } from "./event-id.ts";
import { execRequestSchema, execResultSchema } from "./exec-request.ts";
import { gatewaySettingsChangeSchema, gatewaySettingsSchema } from "./gateway-settings.ts";
import { healthAnswerSchema } from "./health.ts";
import { labelSelectorSchema } from "./label-selector.ts";
import { maintenanceOptionsSchema, maintenanceRunSchema } from "./maintenance.ts";
import { maintenancePreviewSchema } from "./maintenance-preview.ts";
import { nodeViewSchema } from "./node-view.ts";
import { whoAmISchema } from "./who-am-i.ts";
import { pageRequestSchema, pageSchema, sandboxRecordSchema } from "./sandbox-record.ts";
import { sandboxSpecSchema } from "./sandbox-spec.ts";
import { secretNamesSchema } from "./secret-names.ts";
import { simulatorActionResultSchema, simulatorDrainOptionsSchema, simulatorNodeActionSchema, simulatorObjectNameSchema, simulatorPodActionSchema, simulatorStateSchema } from "./simulator.ts";
import { sandboxClaimRequestSchema, sandboxClaimViewSchema } from "./sandbox-claim.ts";
import { sandboxTemplateSpecSchema } from "./sandbox-template.ts";
import { storageClassListSchema } from "./storage-class.ts";
import { templateViewSchema } from "./template-view.ts";
import { timelineEventSchema } from "./timeline.ts";
import { volumeSchema } from "./volume.ts";
import { cleanUpSchema } from "./clean-up.ts";
import { volumeMoveListSchema, volumeMoveRequestSchema, volumeMoveSchema } from "./volume-move.ts";
import { MAX_DOWNLOAD_BYTES, volumeDirectorySchema, volumeFileQuerySchema, volumeFilesQuerySchema, volumeReaderSchema } from "./volume-files.ts";
import { restoreRequestSchema, snapshotRequestSchema, volumeSnapshotListSchema, volumeSnapshotSchema } from "./volume-snapshot.ts";
import { clonedVolumeSchema, createdVolumeSchema, reclaimPolicyChangedSchema, reclaimPolicyChangeSchema, volumeCloneRequestSchema, volumeCreationSchema, volumeExpansionSchema } from "./volume-actions.ts";

// Every endpoint of Berth's HTTP API, once: method, path, parameters, body and answers, and who
// may call it in Kubernetes' own terms. The route handlers (lib/server/endpoint-route.ts), the
// OpenAPI document and the authorization matrix test are derived from this table, so an
// endpoint cannot ship without saying who may call it.

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Where the namespace of an authorization question comes from. */
export type NamespaceSource =
  /** A cluster-scoped question (nodes, Berth's own resources, or every namespace at once). */
  | "cluster"
  /** The `{namespace}` path parameter. */
  | "path"
  /** The sandbox spec's `namespace`, or the gateway's default sandbox namespace. */
  | "spec"
  /** The namespace of the sandbox the `{id}` path parameter names. */
  | "sandbox";

/** Who may call an endpoint. */
export type Access =
  /** Anyone, signed in or not: health probes, the API's own description, signing in. */
  | {
      kind: "public";
      why: string;
      /**
       * Called by programs, not pages, and answering no cookie: a forged cross-site request would
       * gain nothing, so no Origin is asked for (the CLI sends none).
       */
      setsNoCookie?: true;
    }
  /** Any signed-in person; what the answer holds is filtered to what they may see. */
  | { kind: "signed-in"; shows: string }
  /** A person Kubernetes RBAC allows this: the question Berth asks by SubjectAccessReview. */
  | { kind: "resource"; verb: ResourceVerb; group: string; resource: string; subresource?: string; namespace: NamespaceSource }
  /** A non-resource URL, as the API server authorizes /metrics (Prometheus scrapes with a token). */
  | { kind: "non-resource"; verb: string; path: string };

export interface EndpointAnswer {
  description: string;
  /** The JSON body; absent for bodies that are not JSON (a stream, text, a redirect). */
  schema?: z.ZodType;
  contentType?: string;
}

export interface Endpoint {
  method: HttpMethod;
  /** OpenAPI-style: /api/v1/sandboxes/{id}. */
  path: string;
  summary: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: {
    schema: z.ZodType;
    required: boolean;
    /**
     * The lifecycle validates the body itself, with rules beyond the schema (the sandbox spec's
     * against the cluster, settings against the configuration's rules) and its own problem codes.
     */
    validatedByHandler?: true;
  };
  /** Writes: what the audit log calls the change, and who records a success (refusals and failures are always recorded). */
  audit?: { action: string; targetKind: string; recordedBy: "lifecycle" | "edge" };
  /**
   * Which of a person's rate limits a call takes from: creates and commands have their own;
   * every other write takes from `writes`, reads from none. Sign-ins are counted per address
   * when nobody is signed in yet.
   */
  rate?: "creates" | "commands" | "sign-ins";
  /** The answers when it works, by HTTP status. */
  answers: Record<number, EndpointAnswer>;
  /** The statuses it answers with problem+json besides the ones every endpoint may give. */
  problems: number[];
}

const uuidParameter = z.uuid("id must be a sandbox id (a UUID) as Berth hands them out");
const sandboxParams = z.object({ id: uuidParameter });
const nodeParams = z.object({ name: simulatorObjectNameSchema });
const runParams = z.object({ id: z.uuid("id must be a maintenance run id (a UUID)") });
const volumeParams = z.object({ namespace: simulatorObjectNameSchema, name: simulatorObjectNameSchema });
const templateParams = z.object({ namespace: simulatorObjectNameSchema, name: simulatorObjectNameSchema });

const created = <Schema extends z.ZodType>(schema: Schema, description: string) => ({ 201: { description, schema } });
const ok = <Schema extends z.ZodType>(schema: Schema, description = "OK") => ({ 200: { description, schema } });
const accepted = <Schema extends z.ZodType>(schema: Schema, description = "Accepted") => ({ 202: { description, schema } });

type ResourceAccess = Extract<Access, { kind: "resource" }>;
/** The namespace source stays in the type, so handlers of sandbox-scoped endpoints are given the sandbox. */
const kubernetes = <Namespace extends NamespaceSource>(verb: ResourceVerb, target: { group: string; resource: string }, namespace: Namespace, subresource?: string) =>
  ({ kind: "resource", verb, ...target, ...(subresource ? { subresource } : {}), namespace }) as ResourceAccess & { namespace: Namespace };
const berth = (verb: ResourceVerb, target: { group: string; resource: string }) => kubernetes(verb, target, "cluster");

const deleteResultSchema = z.object({ record: sandboxRecordSchema, removedClaims: z.array(z.string()), keptClaims: z.array(z.string()) });
const volumeDeletionSchema = z.object({ uid: z.string(), ownership: volumeSchema.shape.ownership, sandbox: z.string().nullable() });
const volumeExpansionResultSchema = z.object({ from: z.string().nullable(), to: z.string() });
const timelineQuerySchema = z.object({
  cursor: serialIdSchema("cursor must be the nextCursor of an earlier page (an event id)").optional(),
  after: serialIdSchema("after must be an event id").optional(),
});
const eventsQuerySchema = z.object({
  sandbox: z.uuid("sandbox must be a sandbox id (a UUID)").optional(),
  lastEventId: serialIdSchema("lastEventId must be an event id this server sent (a number)").optional(),
});
const createQuerySchema = z.object({ dryRun: z.enum(["true", "false"]).optional() });
const volumeListQuerySchema = pageRequestSchema.extend({
  namespace: simulatorObjectNameSchema.optional(),
  /** Kubernetes' label selector syntax, over the claim's labels (Berth's own included). */
  labelSelector: labelSelectorSchema.optional(),
});
const volumeReaderStartSchema = z.object({ reader: volumeReaderSchema, started: z.boolean() });
const templateDeletionSchema = z.object({ namespace: z.string(), name: z.string(), warmPoolDeleted: z.boolean() });
const itemsOf = <Schema extends z.ZodType>(item: Schema) => z.object({ items: z.array(item) });

export const ENDPOINTS = {
  health: {
    method: "GET",
    path: "/api/health",
    summary: "Whether this server can serve (liveness and readiness probes); to a signed-in person, also what it is connected to",
    access: { kind: "public", why: "probes and load balancers call it without credentials; they are told the status only" },
    answers: { ...ok(healthAnswerSchema, "Serving"), 503: { description: "Cannot serve: the store does not answer", schema: healthAnswerSchema } },
    problems: [],
  },
  readiness: {
    method: "GET",
    path: "/api/health/ready",
    summary: "Whether traffic should come to this server (the readiness probe): the store answers, and the cluster is reached and serves the Sandbox API",
    access: { kind: "public", why: "the kubelet's readiness probe calls it without credentials; it is told the status only" },
    answers: { ...ok(healthAnswerSchema, "Ready"), 503: { description: "Not ready: the store does not answer, or the cluster cannot be reached or does not serve the Sandbox API", schema: healthAnswerSchema } },
    problems: [],
  },
  liveness: {
    method: "GET",
    path: "/api/health/live",
    summary: "Whether this server's process is alive (the liveness probe): it answers whatever the store and the cluster do, since a restart mends neither",
    access: { kind: "public", why: "the kubelet's liveness probe calls it without credentials; it is told the status only" },
    answers: ok(healthAnswerSchema, "Alive"),
    problems: [],
  },
  openApi: {
    method: "GET",
    path: "/api/v1/openapi.json",
    summary: "This document: Berth's API as OpenAPI 3.1",
    access: { kind: "public", why: "the API's description holds no data" },
    answers: { 200: { description: "OpenAPI 3.1" } },
    problems: [],
  },
  whoAmI: {
    method: "GET",
    path: "/api/v1/whoami",
    summary: "Who is signed in (name, groups, how they signed in) and what Kubernetes lets them do through Berth",
    access: { kind: "signed-in", shows: "the caller themself" },
    answers: ok(whoAmISchema),
    problems: [],
  },
  listSandboxes: {
    method: "GET",
    path: "/api/v1/sandboxes",
    summary: "Live sandboxes, newest first, a page at a time; each page has an ETag, and If-None-Match with it answers 304 while the page is unchanged",
    access: { kind: "signed-in", shows: "the sandboxes of namespaces where the person may list sandboxes.agents.x-k8s.io" },
    query: pageRequestSchema.extend({
      namespace: simulatorObjectNameSchema.optional(),
      /** Kubernetes' label selector syntax, over the labels the person gave the sandboxes: `team=ml,tier in (a,b),!scratch`. */
      labelSelector: labelSelectorSchema.optional(),
    }),
    answers: { ...ok(pageSchema(sandboxRecordSchema), "A page"), 304: { description: "Not modified: the page is still the one the If-None-Match ETag names" } },
    problems: [400],
  },
  createSandbox: {
    method: "POST",
    path: "/api/v1/sandboxes",
    summary: "Create a sandbox (?dryRun=true renders and validates against the cluster, creates nothing, and answers the manifests)",
    access: kubernetes("create", KUBERNETES_RESOURCES.sandboxes, "spec"),
    query: createQuerySchema,
    body: { schema: sandboxSpecSchema, required: true, validatedByHandler: true },
    rate: "creates",
    answers: { ...created(sandboxRecordSchema, "Created"), ...ok(dryRunResultSchema, "Dry run: the manifests the create would make") },
    problems: [400, 403, 409, 413, 429, 503],
    audit: { action: "sandbox.create", targetKind: "Sandbox", recordedBy: "lifecycle" },
  },
  getSandbox: {
    method: "GET",
    path: "/api/v1/sandboxes/{id}",
    summary: "One sandbox with its derived status",
    access: kubernetes("get", KUBERNETES_RESOURCES.sandboxes, "sandbox"),
    params: sandboxParams,
    answers: ok(sandboxRecordSchema),
    problems: [404],
  },
  deleteSandbox: {
    method: "DELETE",
    path: "/api/v1/sandboxes/{id}",
    summary: "Delete a sandbox; its claims are swept or kept by their ownership",
    access: kubernetes("delete", KUBERNETES_RESOURCES.sandboxes, "sandbox"),
    params: sandboxParams,
    answers: ok(deleteResultSchema, "Deleted: which claims were removed and which kept"),
    problems: [404, 409],
    audit: { action: "sandbox.delete", targetKind: "Sandbox", recordedBy: "lifecycle" },
  },
  stopSandbox: {
    method: "POST",
    path: "/api/v1/sandboxes/{id}/stop",
    summary: "Stop (suspend): the pod goes, the Sandbox and its claims stay",
    access: kubernetes("patch", KUBERNETES_RESOURCES.sandboxes, "sandbox"),
    params: sandboxParams,
    answers: accepted(sandboxRecordSchema),
    problems: [404, 409],
    audit: { action: "sandbox.stop", targetKind: "Sandbox", recordedBy: "lifecycle" },
  },
  startSandbox: {
    method: "POST",
    path: "/api/v1/sandboxes/{id}/start",
    summary: "Start (resume) a stopped sandbox",
    access: kubernetes("patch", KUBERNETES_RESOURCES.sandboxes, "sandbox"),
    params: sandboxParams,
    answers: accepted(sandboxRecordSchema),
    problems: [404, 409],
    audit: { action: "sandbox.start", targetKind: "Sandbox", recordedBy: "lifecycle" },
  },
  recoverSandbox: {
    method: "POST",
    path: "/api/v1/sandboxes/{id}/recover",
    summary: "Replace a failed or crash-looping pod (agent-sandbox does not replace a Failed pod)",
    access: kubernetes("delete", KUBERNETES_RESOURCES.pods, "sandbox"),
    params: sandboxParams,
    answers: accepted(sandboxRecordSchema),
    problems: [404, 409],
    audit: { action: "sandbox.recover", targetKind: "Sandbox", recordedBy: "lifecycle" },
  },
  execInSandbox: {
    method: "POST",
    path: "/api/v1/sandboxes/{id}/exec",
    summary: "Run a command in the agent container",
    access: kubernetes("create", KUBERNETES_RESOURCES.pods, "sandbox", "exec"),
    params: sandboxParams,
    body: { schema: execRequestSchema, required: true },
    rate: "commands",
    answers: ok(execResultSchema, "The command ran (whatever its exit code)"),
    problems: [400, 404, 409, 429, 504],
    audit: { action: "sandbox.exec", targetKind: "Sandbox", recordedBy: "lifecycle" },
  },
  checkpointSandbox: {
    method: "POST",
    path: "/api/v1/sandboxes/{id}/checkpoint",
    summary: "Run a checkpoint now: the hook within its grace period, a flush, the state marker; answers how it went",
    access: kubernetes("create", KUBERNETES_RESOURCES.pods, "sandbox", "exec"),
    params: sandboxParams,
    rate: "commands",
    answers: ok(checkpointSchema, "The checkpoint, Succeeded, Failed or TimedOut: a result, not an error"),
    problems: [404, 409, 429],
    audit: { action: "sandbox.checkpoint", targetKind: "Sandbox", recordedBy: "lifecycle" },
  },
  listCheckpoints: {
    method: "GET",
    path: "/api/v1/sandboxes/{id}/checkpoints",
    summary: "The sandbox's checkpoints, newest first",
    access: kubernetes("get", KUBERNETES_RESOURCES.sandboxes, "sandbox"),
    params: sandboxParams,
    answers: ok(itemsOf(checkpointSchema)),
    problems: [404],
  },
  sandboxTimeline: {
    method: "GET",
    path: "/api/v1/sandboxes/{id}/timeline",
    summary: "The stored timeline, oldest first, 1,000 events a page (`after` is the same cursor under the name SSE clients know)",
    access: kubernetes("get", KUBERNETES_RESOURCES.sandboxes, "sandbox"),
    params: sandboxParams,
    query: timelineQuerySchema,
    answers: ok(pageSchema(timelineEventSchema), "A page"),
    problems: [400, 404],
  },
  events: {
    method: "GET",
    path: "/api/v1/events",
    summary: "Server-Sent Events of every timeline event (`?sandbox={id}` narrows); every event has an id, and Last-Event-ID resumes without loss",
    access: { kind: "signed-in", shows: "the events of sandboxes in namespaces where the person may list sandboxes.agents.x-k8s.io" },
    query: eventsQuerySchema,
    answers: { 200: { description: "An event stream; each event's data is a TimelineEvent", contentType: "text/event-stream" } },
    problems: [400, 429],
  },
  listSecretNames: {
    method: "GET",
    path: "/api/v1/secrets/{namespace}",
    summary: "The names and keys of a namespace's Secrets, never their values: what an environment variable can be taken from",
    access: kubernetes("list", KUBERNETES_RESOURCES.secrets, "path"),
    params: z.object({ namespace: simulatorObjectNameSchema }),
    answers: ok(secretNamesSchema),
    problems: [400],
  },
  listVolumes: {
    method: "GET",
    path: "/api/v1/volumes",
    summary: "Every claim Berth knows (workspaces and extra volumes): owner, ownership, binding, node pinning, attachment",
    access: { kind: "signed-in", shows: "the claims of namespaces where the person may list persistentvolumeclaims" },
    query: volumeListQuerySchema,
    answers: ok(pageSchema(volumeSchema), "A page"),
    problems: [400, 503],
  },
  createVolume: {
    method: "POST",
    path: "/api/v1/volumes",
    summary: "Make a claim for no sandbox yet — empty, restored from a VolumeSnapshot, or cloned from a claim of the namespace — kept by Berth for sandboxes to take up as their retained workspace (retain, the default) or the caller's own; made as the caller; audited",
    access: kubernetes("create", KUBERNETES_RESOURCES.persistentVolumeClaims, "spec"),
    body: { schema: volumeCreationSchema, required: true, validatedByHandler: true },
    rate: "creates",
    answers: created(createdVolumeSchema, "Created: the cluster binds (and fills) it next; GET /api/v1/volumes shows how it stands"),
    problems: [400, 403, 409, 429, 503],
    audit: { action: "volume.create", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  deleteVolume: {
    method: "DELETE",
    path: "/api/v1/volumes/{namespace}/{name}",
    summary: "Delete a claim that no pod or live sandbox uses (by uid: a recreated claim is never deleted); audited",
    access: kubernetes("delete", KUBERNETES_RESOURCES.persistentVolumeClaims, "path"),
    params: volumeParams,
    answers: ok(volumeDeletionSchema, "Deleted"),
    problems: [404, 409, 503],
    audit: { action: "volume.delete", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  expandVolume: {
    method: "PATCH",
    path: "/api/v1/volumes/{namespace}/{name}",
    summary: "Grow a bound claim whose StorageClass allows volume expansion; status.capacity follows once resized; audited",
    access: kubernetes("patch", KUBERNETES_RESOURCES.persistentVolumeClaims, "path"),
    params: volumeParams,
    body: { schema: volumeExpansionSchema, required: true, validatedByHandler: true },
    answers: accepted(volumeExpansionResultSchema, "Requested"),
    problems: [400, 404, 409, 503],
    audit: { action: "volume.expand", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  listVolumeSnapshots: {
    method: "GET",
    path: "/api/v1/volumes/{namespace}/{name}/snapshots",
    summary: "A claim's VolumeSnapshots, newest first: ready or not (and why), restore size, class",
    access: kubernetes("list", KUBERNETES_RESOURCES.volumeSnapshots, "path"),
    params: volumeParams,
    answers: ok(volumeSnapshotListSchema, "The claim's snapshots"),
    problems: [404, 503],
  },
  takeVolumeSnapshot: {
    method: "POST",
    path: "/api/v1/volumes/{namespace}/{name}/snapshots",
    summary: "Snapshot a bound claim whose class's driver takes snapshots (409 saying so where it has none); ready once the driver has cut it; as the caller; audited",
    access: kubernetes("create", KUBERNETES_RESOURCES.volumeSnapshots, "path"),
    params: volumeParams,
    body: { schema: snapshotRequestSchema, required: false, validatedByHandler: true },
    rate: "creates",
    answers: accepted(volumeSnapshotSchema, "Taken: the driver cuts it next"),
    problems: [400, 404, 409, 429, 503],
    audit: { action: "volume.snapshot", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  restoreVolumeSnapshot: {
    method: "POST",
    path: "/api/v1/volumes/{namespace}/{name}/snapshots/{snapshot}/restore",
    summary: "A new claim holding the snapshot's data, of the source claim's class and at least the snapshot's size, checked as POST /api/v1/volumes checks a restore; as the caller; audited",
    access: kubernetes("create", KUBERNETES_RESOURCES.persistentVolumeClaims, "path"),
    params: volumeParams.extend({ snapshot: simulatorObjectNameSchema }),
    body: { schema: restoreRequestSchema, required: true, validatedByHandler: true },
    rate: "creates",
    answers: created(createdVolumeSchema, "Created: the driver fills it next"),
    problems: [400, 404, 409, 429, 503],
    audit: { action: "volume.create", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  cloneVolume: {
    method: "POST",
    path: "/api/v1/volumes/{namespace}/{name}/clone",
    summary: "Copy a bound claim into a new one of its class: cloned by its CSI driver (via clone, the default), or through a snapshot taken now and restored at once (via snapshot, for a driver that takes snapshots but does not clone; the snapshot is kept); checked as POST /api/v1/volumes checks a clone or restore; as the caller; audited",
    access: kubernetes("create", KUBERNETES_RESOURCES.persistentVolumeClaims, "path"),
    params: volumeParams,
    body: { schema: volumeCloneRequestSchema, required: false, validatedByHandler: true },
    rate: "creates",
    answers: created(clonedVolumeSchema, "Created: the driver fills it next"),
    problems: [400, 404, 409, 429, 503],
    audit: { action: "volume.create", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  startVolumeReader: {
    method: "POST",
    path: "/api/v1/volumes/{namespace}/{name}/files/reader",
    summary: "A way to read the claim's files: the pod that mounts it, a helper pod with time left, or a new helper pod (read-only, restricted, 5 minutes; removed by the reconciler) made as the caller in the claim's namespace; a new helper is audited against the claim",
    access: kubernetes("create", KUBERNETES_RESOURCES.pods, "path"),
    params: volumeParams,
    rate: "creates",
    answers: ok(volumeReaderStartSchema, "Ready to read: started says whether a helper pod was made for it"),
    problems: [404, 429, 503, 504],
    audit: { action: "volume.reader-start", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  listVolumeFiles: {
    method: "GET",
    path: "/api/v1/volumes/{namespace}/{name}/files",
    summary: "A directory of the claim (`path`, from its root): names (as decoded and as safe to show), kinds, sizes and times, directories first; read through the pod that mounts the claim or its helper pod (409 when there is neither: POST …/files/reader), by exec as the caller",
    access: kubernetes("create", KUBERNETES_RESOURCES.pods, "path", "exec"),
    params: volumeParams,
    query: volumeFilesQuerySchema,
    answers: ok(volumeDirectorySchema, "The directory"),
    problems: [400, 403, 404, 409, 502, 503, 504],
  },
  readVolumeFile: {
    method: "GET",
    path: "/api/v1/volumes/{namespace}/{name}/files/content",
    summary: `A regular file of the claim (\`path\`), at most ${MAX_DOWNLOAD_BYTES} bytes, as a download; read as GET …/files reads`,
    access: kubernetes("create", KUBERNETES_RESOURCES.pods, "path", "exec"),
    params: volumeParams,
    query: volumeFileQuerySchema,
    answers: { 200: { description: "The file's bytes, as an attachment", contentType: "application/octet-stream" } },
    problems: [400, 403, 404, 409, 413, 502, 503, 504],
  },
  listVolumeMoves: {
    method: "GET",
    path: "/api/v1/volumes/{namespace}/{name}/moves",
    summary: "The claim's moves to another class, newest first: those under way (phase, bytes copied of the old claim's, as the kubelet last measured them) and the last few finished, from the claim's history",
    access: kubernetes("get", KUBERNETES_RESOURCES.persistentVolumeClaims, "path"),
    params: volumeParams,
    answers: ok(volumeMoveListSchema, "The claim's moves"),
    problems: [404, 503],
  },
  moveVolume: {
    method: "POST",
    path: "/api/v1/volumes/{namespace}/{name}/moves",
    summary: "Copy a bound claim nothing uses into a new, retained claim of a portable class (its volumes follow their pod), by a helper pod (restricted, source read-only) made as the caller, who also needs create on pods; the old claim is kept; a failed copy's new claim is deleted; audited",
    access: kubernetes("create", KUBERNETES_RESOURCES.persistentVolumeClaims, "path"),
    params: volumeParams,
    body: { schema: volumeMoveRequestSchema, required: true, validatedByHandler: true },
    rate: "creates",
    answers: accepted(volumeMoveSchema, "Started: the helper copies next"),
    problems: [400, 403, 404, 409, 429, 503],
    audit: { action: "volume.move", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  deleteVolumeSnapshot: {
    method: "DELETE",
    path: "/api/v1/volumes/{namespace}/{name}/snapshots/{snapshot}",
    summary: "Delete one of a claim's snapshots (by uid: one recreated under its name is left alone); as the caller; audited",
    access: kubernetes("delete", KUBERNETES_RESOURCES.volumeSnapshots, "path"),
    params: volumeParams.extend({ snapshot: simulatorObjectNameSchema }),
    answers: ok(z.object({ name: z.string(), uid: z.string() }), "Deleted"),
    problems: [404, 409, 503],
    audit: { action: "volume.snapshot-delete", targetKind: "PersistentVolumeClaim", recordedBy: "lifecycle" },
  },
  changeReclaimPolicy: {
    method: "PATCH",
    path: "/api/v1/persistent-volumes/{name}",
    summary: "Keep a claim's volume and its data after the claim is deleted (Retain), or let them go with it (Delete): the volume of a claim Berth knows, or one already Released; as the caller; audited",
    access: kubernetes("patch", KUBERNETES_RESOURCES.persistentVolumes, "cluster"),
    params: z.object({ name: simulatorObjectNameSchema }),
    body: { schema: reclaimPolicyChangeSchema, required: true, validatedByHandler: true },
    answers: ok(reclaimPolicyChangedSchema, "Set (or already so)"),
    problems: [400, 404, 409, 503],
    audit: { action: "volume.reclaim-policy", targetKind: "PersistentVolume", recordedBy: "lifecycle" },
  },
  deletePersistentVolume: {
    method: "DELETE",
    path: "/api/v1/persistent-volumes/{name}",
    summary: "Delete a Released volume (its claim is gone; a Retain policy kept it and its data), by uid; a Bound one is its claim's to delete (409); as the caller; audited",
    access: kubernetes("delete", KUBERNETES_RESOURCES.persistentVolumes, "cluster"),
    params: z.object({ name: simulatorObjectNameSchema }),
    answers: ok(z.object({ name: z.string(), uid: z.string(), formerClaim: z.string().nullable() }), "Deleted"),
    problems: [404, 409, 503],
    audit: { action: "volume.pv-delete", targetKind: "PersistentVolume", recordedBy: "lifecycle" },
  },
  storageCleanUp: {
    method: "GET",
    path: "/api/v1/clean-up",
    summary: "What storage is left over, oldest first: claims no live sandbox uses (with the sandbox that last used each and when it was deleted), Released volumes, snapshots whose claim is gone",
    access: { kind: "signed-in", shows: "claims and snapshots of the namespaces where the caller may list claims; Released volumes only to those who may list PersistentVolumes" },
    answers: ok(cleanUpSchema, "What is left over"),
    problems: [503],
  },
  listTemplates: {
    method: "GET",
    path: "/api/v1/templates",
    summary: "Sandbox templates (SandboxTemplate, with the SandboxWarmPool of the same name: target, members, ready), by namespace then name",
    access: { kind: "signed-in", shows: "the templates of namespaces where the person may list sandboxtemplates.extensions.agents.x-k8s.io" },
    query: z.object({ namespace: simulatorObjectNameSchema.optional() }),
    answers: ok(itemsOf(templateViewSchema)),
    problems: [400, 503],
  },
  createTemplate: {
    method: "POST",
    path: "/api/v1/templates",
    summary: "Create a template (its SandboxTemplate, and its SandboxWarmPool when it keeps sandboxes warm), as the person: both or neither; audited",
    access: kubernetes("create", KUBERNETES_RESOURCES.sandboxTemplates, "spec"),
    body: { schema: sandboxTemplateSpecSchema, required: true, validatedByHandler: true },
    answers: created(templateViewSchema, "Created"),
    problems: [400, 403, 409, 503],
    audit: { action: "template.create", targetKind: "SandboxTemplate", recordedBy: "lifecycle" },
  },
  getTemplate: {
    method: "GET",
    path: "/api/v1/templates/{namespace}/{name}",
    summary: "One template, with its warm pool's counts",
    access: kubernetes("get", KUBERNETES_RESOURCES.sandboxTemplates, "path"),
    params: templateParams,
    answers: ok(templateViewSchema),
    problems: [404, 503],
  },
  updateTemplate: {
    method: "PUT",
    path: "/api/v1/templates/{namespace}/{name}",
    summary: "Replace a template made through Berth with the one sent (the whole of it); its warm pool is made, changed or removed to match; audited",
    access: kubernetes("update", KUBERNETES_RESOURCES.sandboxTemplates, "path"),
    params: templateParams,
    body: { schema: sandboxTemplateSpecSchema, required: true, validatedByHandler: true },
    answers: ok(templateViewSchema),
    problems: [400, 403, 404, 409, 503],
    audit: { action: "template.update", targetKind: "SandboxTemplate", recordedBy: "lifecycle" },
  },
  deleteTemplate: {
    method: "DELETE",
    path: "/api/v1/templates/{namespace}/{name}",
    summary: "Delete a template and its warm pool (the pool's waiting sandboxes go with it; sandboxes already handed out stay); audited",
    access: kubernetes("delete", KUBERNETES_RESOURCES.sandboxTemplates, "path"),
    params: templateParams,
    answers: ok(templateDeletionSchema, "Deleted"),
    problems: [403, 404, 503],
    audit: { action: "template.delete", targetKind: "SandboxTemplate", recordedBy: "lifecycle" },
  },
  claimSandbox: {
    method: "POST",
    path: "/api/v1/sandbox-claims/{namespace}",
    summary: "A sandbox from a template: a SandboxClaim on the template's warm pool, answered with a ready member (warm) or a sandbox started for it (cold); GET /api/v1/sandbox-claims/{namespace}/{name} tells which; audited",
    access: kubernetes("create", KUBERNETES_RESOURCES.sandboxClaims, "path"),
    params: z.object({ namespace: simulatorObjectNameSchema }),
    body: { schema: sandboxClaimRequestSchema, required: true, validatedByHandler: true },
    rate: "creates",
    answers: accepted(sandboxClaimViewSchema, "Claimed: the pool's controller answers it"),
    problems: [400, 403, 404, 409, 429, 503],
    audit: { action: "sandbox.claim", targetKind: "SandboxClaim", recordedBy: "lifecycle" },
  },
  getSandboxClaim: {
    method: "GET",
    path: "/api/v1/sandbox-claims/{namespace}/{name}",
    summary: "How a claim stands: the sandbox handed to it (and Berth's id of it), warm or cold, ready or why not",
    access: kubernetes("get", KUBERNETES_RESOURCES.sandboxClaims, "path"),
    params: z.object({ namespace: simulatorObjectNameSchema, name: simulatorObjectNameSchema }),
    answers: ok(sandboxClaimViewSchema),
    problems: [404, 503],
  },
  listStorageClasses: {
    method: "GET",
    path: "/api/v1/storage-classes",
    summary: "The cluster's storage classes: the default marked, node-pinned or portable (and why), expansion and snapshot support",
    access: kubernetes("list", KUBERNETES_RESOURCES.storageClasses, "cluster"),
    answers: ok(storageClassListSchema, "Every class, the default first"),
    problems: [502],
  },
  listNodes: {
    method: "GET",
    path: "/api/v1/nodes",
    summary: "The cluster's nodes by name, each with the sandboxes on it (only those the person may see), a page at a time",
    access: kubernetes("list", KUBERNETES_RESOURCES.nodes, "cluster"),
    query: pageRequestSchema.extend({
      /** Kubernetes' label selector syntax, over the node's labels: `topology.kubernetes.io/zone=zone-a`. */
      labelSelector: labelSelectorSchema.optional(),
    }),
    answers: ok(pageSchema(nodeViewSchema), "A page"),
    problems: [400, 503],
  },
  previewMaintenance: {
    method: "GET",
    path: "/api/v1/nodes/{name}/maintenance/preview",
    summary: "What draining the node would do to each pod on it, before anything is done",
    access: berth("create", BERTH_RESOURCES.maintenanceRuns),
    params: nodeParams,
    answers: ok(maintenancePreviewSchema),
    problems: [404, 503],
  },
  startMaintenance: {
    method: "POST",
    path: "/api/v1/nodes/{name}/maintenance",
    summary: "Start planned maintenance of the node (cordon, checkpoint, relax budgets, evict, watch replacements, restore budgets); answers at once",
    access: berth("create", BERTH_RESOURCES.maintenanceRuns),
    params: nodeParams,
    body: { schema: maintenanceOptionsSchema, required: true },
    answers: accepted(maintenanceRunSchema, "Started"),
    problems: [400, 404, 409, 503],
    audit: { action: "maintenance.start", targetKind: "Node", recordedBy: "edge" },
  },
  listNodeMaintenance: {
    method: "GET",
    path: "/api/v1/nodes/{name}/maintenance",
    summary: "The node's maintenance runs, newest first",
    access: berth("list", BERTH_RESOURCES.maintenanceRuns),
    params: nodeParams,
    answers: ok(itemsOf(maintenanceRunSchema)),
    problems: [],
  },
  getMaintenance: {
    method: "GET",
    path: "/api/v1/maintenance/{id}",
    summary: "One maintenance run with its progress per sandbox and pod",
    access: berth("get", BERTH_RESOURCES.maintenanceRuns),
    params: runParams,
    answers: ok(maintenanceRunSchema),
    problems: [404],
  },
  cancelMaintenance: {
    method: "POST",
    path: "/api/v1/maintenance/{id}/cancel",
    summary: "Stop the run after its current step; budgets are restored, the node stays cordoned",
    access: berth("update", BERTH_RESOURCES.maintenanceRuns),
    params: runParams,
    answers: accepted(z.object({ cancelling: z.string() }), "Cancelling"),
    problems: [409, 503],
    audit: { action: "maintenance.cancel", targetKind: "MaintenanceRun", recordedBy: "edge" },
  },
  getSettings: {
    method: "GET",
    path: "/api/v1/settings",
    summary: "The gateway defaults in effect: configuration (environment > file > default) with the changes made through Berth on top, each with its source",
    access: berth("get", BERTH_RESOURCES.settings),
    answers: ok(gatewaySettingsSchema),
    problems: [],
  },
  changeSettings: {
    method: "PUT",
    path: "/api/v1/settings",
    summary: "Change gateway defaults (a change wins over the configuration; `reset` hands keys back to it); new sandboxes get them at once; audited",
    access: berth("update", BERTH_RESOURCES.settings),
    body: { schema: gatewaySettingsChangeSchema, required: true, validatedByHandler: true },
    answers: ok(gatewaySettingsSchema),
    problems: [400],
    audit: { action: "settings.update", targetKind: "GatewaySettings", recordedBy: "lifecycle" },
  },
  settingsHistory: {
    method: "GET",
    path: "/api/v1/settings/history",
    summary: "Changes to the gateway defaults, newest first",
    access: berth("get", BERTH_RESOURCES.settings),
    query: pageRequestSchema,
    answers: ok(pageSchema(auditEntrySchema), "A page"),
    problems: [400],
  },
  audit: {
    method: "GET",
    path: "/api/v1/audit",
    summary: "Every write made through Berth, newest first: the verified person and their groups, the decision, what was asked, the request id",
    access: berth("list", BERTH_RESOURCES.auditLogs),
    query: auditQuerySchema,
    answers: ok(pageSchema(auditEntrySchema), "A page"),
    problems: [400],
  },
  simulatorState: {
    method: "GET",
    path: "/api/v1/simulator",
    summary: "The embedded cluster's nodes (kubelet up, Ready, cordoned) with the sandbox pods on each; 404 on a real cluster",
    access: berth("get", BERTH_RESOURCES.simulator),
    answers: ok(simulatorStateSchema),
    problems: [404, 503],
  },
  simulatorNodeAction: {
    method: "POST",
    path: "/api/v1/simulator/nodes/{name}/{action}",
    summary: "Cordon, uncordon, drain (answers with kubectl's report), lose or restore a simulated node",
    access: berth("create", BERTH_RESOURCES.simulator),
    params: z.object({ name: simulatorObjectNameSchema, action: simulatorNodeActionSchema }),
    body: { schema: simulatorDrainOptionsSchema, required: false },
    answers: ok(simulatorActionResultSchema),
    problems: [400, 404, 502],
    audit: { action: "simulator.node-action", targetKind: "Node", recordedBy: "edge" },
  },
  simulatorPodAction: {
    method: "POST",
    path: "/api/v1/simulator/pods/{namespace}/{name}/{action}",
    summary: "Delete a simulated pod, have its kubelet evict it, or have the scheduler preempt it",
    access: berth("create", BERTH_RESOURCES.simulator),
    params: z.object({ namespace: simulatorObjectNameSchema, name: simulatorObjectNameSchema, action: simulatorPodActionSchema }),
    answers: ok(simulatorActionResultSchema),
    problems: [400, 404, 502],
    audit: { action: "simulator.pod-action", targetKind: "Pod", recordedBy: "edge" },
  },
  metrics: {
    method: "GET",
    path: "/metrics",
    summary: "Prometheus text format: sandboxes by phase, disruptions by reason, recovery durations, checkpoints, maintenance runs",
    access: { kind: "non-resource", verb: "get", path: "/metrics" },
    answers: { 200: { description: "text/plain; version=0.0.4", contentType: "text/plain" } },
    problems: [],
  },
  signIn: {
    method: "GET",
    path: "/auth/sign-in",
    summary: "Start signing in: a redirect to the OpenID provider (authorization code with PKCE)",
    access: { kind: "public", why: "it is how a person becomes signed in" },
    query: z.object({
      returnTo: z.string().max(2048).optional(),
      person: z.string().max(254).optional(),
      /** `berth login`: where the CLI listens, its PKCE challenge and its state (lib/domain/cli-sign-in.ts). */
      cliRedirect: cliSignInSchema.shape.redirectUri.optional(),
      cliChallenge: cliSignInSchema.shape.challenge.optional(),
      cliState: cliSignInSchema.shape.state.optional(),
    }),
    answers: { 303: { description: "To the OpenID provider" } },
    problems: [400],
  },
  signInCallback: {
    method: "GET",
    path: "/auth/callback",
    summary: "The OpenID provider's redirect back: the code is exchanged, the session cookie set",
    access: { kind: "public", why: "the provider's redirect carries no session yet" },
    answers: { 303: { description: "Back to where the person started" } },
    problems: [400],
  },
  exchangeCliCode: {
    method: "POST",
    path: "/auth/cli-token",
    summary: "berth login's last step: the code the browser brought to the CLI, with its PKCE verifier, for a Berth token",
    access: { kind: "public", why: "it is how the command line becomes signed in; only the holder of the PKCE verifier can use the code", setsNoCookie: true },
    body: { schema: cliTokenRequestSchema, required: true },
    rate: "sign-ins",
    answers: ok(cliTokenSchema, "Signed in: send the token as `Authorization: Bearer`"),
    problems: [400],
    // The edge knows no caller yet; the route records who was signed in.
    audit: { action: "session.sign-in", targetKind: "Session", recordedBy: "lifecycle" },
  },
  beginCliDeviceSignIn: {
    method: "POST",
    path: "/auth/cli-device",
    summary: "berth login --device's first step (RFC 8628, where the OpenID provider offers it): the code for the person to enter at the provider, and the handle to ask with",
    access: { kind: "public", why: "it is how the command line becomes signed in; it signs nobody in by itself", setsNoCookie: true },
    rate: "sign-ins",
    answers: ok(cliDeviceAuthorizationSchema, "Begun: show the person the address and the code"),
    problems: [400],
    // A code someone could be talked into entering (device-code phishing): each one issued is on record.
    audit: { action: "session.device-code-issued", targetKind: "Session", recordedBy: "edge" },
  },
  pollCliDeviceSignIn: {
    method: "POST",
    path: "/auth/cli-device/token",
    summary: "berth login --device, asking every intervalSeconds: 202 until the person has entered the code at the provider, then a Berth token",
    access: { kind: "public", why: "it is how the command line becomes signed in; only the holder of the sealed device code can ask", setsNoCookie: true },
    body: { schema: cliDeviceTokenRequestSchema, required: true },
    answers: { ...ok(cliTokenSchema, "Signed in: send the token as `Authorization: Bearer`"), 202: { description: "Not yet: ask again after intervalSeconds", schema: cliDevicePendingSchema } },
    problems: [400],
    // The edge knows no caller yet; the route records who was signed in.
    audit: { action: "session.sign-in", targetKind: "Session", recordedBy: "lifecycle" },
  },
  signInWithToken: {
    method: "POST",
    path: "/auth/token",
    summary: "Sign in with a Kubernetes bearer token (token mode), checked with TokenReview",
    access: { kind: "public", why: "it is how a person becomes signed in" },
    body: { schema: z.strictObject({ token: z.string().min(1, "paste a Kubernetes bearer token") }), required: true },
    rate: "sign-ins",
    answers: ok(whoAmISchema, "Signed in"),
    problems: [400, 401],
    audit: { action: "session.sign-in", targetKind: "Session", recordedBy: "edge" },
  },
  signOut: {
    method: "POST",
    path: "/auth/sign-out",
    summary: "End the session (and the provider's, where it offers an end-session endpoint)",
    access: { kind: "public", why: "signing out needs no permission" },
    answers: { 303: { description: "To the sign-in page, or the provider's sign-out" } },
    problems: [],
    audit: { action: "session.sign-out", targetKind: "Session", recordedBy: "edge" },
  },
} as const satisfies Record<string, Endpoint>;

export type EndpointId = keyof typeof ENDPOINTS;

export const ENDPOINT_IDS = Object.keys(ENDPOINTS) as EndpointId[];
