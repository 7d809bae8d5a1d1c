// Who a request to the simulated API server is from, as kube-apiserver's authenticators report it.

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const AUTHENTICATED = "system:authenticated";
export const UNAUTHENTICATED = "system:unauthenticated";
export const MASTERS = "system:masters";

export const ANONYMOUS: UserInfo = { username: "system:anonymous", groups: [UNAUTHENTICATED] };

/** The user name Kubernetes gives a service account. */
export const serviceAccountUser = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;

export function serviceAccountGroups(namespace: string): string[] {
  return ["system:serviceaccounts", `system:serviceaccounts:${namespace}`, AUTHENTICATED];
}

/** Every authenticated user is also in system:authenticated (once). */
export function withAuthenticated(user: UserInfo): UserInfo {
  return user.groups.includes(AUTHENTICATED) ? user : { ...user, groups: [...user.groups, AUTHENTICATED] };
}
