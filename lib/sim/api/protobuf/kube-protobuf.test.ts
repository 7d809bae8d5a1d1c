import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../objects.ts";
import vectors from "./generated/go-test-vectors.json" with { type: "json" };
import { KubeProtobuf, ProtobufCodecError } from "./kube-protobuf.ts";

// The vectors are sample objects as Kubernetes' own serializers write them, in JSON and in
// protobuf (scripts/kube-protobuf): what Go wrote in protobuf must read as what Go wrote in JSON.

const codec = new KubeProtobuf();
const objects = vectors.filter((vector) => !vector.name.endsWith("-watch-event"));
const goBytes = (name: string) => Buffer.from(vectors.find((vector) => vector.name === name)!.protobuf, "base64");
const goJson = (name: string) => vectors.find((vector) => vector.name === name)!.json as unknown as KubeObject;

describe("Kubernetes protobuf", () => {
  it.each(objects.map((vector) => vector.name))("reads Go's protobuf of %s as Go's JSON of it", (name) => {
    expect(codec.decode(goBytes(name))).toEqual(goJson(name));
  });

  it.each(objects.map((vector) => vector.name))("writes %s so that it reads back the same", (name) => {
    expect(codec.decode(codec.encode(goJson(name)))).toEqual(goJson(name));
  });

  it("keeps a pointer's zero: a claim asking for no class, a pod with no grace period", () => {
    const claim = codec.decode(goBytes("persistent-volume-claim")) as unknown as { spec: { storageClassName?: string } };
    const pod = codec.decode(goBytes("pod")) as unknown as { spec: { terminationGracePeriodSeconds?: number; automountServiceAccountToken?: boolean } };
    expect([claim.spec.storageClassName, pod.spec.terminationGracePeriodSeconds, pod.spec.automountServiceAccountToken]).toEqual(["", 0, false]);
  });

  it("leaves out the zero of a field JSON omits when empty, as Go's JSON does", () => {
    const pod = codec.decode(goBytes("pod")) as unknown as { spec: { containers: { env: { name: string; value?: string }[] }[] } };
    expect(pod.spec.containers[0]!.env[0]).toEqual({ name: "MODE" });
  });

  it("reads a watch event the API server wrote, its object inside", () => {
    expect(codec.decodeWatchEvent(goBytes("pod-watch-event"))).toEqual(goJson("pod-watch-event"));
  });

  it("frames a watch event with its length, its envelope as the API server writes it", () => {
    const frame = codec.watchFrame("MODIFIED", goJson("pod"));
    const length = new DataView(frame.buffer, frame.byteOffset).getUint32(0);
    expect([length, Buffer.from(frame.subarray(4, 14))]).toEqual([frame.length - 4, goBytes("pod-watch-event").subarray(0, 10)]);
  });

  it("writes the watch event a client reads back", () => {
    expect(codec.decodeWatchEvent(codec.watchFrame("MODIFIED", goJson("pod")).subarray(4))).toEqual(goJson("pod-watch-event"));
  });

  it("knows the built-in kinds and not custom resources", () => {
    expect([codec.canEncode("v1", "Pod"), codec.canEncode("v1", "Status"), codec.canEncode("policy/v1", "Eviction"), codec.canEncode("agents.x-k8s.io/v1beta1", "Sandbox")]).toEqual([true, true, true, false]);
  });

  it("refuses bytes without the envelope's magic", () => {
    expect(() => codec.decode(Buffer.from('{"kind":"Pod"}'))).toThrow(ProtobufCodecError);
  });

  it("refuses an envelope cut short", () => {
    const bytes = goBytes("pod");
    expect(() => codec.decode(bytes.subarray(0, bytes.length - 7))).toThrow(ProtobufCodecError);
  });

  it("refuses a kind it has no message for", () => {
    const sandbox = { apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", metadata: { name: "a" } };
    expect(() => codec.encode(sandbox)).toThrow(/has no protobuf form/);
  });

  it("names the field whose value has the wrong type", () => {
    const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "a" }, spec: { terminationGracePeriodSeconds: "30" } };
    expect(() => codec.encode(pod)).toThrow(/Pod\.spec\.terminationGracePeriodSeconds: expected an integer/);
  });
});
