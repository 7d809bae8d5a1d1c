import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { isLoopbackAddress, LOCAL_ADDRESS_HEADER, PEER_ADDRESS_HEADER, stampPeerAddresses } from "./peer-address.ts";

describe("the peer address stamp", () => {
  it("replaces what a client claims with the socket's real addresses", async () => {
    stampPeerAddresses();
    const server = createServer((request, response) => response.end(JSON.stringify([request.headers[PEER_ADDRESS_HEADER], request.headers[LOCAL_ADDRESS_HEADER]])));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers: { [PEER_ADDRESS_HEADER]: "10.0.0.5", [LOCAL_ADDRESS_HEADER]: "10.0.0.1" } });
      expect(await response.json()).toEqual(["127.0.0.1", "127.0.0.1"]);
    } finally {
      server.close();
    }
  });

  it("is installed once, however often it is asked for", () => {
    stampPeerAddresses();
    const emit = createServer().emit;
    stampPeerAddresses();
    expect(createServer().emit).toBe(emit);
  });
});

describe("isLoopbackAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["10.0.0.1", false],
    ["::", false],
    ["0.0.0.0", false],
    ["", false],
  ])("%s is loopback: %s", (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });
});
