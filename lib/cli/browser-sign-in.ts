import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { stripVTControlCharacters } from "node:util";
import type { BerthClient } from "../client/berth-client.ts";
import { pkceChallengeOf, type CliToken } from "../domain/cli-sign-in.ts";
import type { Io } from "./io.ts";

// `berth login` through the browser (lib/domain/cli-sign-in.ts has the protocol): a loopback
// port waits for the browser to come back with a code, which only this process — holding the
// PKCE verifier — can exchange for a Berth token.

export class SignInAbandonedError extends Error {
  override name = "SignInAbandonedError";
}

export interface BrowserSignInOptions {
  client: BerthClient;
  io: Io;
  /** Open the address in the person's browser; else only print it (a remote shell, a test). */
  openBrowser: boolean;
  /** How long to wait for the browser to come back. */
  timeoutMs?: number;
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Berth</title></head><body style="font:16px system-ui,sans-serif;max-width:34rem;margin:3rem auto"><h1>${title}</h1><p>${text}</p></body></html>`;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function answer(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", Connection: "close", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'" });
  response.end(html);
}

/** The desktop's way to open an address; a failure only means the person opens it themselves. */
function openInBrowser(url: string): void {
  // Not `cmd /c start`: cmd would split the address at its "&"s.
  const [command, ...args] = process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["rundll32", "url.dll,FileProtocolHandler", url] : ["xdg-open", url];
  const child = spawn(command!, args, { stdio: "ignore", detached: true });
  child.on("error", () => undefined);
  child.unref();
}

export async function signInThroughBrowser({ client, io, openBrowser, timeoutMs = 5 * 60_000 }: BrowserSignInOptions): Promise<CliToken> {
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(24).toString("base64url");
  const challenge = await pkceChallengeOf(verifier);

  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | null = null;
  const codeArrived = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const collected = codeArrived.then((code) => client.exchangeCliCode({ body: { code, verifier } }));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/favicon.ico") return void response.writeHead(204, { Connection: "close" }).end();
    // Anything but the one answer to this sign-in (another tab, a stale redirect) is turned away.
    if (url.pathname !== "/callback" || url.searchParams.get("state") !== state) return answer(response, 404, page("Not this sign-in", "This address only takes the answer to the berth login that is waiting."));
    // Shown on a terminal: no control characters from a URL anyone could have made.
    const refused = stripVTControlCharacters(url.searchParams.get("error_description") ?? url.searchParams.get("error") ?? "").replace(/[\u0000-\u001f\u007f]/g, " ");
    if (refused) {
      answer(response, 200, page("Not signed in", `${escapeHtml(refused)}<br>Run berth login again.`));
      return settle!.reject(new SignInAbandonedError(`The sign-in failed: ${refused}`));
    }
    const code = url.searchParams.get("code");
    if (!code) return answer(response, 400, page("Not signed in", "The answer carried no code. Run berth login again."));
    settle!.resolve(code);
    // The page says how it ended, once the code is exchanged.
    void collected.then(
      (token) => answer(response, 200, page("Signed in", `berth is signed in as ${escapeHtml(token.you.person.username)}. You can close this tab.`)),
      (error: Error) => answer(response, 200, page("Not signed in", `${escapeHtml(error.message)}<br>Run berth login again.`)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(new SignInAbandonedError(`berth login could not listen on a loopback port for the browser's answer: ${error.message}`)));
    server.listen(0, "127.0.0.1", resolve);
  });
  try {
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    const query = { cliRedirect: redirectUri, cliChallenge: challenge, cliState: state };
    // Asked once before the browser opens: a Berth that cannot sign the CLI in this way says why here.
    await client.send("signIn", { query });
    const address = client.url("signIn", { query });
    io.err(`${openBrowser ? "Opening your browser to sign in. If it does not open, visit" : "To sign in, open this address in a browser on this machine"}:\n\n  ${address}\n\n`);
    if (openBrowser) openInBrowser(address);
    const timer = setTimeout(() => settle!.reject(new SignInAbandonedError(`No sign-in came back within ${Math.round(timeoutMs / 60_000)} minutes; run berth login again.`)), timeoutMs);
    try {
      return await collected;
    } finally {
      clearTimeout(timer);
    }
  } finally {
    // Whatever happened, the waiting ends (a refused preflight leaves nobody to answer), and the browser's page is written before the port closes.
    settle!.reject(new SignInAbandonedError("berth login stopped waiting"));
    await collected.catch(() => undefined);
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
