import { NextResponse, type NextRequest } from "next/server";

// Security headers on every page and answer: a Content-Security-Policy whose scripts must carry
// this request's nonce (Next.js puts it on its own scripts when it finds the policy on the
// request), no framing, no MIME sniffing, no referrer leaving the site. Who may see a page is
// decided by the page itself (requireCaller), never here: this file only adds headers.

function contentSecurityPolicy(nonce: string): string {
  const development = process.env.NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // React sets style attributes (the timeline's positions): attributes only, no style elements from elsewhere.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const policy = contentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", policy);
  // Layouts cannot see the path; the sign-in redirect needs it to bring the person back.
  headers.set("x-berth-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("X-Frame-Options", "DENY");
  response.headers.set("Referrer-Policy", "same-origin");
  response.headers.set("Cross-Origin-Opener-Policy", "same-origin");
  response.headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  return response;
}

export const config = {
  // Not Next.js's own static files: they carry no data and are cached. Not the API, the
  // sign-in routes or /metrics either: Next.js buffers the body of every request a proxy sees
  // (up to 10 MB) before the route runs, and the API reads bodies itself, capped
  // (lib/server/request-body.ts); their answers get these headers from lib/server/endpoint-route.ts.
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico|berth.svg|api/|auth/|metrics$).*)" }],
};
