import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect, test } from "./fixtures.ts";

// `berth login` as a person does it: the CLI prints the sign-in address, the browser goes there,
// the person is chosen on the OpenID provider's page, and the browser lands on the CLI's loopback
// page while the CLI, now signed in, says who it is — the way the console itself signs people in.

const BIN = path.join(import.meta.dirname, "..", "bin", "berth.mjs");

// A browser nobody is signed in on.
test.use({ storageState: { cookies: [], origins: [] } });

let home: string;
test.beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "berth-cli-login-"));
});
test.afterEach(() => rmSync(home, { recursive: true, force: true }));

function berth(args: string[]): ChildProcess {
  const { CI: _ci, ...env } = process.env;
  return spawn(process.execPath, [BIN, ...args], { env: { ...env, BERTH_CONFIG: path.join(home, "config.yaml"), NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
}

async function ended(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

/** The address `berth login --no-browser` prints for the person to open. */
function signInAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    child.on("close", (code) => reject(new Error(`berth login ended (${code}) before it printed an address`)));
    createInterface({ input: child.stderr! }).on("line", (line) => {
      const address = /^\s+(http\S+\/auth\/sign-in\?\S+)$/.exec(line)?.[1];
      if (address) resolve(address);
    });
  });
}

/** The address `berth login --device` prints, with the code in it, for a browser on any device. */
function deviceAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    child.on("close", (code) => reject(new Error(`berth login --device ended (${code}) before it printed an address`)));
    createInterface({ input: child.stderr! }).on("line", (line) => {
      const address = /^\s+(http\S+user_code=\S+)$/.exec(line)?.[1];
      if (address) resolve(address);
    });
  });
}

test("berth login --device signs the command line in with a code entered in a browser", async ({ page, baseURL }) => {
  const login = berth(["login", "--server", baseURL!, "--device"]);
  const result = ended(login);
  await page.goto(await deviceAddress(login));
  await page.getByRole("button", { name: "Yes, sign the terminal in" }).click();
  await page.getByRole("button", { name: /Bea Developer/ }).click();
  await expect(page.getByText("The terminal is signed in.")).toBeVisible();
  expect(await result).toMatchObject({ code: 0, stdout: expect.stringContaining("as bea@berth.example") });
});

test("berth login signs the command line in through the browser and the OpenID provider", async ({ page, baseURL }) => {
  const login = berth(["login", "--server", baseURL!, "--no-browser", "-n", "team-a"]);
  const result = ended(login);
  await page.goto(await signInAddress(login));
  await page.getByRole("button", { name: /Alex Developer/ }).click();
  await expect(page.getByRole("heading", { name: "Signed in" })).toBeVisible();
  await expect(page.getByText("berth is signed in as alex@berth.example")).toBeVisible();
  expect(await result).toMatchObject({ code: 0, stdout: expect.stringContaining("as alex@berth.example") });
});

test("the signed-in command line acts as the person it signed in, with what Kubernetes lets them do", async ({ page, baseURL }) => {
  const login = berth(["login", "--server", baseURL!, "--no-browser"]);
  const result = ended(login);
  await page.goto(await signInAddress(login));
  await page.getByRole("button", { name: /Victor Viewer/ }).click();
  expect((await result).code).toBe(0);
  const whoami = await ended(berth(["whoami"]));
  expect(whoami.stdout).toMatch(/Name:\s+victor@berth\.example\nGroups:\s+oidc:viewers\nSigned in with:\s+oidc/);
  const refused = await ended(berth(["create", "sandbox", "not-for-viewers", "-n", "team-a", "--workspace", "ephemeral"]));
  expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining("HTTP 403")]);
});
