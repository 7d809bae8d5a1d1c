import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { admitAtOnce } from "../platform/request-admission.ts";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type Configuration } from "oidc-provider";
import { DEMO_PEOPLE, type DemoPerson } from "./demo-people.ts";

// The embedded default's OpenID provider: oidc-provider, in-process on loopback, with the demo
// people. Berth signs them in through it exactly as through a real provider (authorization code
// with PKCE, ID token checked, refresh; the device flow for `berth login --device`), so the embedded console is not a console without
// sign-in. Its sign-in page lists the people; a login_hint naming one signs that person in at once.

export interface EmbeddedOidcProvider {
  issuer: string;
  clientId: string;
  stop(): Promise<void>;
}

export interface EmbeddedOidcOptions {
  /** Where Berth is reached: its /auth/callback is the one redirect the client may use. */
  redirectOrigins: string[];
  port?: number;
  /** How long ID and access tokens last, in seconds (refresh tokens last a day). */
  tokenTtlSeconds?: number;
}

export const EMBEDDED_CLIENT_ID = "berth";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** A page of the demo provider, in one look: its sign-in, and the device flow's. */
function providerPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Berth demo provider</title><meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d1d20}ul{list-style:none;padding:0}li{margin:.5rem 0}
button{width:100%;text-align:left;padding:.75rem 1rem;border:1px solid #c8c8d0;border-radius:.5rem;background:#fff;cursor:pointer;font:inherit;margin:.25rem 0}
button:hover,button:focus{border-color:#3d5afe;outline:2px solid #3d5afe}span{display:block;color:#55555f;font-size:.875rem}
input[type=text]{font:inherit;font-size:1.5rem;letter-spacing:.1em;text-transform:uppercase;padding:.5rem;width:100%;box-sizing:border-box;margin-bottom:.5rem}code{font-size:1.5rem;letter-spacing:.1em}.error{color:#b00020}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

function personPage(uid: string, people: DemoPerson[]): string {
  const buttons = people
    .map(
      (person) =>
        `<li><button type="submit" name="person" value="${escapeHtml(person.id)}"><strong>${escapeHtml(person.name)}</strong><span>${escapeHtml(person.email)} · ${escapeHtml(person.describes)}</span></button></li>`,
    )
    .join("");
  return providerPage("Berth demo provider", `<p>The embedded console's own OpenID provider. Choose who to sign in as:</p>
<form method="post" action="/interaction/${escapeHtml(uid)}/login"><ul>${buttons}</ul></form>`);
}

// The device flow's pages (RFC 8628), for `berth login --device`: enter the code the terminal
// shows, confirm it is the one there, and the terminal is signed in. oidc-provider makes the
// forms (with their CSRF field); these pages only frame them.
type DeviceFlowFeature = NonNullable<NonNullable<Configuration["features"]>["deviceFlow"]>;

const deviceFlowPages: Pick<DeviceFlowFeature, "userCodeInputSource" | "userCodeConfirmSource" | "successSource"> = {
  userCodeInputSource: async (context, form, _out, error) => {
    const said = error ? `<p class="error">${error.name === "AbortedError" ? "The sign-in was cancelled." : "That code is not one waiting to be entered, or it has expired. Check it on the terminal and try again."}</p>` : "";
    context.body = providerPage("Sign in a terminal", `${said}<p>Enter the code <code>berth login --device</code> shows on the terminal:</p>${form}<button type="submit" form="op.deviceInputForm">Continue</button>`);
  },
  userCodeConfirmSource: async (context, form, _client, _deviceInfo, userCode) => {
    context.body = providerPage(
      "Sign in a terminal?",
      `<p>The terminal should be showing this code:</p><p><code>${escapeHtml(userCode)}</code></p><p>Continue only if it is, and you ran <code>berth login --device</code> yourself.</p>${form}
<button type="submit" form="op.deviceConfirmForm">Yes, sign the terminal in</button><button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Cancel</button>`,
    );
  },
  successSource: async (context) => {
    context.body = providerPage("Signed in", "<p>The terminal is signed in. You can close this page.</p>");
  },
};

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new Error("form too large");
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    "Content-Type": type,
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
  });
  response.end(body);
}

/** Starts the provider on 127.0.0.1; Berth's client is registered with the given origins' callbacks. */
export async function startEmbeddedOidcProvider(options: EmbeddedOidcOptions): Promise<EmbeddedOidcProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: randomBytes(8).toString("hex") };
  const ttl = options.tokenTtlSeconds ?? 3600;
  const byId = new Map(DEMO_PEOPLE.map((person) => [person.id, person]));
  const byEmail = new Map(DEMO_PEOPLE.map((person) => [person.email, person]));

  // It stands for an identity provider, another process: Berth's calls to it go in at once.
  const server: Server = admitAtOnce(createServer());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: EMBEDDED_CLIENT_ID,
        // A public client: PKCE stands in for a secret, as for any browser-facing app on loopback.
        token_endpoint_auth_method: "none",
        redirect_uris: options.redirectOrigins.map((origin) => `${origin}/auth/callback`),
        grant_types: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    pkce: { required: () => true },
    scopes: ["openid", "offline_access", "profile", "email", "groups"],
    claims: { profile: ["name", "preferred_username"], email: ["email", "email_verified"], groups: ["groups"] },
    // The ID token carries the claims Berth maps to a Kubernetes user, as most providers' do.
    conformIdTokenClaims: false,
    findAccount: async (_context, id) => {
      const person = byId.get(id);
      if (!person) return undefined;
      return {
        accountId: person.id,
        claims: async () => ({ sub: person.id, name: person.name, preferred_username: person.id, email: person.email, email_verified: true, groups: person.groups }),
      };
    },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    // Berth asks for prompt=login every time, so signing out of Berth is enough to choose someone else.
    features: { devInteractions: { enabled: false }, deviceFlow: { enabled: true, ...deviceFlowPages } },
    ttl: { AccessToken: ttl, IdToken: ttl, AuthorizationCode: 60, DeviceCode: 600, Interaction: 600, Session: 86_400, Grant: 86_400, RefreshToken: 86_400 },
    renderError: async (context, out) => {
      context.type = "html";
      context.body = `<!doctype html><html lang="en"><body><h1>Sign-in failed</h1><p>${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ""))}</p></body></html>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  const serveProvider = provider.callback();

  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const url = new URL(request.url ?? "/", issuer);
      // Browsers ask every site for one; the provider has none, and says so without an error.
      if (url.pathname === "/favicon.ico") return void response.writeHead(204).end();
      const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
      if (!interaction) return serveProvider(request, response);
      const details = await provider.interactionDetails(request, response);
      if (details.prompt.name === "consent") {
        // Berth is the only client, and first-party: consent (which a refresh token needs) is given at once.
        const grant = new provider.Grant({ clientId: EMBEDDED_CLIENT_ID, accountId: details.session!.accountId });
        grant.addOIDCScope(String(details.params.scope ?? "openid"));
        grant.addOIDCClaims(["email", "email_verified", "groups", "name", "preferred_username"]);
        return provider.interactionFinished(request, response, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      }
      const hinted = typeof details.params.login_hint === "string" ? byEmail.get(details.params.login_hint) ?? byId.get(details.params.login_hint) : undefined;
      const chosen = interaction[2] && request.method === "POST" ? byId.get((await readForm(request)).get("person") ?? "") : hinted;
      if (!chosen) return send(response, 200, "text/html; charset=utf-8", personPage(details.uid, DEMO_PEOPLE));
      return provider.interactionFinished(request, response, { login: { accountId: chosen.id } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      const description = (error as { error_description?: string }).error_description;
      if (!response.headersSent) send(response, 400, "text/plain; charset=utf-8", `Sign-in failed: ${(error as Error).message}${description ? ` (${description})` : ""}. Start again from Berth's sign-in page.`);
    });
  });

  return {
    issuer,
    clientId: EMBEDDED_CLIENT_ID,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
