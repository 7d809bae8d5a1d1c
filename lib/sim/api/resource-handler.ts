import type { IncomingMessage, ServerResponse } from "node:http";
import { record } from "../k8s-objects.ts";
import { isRecord, type KubeObject, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import { resourceId, type ObjectStore } from "../store/object-store.ts";
import { dryRunOf, parseJson, parseObject, queryFlag, queryInteger, sendObject } from "./http-io.ts";
import type { Encoding } from "./media-types.ts";
import { admitCreate, admitUpdate } from "./admission.ts";
import { fieldValidationOf, prepareFieldValidation } from "./field-validation.ts";
import { applyPatch } from "./patching.ts";
import type { ResourcePath } from "./request-path.ts";
import { fromVersion, groupVersion, toVersion, type ResourceDefinition, type Subresource } from "./resources.ts";
import { compileSelectors } from "./selection.ts";
import { strategyFor, validateName, validateObjectMeta } from "./strategies.ts";
import { includeObjectOf, printerFor, tableOf, tableOfList, type TableOptions } from "./tables/server-side-table.ts";
import type { WatchHub } from "./watch-stream.ts";

// The verbs on a resource collection or object: get, list, watch, create, update, patch,
// delete, deletecollection — with the status subresource split, dry runs, preconditions and
// the list/continue contract.

export interface HandlerContext {
  store: ObjectStore;
  watches: WatchHub;
  bookmarkIntervalMs: number;
  /** What the client asked to be answered in. */
  encoding: Encoding;
  /** Whether reads are answered as server-side tables (`kubectl get`). */
  table: boolean;
  now: () => Date;
}

interface Target {
  definition: ResourceDefinition;
  path: ResourcePath;
}

const present = (definition: ResourceDefinition, version: string) => (object: StoredObject) => toVersion(definition, object, version);

const resourceNotFound = () => StatusError.of(404, "NotFound", "the server could not find the requested resource");

function checkNamespace(target: Target): void {
  const { definition, path } = target;
  if (definition.namespaced && path.namespace === undefined && path.name !== undefined) {
    throw resourceNotFound();
  }
  if (!definition.namespaced && path.namespace !== undefined) {
    throw resourceNotFound();
  }
}

function requireNamespace(context: HandlerContext, namespace: string): void {
  if (!context.store.peek({ group: "", resource: "namespaces" }, undefined, namespace)) {
    throw StatusError.notFound({ group: "", resource: "namespaces" }, namespace);
  }
}

function validateOrThrow(definition: ResourceDefinition, object: KubeObject, old?: StoredObject): void {
  const strategy = strategyFor(definition);
  const causes = [...validateName(definition, object), ...(strategy.validate?.(object) ?? []), ...(old && strategy.validateUpdate ? strategy.validateUpdate(object, old) : [])];
  if (causes.length > 0) throw StatusError.invalid(definition.kind, definition.group, object.metadata.name ?? "", causes);
}

/** Metadata of the wrong types is refused before anything reads it. */
function checkMetadata(definition: ResourceDefinition, object: KubeObject): void {
  const causes = validateObjectMeta(object);
  if (causes.length > 0) throw StatusError.invalid(definition.kind, definition.group, isRecord(object.metadata) ? String(object.metadata.name ?? "") : "", causes);
}

/** The body's apiVersion/kind must be what the URL says (or absent). */
function checkTypeOfBody(target: Target, object: KubeObject): void {
  const expected = groupVersion(target.definition.group, target.path.version);
  if (object.apiVersion !== undefined && object.apiVersion !== expected) {
    throw StatusError.badRequest(`the API version in the data (${object.apiVersion}) does not match the expected API version (${expected})`);
  }
  if (object.kind !== undefined && object.kind !== target.definition.kind) {
    throw StatusError.badRequest(`the kind in the data (${object.kind}) does not match the expected kind (${target.definition.kind})`);
  }
}

function checkNamespaceOfBody(target: Target, object: KubeObject): void {
  const namespace = target.path.namespace;
  if (!target.definition.namespaced) {
    delete object.metadata.namespace;
    return;
  }
  if (object.metadata.namespace !== undefined && object.metadata.namespace !== "" && object.metadata.namespace !== namespace) {
    throw StatusError.badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
  object.metadata.namespace = namespace;
}

function list(context: HandlerContext, target: Target, query: URLSearchParams): unknown {
  const { definition, path } = target;
  const matches = compileSelectors(definition, query);
  const limit = queryInteger(query, "limit") ?? 0;
  const token = query.get("continue");
  let after: string | null = null;
  // Every page of one list reports the first page's resourceVersion, so a watch started from the
  // last page misses nothing that changed while paging.
  let revision = context.store.currentRevision();
  if (token) {
    const decoded = decodeContinue(token);
    if (decoded.revision < context.store.oldestReplayableRevision()) {
      throw StatusError.gone("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.");
    }
    after = decoded.key;
    revision = decoded.revision;
  }
  const keyOf = (object: StoredObject) => `${object.metadata.namespace ?? ""}/${object.metadata.name}`;
  const all = context.store.list(definition, path.namespace).filter(matches);
  const start = after === null ? 0 : all.findIndex((object) => keyOf(object) > after!);
  const rest = start === -1 ? [] : all.slice(start);
  const page = limit > 0 ? rest.slice(0, limit) : rest;
  const more = limit > 0 && rest.length > limit;
  return {
    kind: `${definition.kind}List`,
    apiVersion: groupVersion(definition.group, path.version),
    metadata: {
      resourceVersion: String(revision),
      ...(more ? { continue: encodeContinue(revision, keyOf(page[page.length - 1]!)), remainingItemCount: rest.length - page.length } : {}),
    },
    items: page.map(present(definition, path.version)),
  };
}

function encodeContinue(revision: number, key: string): string {
  return Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: revision, start: key })).toString("base64url");
}

function decodeContinue(token: string): { revision: number; key: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { rv?: unknown; start?: unknown };
    if (typeof parsed.rv === "number" && typeof parsed.start === "string") return { revision: parsed.rv, key: parsed.start };
  } catch {
    // fall through
  }
  throw StatusError.badRequest("invalid continue token");
}

function watch(context: HandlerContext, target: Target, query: URLSearchParams, request: IncomingMessage, response: ServerResponse): void {
  const { definition, path } = target;
  const matchesSelectors = compileSelectors(definition, query);
  const namespace = path.namespace;
  const nameFromPath = path.name;
  const matches = (object: StoredObject) =>
    (namespace === undefined || object.metadata.namespace === namespace) &&
    (nameFromPath === undefined || object.metadata.name === nameFromPath) &&
    matchesSelectors(object);
  const rv = query.get("resourceVersion");
  let sinceRevision: number | null = null;
  if (rv !== null && rv !== "" && rv !== "0") {
    const parsed = Number(rv);
    if (!Number.isInteger(parsed) || parsed < 0) throw StatusError.badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
    sinceRevision = parsed;
  }
  const timeoutSeconds = queryInteger(query, "timeoutSeconds");
  context.watches.serve(request, response, {
    resource: resourceId(definition),
    sinceRevision,
    matches,
    present: context.table ? presentAsTable(context, target, query) : present(definition, path.version),
    bookmarks: queryFlag(query, "allowWatchBookmarks"),
    bookmarkIntervalMs: context.bookmarkIntervalMs,
    timeoutMs: timeoutSeconds !== undefined ? timeoutSeconds * 1000 : undefined,
    initialObjects: () => context.store.list(definition, namespace),
    kind: definition.kind,
    apiVersion: groupVersion(definition.group, path.version),
    encoding: context.table ? "json" : context.encoding,
  });
}

function tableOptions(context: HandlerContext, query: URLSearchParams): TableOptions {
  return { includeObject: includeObjectOf(query), noHeaders: false, now: context.now() };
}

/** Each watch event as a table of its one object; only the first carries the column definitions, as the API server sends them. */
function presentAsTable(context: HandlerContext, target: Target, query: URLSearchParams): (object: StoredObject) => KubeObject {
  const { definition, path } = target;
  const printer = printerFor(definition, path.version);
  const show = present(definition, path.version);
  // A bad includeObject is refused before the watch starts, not in the middle of it.
  const includeObject = includeObjectOf(query);
  let first = true;
  return (object) => {
    const table = tableOf(printer, [show(object)], { resourceVersion: object.metadata.resourceVersion }, { includeObject, noHeaders: !first, now: context.now() });
    first = false;
    // A Table is what goes on the wire in the object's place.
    return table as unknown as KubeObject;
  };
}

function create(context: HandlerContext, target: Target, body: KubeObject, dryRun: boolean): StoredObject {
  const { definition, path } = target;
  checkMetadata(definition, body);
  checkTypeOfBody(target, body);
  checkNamespaceOfBody(target, body);
  if (definition.namespaced) requireNamespace(context, path.namespace!);
  const object = fromVersion(definition, body, path.version);
  admitCreate(context.store, definition, object);
  validateOrThrow(definition, object);
  return context.store.create(definition, object, { dryRun });
}

/** Writes `next` over `current` as PUT or PATCH do, keeping status or spec as the subresource says. */
function write(context: HandlerContext, target: Target, current: StoredObject, next: KubeObject, dryRun: boolean): StoredObject {
  const { definition, path } = target;
  checkMetadata(definition, next);
  checkTypeOfBody(target, next);
  checkNamespaceOfBody(target, next);
  if (next.metadata.name !== undefined && next.metadata.name !== path.name) {
    throw StatusError.badRequest(`the name of the object (${next.metadata.name}) does not match the name on the URL (${path.name})`);
  }
  next.metadata.name = path.name;
  let stored = fromVersion(definition, next, path.version);
  const hasStatus = definition.subresources.includes("status");
  if (path.subresource === "status") {
    // The status subresource changes status only.
    stored = { ...current, status: stored.status, metadata: { ...current.metadata, resourceVersion: stored.metadata.resourceVersion ?? current.metadata.resourceVersion } };
  } else if (hasStatus) {
    stored = { ...stored, status: current.status };
    if (current.status === undefined) delete stored.status;
  }
  // A stale write is a conflict before it is anything else, as in the real storage layer.
  const expected = stored.metadata.resourceVersion;
  if (expected !== undefined && expected !== "" && expected !== current.metadata.resourceVersion) {
    throw StatusError.conflict(definition, path.name!);
  }
  if (path.subresource !== "status") strategyFor(definition).prepareForUpdate?.(stored, current);
  validateOrThrow(definition, stored, current);
  if (path.subresource !== "status") {
    const refused = admitUpdate(context.store, definition, current, stored);
    if (refused) throw refused;
  }
  return context.store.update(definition, stored, { dryRun });
}

/**
 * A patch applies to the object as it is now. Reading it, patching and writing happen in one
 * synchronous step after the body has arrived, so no other write can fall in between: a patch
 * conflicts only if it names a resourceVersion of its own.
 */
function patchObject(context: HandlerContext, target: Target, contentType: string, patch: string, decode: (object: KubeObject) => KubeObject, dryRun: boolean): StoredObject {
  const { definition, path } = target;
  const current = context.store.get(definition, path.namespace, path.name!);
  const patched = applyPatch(definition, contentType, present(definition, path.version)(current), patch);
  return write(context, target, current, decode(patched), dryRun);
}

/**
 * How a write's object is decoded: its unknown fields dropped, refused or warned about as the
 * request's `fieldValidation` says (the warnings go out as Warning headers).
 */
async function decoderFor(target: Target, method: string, query: URLSearchParams, response: ServerResponse): Promise<(object: KubeObject) => KubeObject> {
  const options = method === "POST" ? "CreateOptions" : method === "PUT" ? "UpdateOptions" : "PatchOptions";
  const validation = fieldValidationOf(query, options);
  const check = await prepareFieldValidation(target.definition, target.path.version);
  return (object) => {
    const warnings = check.apply(object, validation);
    if (warnings.length > 0) response.setHeader("Warning", warnings.map((warning) => `299 - ${JSON.stringify(warning)}`));
    return object;
  };
}

/** autoscaling/v1 Scale of a workload: its replicas, and the selector its pods are counted by. */
function scaleOf(object: StoredObject): KubeObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
  // A custom resource publishes its selector in status (labelSelectorPath); a workload's is in its spec.
  const published = record(object.status).selector;
  const selector = record(record(object.spec).selector);
  const matchLabels = typeof published === "string" ? [published] : Object.entries(record(selector.matchLabels)).map(([key, value]) => `${key}=${String(value)}`).sort();
  return {
    apiVersion: "autoscaling/v1",
    kind: "Scale",
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: Number(record(object.spec).replicas ?? 0) },
    status: { replicas: Number(record(object.status).replicas ?? 0), selector: matchLabels.join(",") },
  };
}

/** GET, PUT or PATCH of /scale: the workload's replicas read or set (with the Scale's resourceVersion as a precondition). */
function scale(context: HandlerContext, target: Target, request: IncomingMessage, body: string, dryRun: boolean): KubeObject {
  const { definition, path } = target;
  const current = context.store.get(definition, path.namespace, path.name!);
  const method = request.method ?? "GET";
  if (method === "GET") return scaleOf(current);
  let wanted: KubeObject;
  if (method === "PUT") wanted = parseObject(body);
  else if (method === "PATCH") wanted = applyPatch(SCALE_DEFINITION, (request.headers["content-type"] ?? "").split(";")[0]!.trim(), scaleOf(current), body);
  else throw StatusError.methodNotAllowed("the server does not allow this method on the requested resource");
  const replicas = record(wanted.spec).replicas;
  if (!Number.isInteger(replicas) || (replicas as number) < 0) throw StatusError.invalid("Scale", "autoscaling", path.name!, [{ reason: "FieldValueInvalid", field: "spec.replicas", message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` }]);
  const expected = wanted.metadata?.resourceVersion;
  if (expected && expected !== current.metadata.resourceVersion) throw StatusError.conflict(definition, path.name!);
  const next = { ...current, spec: { ...record(current.spec), replicas } };
  return scaleOf(context.store.update(definition, next, { dryRun }));
}

/** What a patch of a Scale is applied as: a built-in kind, so every patch type is taken. */
const SCALE_DEFINITION = { group: "autoscaling", resource: "scale", kind: "Scale", singular: "scale", namespaced: true, versions: ["v1"], storageVersion: "v1", subresources: [], strategicMerge: true } satisfies ResourceDefinition;

function deleteOne(context: HandlerContext, target: Target, query: URLSearchParams, bodyText: string, dryRun: boolean) {
  const { definition, path } = target;
  const options = bodyText.trim() ? parseJson(bodyText) : {};
  const deleteOptions = isRecord(options) ? options : {};
  const current = context.store.peek(definition, path.namespace, path.name!);
  if (!current) throw StatusError.notFound(definition, path.name!);
  const refusal = strategyFor(definition).deleteRefusal?.(current);
  if (refusal) throw StatusError.of(403, "Forbidden", refusal);
  const requestedGrace = queryInteger(query, "gracePeriodSeconds") ?? (typeof deleteOptions.gracePeriodSeconds === "number" ? deleteOptions.gracePeriodSeconds : undefined);
  // Only kinds with a graceful-delete rule (pods) wait; for the rest a grace period means nothing.
  const grace = strategyFor(definition).deletionGracePeriodSeconds?.(current, requestedGrace) ?? 0;
  const policy = query.get("propagationPolicy") ?? (typeof deleteOptions.propagationPolicy === "string" ? deleteOptions.propagationPolicy : "Background");
  if (!["Background", "Foreground", "Orphan"].includes(policy)) {
    throw StatusError.badRequest(`Invalid propagationPolicy: ${JSON.stringify(policy)}: supported values: "Background", "Foreground", "Orphan"`);
  }
  const preconditions = isRecord(deleteOptions.preconditions) ? (deleteOptions.preconditions as { uid?: string; resourceVersion?: string }) : undefined;
  const addFinalizers = policy === "Foreground" ? ["foregroundDeletion"] : policy === "Orphan" ? ["orphan"] : [];
  return context.store.delete(definition, path.namespace, path.name!, { preconditions, gracePeriodSeconds: grace, dryRun, addFinalizers });
}

/** `body` is read before the request passes the gate, as the API server decodes it before admission and storage. */
export async function handleResource(context: HandlerContext, target: Target, request: IncomingMessage, response: ServerResponse, query: URLSearchParams, body: string): Promise<void> {
  const { definition, path } = target;
  checkNamespace(target);
  const method = request.method ?? "GET";
  const dryRun = dryRunOf(query);
  const show = present(definition, path.version);
  const send = (code: number, body: unknown) => sendObject(response, code, body, context.encoding);
  const subresource = path.subresource;
  if (subresource !== undefined && (!["status", "scale"].includes(subresource) || !definition.subresources.includes(subresource as Subresource))) {
    throw resourceNotFound();
  }
  if (subresource === "scale") return send(200, scale(context, target, request, body, dryRun));
  const decode = ["POST", "PUT", "PATCH"].includes(method) ? await decoderFor(target, method, query, response) : (object: KubeObject) => object;

  if (path.name === undefined) {
    if (method === "GET") {
      if (path.watchPrefix || queryFlag(query, "watch")) return watch(context, target, query, request, response);
      const listed = list(context, target, query);
      return send(200, context.table ? tableOfList(printerFor(definition, path.version), listed, tableOptions(context, query)) : listed);
    }
    if (method === "POST") {
      const created = create(context, target, decode(parseObject(body)), dryRun);
      return send(201, show(created));
    }
    if (method === "DELETE") {
      const matches = compileSelectors(definition, query);
      const items = context.store.list(definition, path.namespace).filter(matches).map((object) => ({ ...object }));
      for (const object of items) {
        deleteOne(context, { definition, path: { ...path, name: object.metadata.name } }, query, body, dryRun);
      }
      return send(200, { kind: `${definition.kind}List`, apiVersion: groupVersion(definition.group, path.version), metadata: {}, items: items.map(show) });
    }
    throw StatusError.methodNotAllowed(`the server does not allow this method on the requested resource`);
  }

  if (path.watchPrefix) return watch(context, target, query, request, response);
  switch (method) {
    case "GET": {
      const object = show(context.store.get(definition, path.namespace, path.name));
      if (!context.table) return send(200, object);
      return send(200, tableOf(printerFor(definition, path.version), [object], { resourceVersion: object.metadata.resourceVersion }, tableOptions(context, query)));
    }
    case "PUT": {
      const current = context.store.get(definition, path.namespace, path.name);
      return send(200, show(write(context, target, current, decode(parseObject(body)), dryRun)));
    }
    case "PATCH": {
      const contentType = (request.headers["content-type"] ?? "").split(";")[0]!.trim();
      return send(200, show(patchObject(context, target, contentType, body, decode, dryRun)));
    }
    case "DELETE": {
      const result = deleteOne(context, target, query, body, dryRun);
      return send(200, show(result.object));
    }
    default:
      throw StatusError.methodNotAllowed(`the server does not allow this method on the requested resource`);
  }
}
