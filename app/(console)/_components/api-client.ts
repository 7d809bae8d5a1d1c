import { allPages, createBerthClient } from "@/lib/client/berth-client.ts";
import { ApiProblem, type FieldProblem } from "@/lib/client/api-problem.ts";

export { ApiProblem, type FieldProblem };

// The browser's one way to call Berth's API: the typed client of the endpoint table, on the
// page's own origin with the session cookie, a refusal turned into the server's own
// problem+json words (what failed, what to do, which fields), so a page shows them where the
// person acted.

/** The session ran out (or was signed out elsewhere): sign in again and come back here. */
function sendToSignIn(): void {
  if (typeof window === "undefined") return;
  const here = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`/sign-in?${new URLSearchParams({ returnTo: here })}`);
}

export const api = createBerthClient({ server: "", onUnauthorized: sendToSignIn });

export type SendResult<Answer = unknown> = { ok: true; body: Answer } | { ok: false; message: string; fields: FieldProblem[] };

/** A write whose refusal a form shows as a message and field errors rather than as a thrown error. */
export async function send<Answer>(write: () => Promise<Answer>): Promise<SendResult<Answer>> {
  try {
    return { ok: true, body: await write() };
  } catch (error) {
    const problem = ApiProblem.from(error, "The change failed");
    return { ok: false, message: problem.detail, fields: problem.fields };
  }
}

/**
 * Every item of a paginated list, 500 at a time; `what` names the list in the error a page
 * shows when one of them fails.
 */
export async function everyPage<Item>(what: string, page: (query: { limit: number; cursor?: string }) => Promise<{ items: Item[]; nextCursor: string | null }>): Promise<Item[]> {
  try {
    return await allPages((cursor) => page({ limit: 500, ...(cursor ? { cursor } : {}) }));
  } catch (error) {
    throw error instanceof Error ? new Error(`Listing ${what} failed: ${error.message}`, { cause: error }) : error;
  }
}
