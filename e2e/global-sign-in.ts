import type { FullConfig } from "@playwright/test";
import { signInEveryone } from "./signed-in.ts";

/** After the servers are up: every demo person signed in on every project's server. */
export default async function globalSetup(config: FullConfig): Promise<void> {
  for (const project of config.projects) {
    const baseURL = project.use.baseURL;
    if (baseURL) await signInEveryone(project.name, baseURL);
  }
}
