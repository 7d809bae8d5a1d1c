import { setTimeout as sleep } from "node:timers/promises";
import { stripVTControlCharacters } from "node:util";
import type { BerthClient } from "../client/berth-client.ts";
import type { CliToken } from "../domain/cli-sign-in.ts";
import { SignInAbandonedError } from "./browser-sign-in.ts";
import type { Io } from "./io.ts";

// `berth login --device`: the device flow (RFC 8628) for a terminal with no browser on its machine.
// Berth begins it at the OpenID provider; the person opens the address in a browser anywhere and
// enters the code; meanwhile this asks Berth, no more often than the provider allows, until they
// have — or the code expires.

export interface DeviceSignInOptions {
  client: BerthClient;
  io: Io;
  /** Waits between asks; a test passes a shorter one. */
  wait?: (seconds: number) => Promise<void>;
  now?: () => number;
}

/** Shown on a terminal: nothing in what a server sent may move the cursor or change colours. */
const printable = (text: string) => stripVTControlCharacters(text).replace(/[\u0000-\u001f\u007f]/g, " ");

export async function signInWithDeviceCode({ client, io, wait = (seconds) => sleep(seconds * 1000), now = Date.now }: DeviceSignInOptions): Promise<CliToken> {
  const started = await client.beginCliDeviceSignIn({});
  const address = printable(started.verificationUriComplete ?? started.verificationUri);
  io.err(
    `To sign in, open this address in a browser on any device${started.verificationUriComplete ? "" : " and enter the code"}:\n\n  ${address}\n\n` +
      `  Code: ${printable(started.userCode)}\n\nWaiting for the sign-in (until ${started.expiresAt.toLocaleTimeString()}; Ctrl-C stops)…\n`,
  );
  let interval = started.intervalSeconds;
  for (;;) {
    if (now() + interval * 1000 > started.expiresAt.getTime()) throw new SignInAbandonedError("The code was not entered in time: run berth login --device again.");
    await wait(interval);
    const answer = await client.pollCliDeviceSignIn({ body: { deviceCode: started.deviceCode } });
    if (!("pending" in answer)) return answer;
    interval = answer.intervalSeconds;
  }
}
