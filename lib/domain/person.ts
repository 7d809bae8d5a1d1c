import { z } from "zod";

// Who is asking, as Kubernetes knows people: a user name, its groups, and optionally a uid and
// extra attributes. Berth proves who the person is (lib/identity); Kubernetes decides what they
// may do, so this is exactly what goes into impersonation headers and SubjectAccessReviews.

export const personSchema = z.object({
  username: z.string().min(1),
  uid: z.string().min(1).optional(),
  groups: z.array(z.string().min(1)),
  extra: z.record(z.string(), z.array(z.string())).optional(),
});
export type Person = z.infer<typeof personSchema>;

/** Kubernetes adds this group to every authenticated user; it is never sent, only implied. */
export const AUTHENTICATED_GROUP = "system:authenticated";

/** How the person proved who they are. */
export const SIGN_IN_METHODS = ["oidc", "token", "proxy", "none"] as const;
export const signInMethodSchema = z.enum(SIGN_IN_METHODS);
export type SignInMethod = z.infer<typeof signInMethodSchema>;

/** The groups a person names, without the ones Kubernetes adds to everybody. */
export function ownGroups(person: Person): string[] {
  return person.groups.filter((group) => group !== AUTHENTICATED_GROUP);
}

/** A stable key for caches of decisions about this person (groups in any order are one person). */
export function personKey(person: Person): string {
  const extra = Object.entries(person.extra ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([person.username, person.uid ?? "", [...new Set(person.groups)].sort(), extra]);
}
