import type { Metadata } from "next";
import { connection } from "next/server";
import { Brand } from "@/app/components/brand.tsx";
import { BERTH_ROLES } from "@/lib/domain/berth-roles.ts";
import { DEMO_PEOPLE } from "@/lib/identity/demo-people.ts";
import { safeReturnTo } from "@/lib/server/sign-in-flow.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import styles from "./sign-in.module.css";
import { SigningOut } from "./signing-out.tsx";
import { TokenSignIn } from "./token-sign-in.tsx";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

/**
 * How a person signs in, in the way this Berth is configured: through the OpenID provider (on the
 * embedded defaults, the demo provider and its people), or with a Kubernetes token.
 */
export default async function SignInPage({ searchParams }: Props) {
  await connection();
  const query = await searchParams;
  const returnTo = safeReturnTo(one(query.returnTo));
  const error = one(query.error);
  const { config } = await getRuntime();
  const auth = config.auth;
  const embedded = auth.mode === "oidc" && auth.oidc?.issuer === "embedded";
  const signInHref = (person?: string) => `/auth/sign-in?${new URLSearchParams({ returnTo, ...(person ? { person } : {}) })}`;
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <Brand />
        <h1 className={styles.title}>Sign in to Berth</h1>
        {one(query.signingOut) ? <SigningOut className={styles.note} /> : null}
        {one(query.signedOut) ? <p role="status" className={styles.note}>You are signed out.</p> : null}
        {error ? (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        ) : null}
        {auth.mode === "oidc" && embedded ? (
          <>
            <p className={styles.lead}>
              This console runs on its embedded defaults: a local OpenID provider signs in these demo people, and the embedded cluster&apos;s RBAC decides what each may do.
            </p>
            <ul className={styles.people} aria-label="Demo people">
              {DEMO_PEOPLE.map((person) => (
                <li key={person.id}>
                  <a className={styles.person} href={signInHref(person.email)}>
                    <strong>{person.name}</strong>
                    <span>
                      {person.email} · {person.describes}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
            <p className={styles.note}>
              Or <a href={signInHref()}>choose on the provider&apos;s own page</a>.
            </p>
          </>
        ) : null}
        {auth.mode === "oidc" && !embedded ? (
          <p>
            <a className={styles.primary} href={signInHref()}>
              Sign in with {auth.oidc ? new URL(auth.oidc.issuer).host : "your provider"}
            </a>
          </p>
        ) : null}
        {auth.mode === "token" ? <TokenSignIn returnTo={returnTo} /> : null}
        {auth.mode === "proxy" ? <p className={styles.lead}>This Berth is reached through an authenticating proxy, which signs you in. Reach it through the proxy&apos;s address.</p> : null}
        <details className={styles.roles}>
          <summary>What the Berth roles let you do</summary>
          <dl>
            {BERTH_ROLES.map((role) => (
              <div key={role.name}>
                <dt>{role.name}</dt>
                <dd>{role.description}</dd>
              </div>
            ))}
          </dl>
        </details>
      </div>
    </main>
  );
}
