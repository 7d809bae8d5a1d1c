import { AccessControl } from "../access/access-control.ts";
import { ensureBootstrapPolicy } from "../access/bootstrap-policy.ts";
import { RbacAuthorizer } from "../access/rbac-authorizer.ts";
import { TokenAuthority } from "../access/token-authority.ts";
import type { Clock } from "../clock.ts";
import type { ObjectStore } from "../store/object-store.ts";

/** Access control for an API server a test assembles by hand (with the bootstrap policy), and the admin token that passes it. */
export function accessForTests(store: ObjectStore, clock: Clock): { access: AccessControl; adminToken: string } {
  ensureBootstrapPolicy(store);
  const tokens = new TokenAuthority(store, () => clock.now());
  return { access: new AccessControl(tokens, new RbacAuthorizer(store)), adminToken: tokens.adminToken };
}
