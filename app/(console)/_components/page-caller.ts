import { connection } from "next/server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import type { Caller } from "@/lib/identity/authenticate.ts";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/peer-address.ts";
import { getRuntime, type Runtime } from "@/lib/server/runtime.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";
import type { WhoAmI } from "@/lib/domain/who-am-i.ts";

// Who is looking at a page, proved the same way the API proves it; nobody is shown a console
// page without signing in. Asked once per render, however many components ask.

export interface PageViewer {
  runtime: Runtime;
  caller: Caller;
  you: WhoAmI;
}

const viewer = cache(async (): Promise<PageViewer | null> => {
  // Who is asking is known only at request time: every console page is rendered per request
  // from here, so none needs to say so itself.
  await connection();
  const runtime = await getRuntime();
  const requestHeaders = await headers();
  const caller = await runtime.identity.authenticator
    .authenticate({ headers: new Headers(requestHeaders), peerAddress: requestHeaders.get(PEER_ADDRESS_HEADER) })
    .catch(() => null);
  if (!caller) return null;
  return { runtime, caller, you: await whoAmI(runtime, caller) };
});

/** The signed-in viewer, or off to the sign-in page (and back here afterwards). */
export async function requireViewer(): Promise<PageViewer> {
  const found = await viewer();
  if (found) return found;
  const path = (await headers()).get("x-berth-path") ?? "/sandboxes";
  redirect(`/sign-in?${new URLSearchParams({ returnTo: path })}`);
}
