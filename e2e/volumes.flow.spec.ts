import type { APIRequestContext, Page } from "@playwright/test";
import { expect, forgiveRefusedRequests, test } from "./fixtures.ts";

// The Volumes page's actions: a retained claim outlives its sandbox, offers a new sandbox from
// it, and is deleted only through the guarded dialog; a claim grows where its class allows; a
// claim is made in the form, and cloned from its row; the form warns before, and the server
// refuses, what would only fail later.

let counter = 0;
const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

async function createSandbox(request: APIRequestContext, data: Record<string, unknown>): Promise<string> {
  const response = await request.post("/api/v1/sandboxes", { data });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const rowOf = (page: Page, claim: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${claim}\\b`) }) });

test("a retained claim is kept, detached, after its sandbox is deleted; it offers a new sandbox and is deleted through the typed confirmation", async ({ page, request }) => {
  const name = uniqueName("keep");
  const claim = `workspace-${name}`;
  const id = await createSandbox(request, { name, workspace: { claim: { ownership: "retain" } } });

  // While the sandbox uses it, the API refuses to delete it and says who uses it.
  await expect.poll(async () => (await request.delete(`/api/v1/volumes/default/${claim}`)).status(), { timeout: 20_000 }).toBe(409);
  const refused = (await (await request.delete(`/api/v1/volumes/default/${claim}`)).json()) as { code: string; detail: string };
  expect(refused).toMatchObject({ code: "volume-in-use", detail: expect.stringContaining(`sandbox ${name}`) });

  expect((await request.delete(`/api/v1/sandboxes/${id}`)).status()).toBe(200);
  await page.goto("/volumes");
  const row = rowOf(page, claim);
  await expect(row.getByText("Detached", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(row.getByRole("cell").first()).toHaveText(`${name} (deleted)`);
  await expect(row.getByRole("link", { name: `Start a sandbox from ${claim}` })).toHaveAttribute("href", `/sandboxes/new?claim=default/${claim}`);

  await row.getByRole("button", { name: `Delete ${claim}` }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: `Delete claim ${claim}?` });
  await expect(dialog).toContainText(`the workspace of the deleted sandbox ${name}`);
  await expect(dialog).toContainText("cannot be undone");
  const confirm = dialog.getByRole("button", { name: "Delete claim" });
  const typed = dialog.getByRole("textbox", { name: `Type ${claim} to confirm` });
  await typed.fill(claim.slice(0, -1));
  await expect(confirm).toBeDisabled();
  await typed.fill(claim);
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0, { timeout: 20_000 });
});

test("a claim grows where its StorageClass allows expansion, and is not offered where it does not", async ({ page, request }) => {
  const portable = uniqueName("grow");
  const pinned = uniqueName("pinned");
  const ids = [
    await createSandbox(request, { name: portable, workspace: { claim: { ownership: "retain", storageClassName: "portable", size: "1Gi" } } }),
    await createSandbox(request, { name: pinned, workspace: { claim: { ownership: "retain", storageClassName: "local-path" } } }),
  ];
  try {
    await page.goto("/volumes");
    const row = rowOf(page, `workspace-${portable}`);
    await expect(row.getByRole("cell").nth(4)).toHaveText("1Gi", { timeout: 20_000 });
    await expect(rowOf(page, `workspace-${pinned}`)).toBeVisible({ timeout: 20_000 });
    await expect(rowOf(page, `workspace-${pinned}`).getByRole("button", { name: /^Expand/ })).toHaveCount(0);

    await row.getByRole("button", { name: `Expand workspace-${portable}` }).click();
    const dialog = page.getByRole("dialog", { name: `Expand claim workspace-${portable}` });
    const size = dialog.getByRole("textbox", { name: "New size" });
    await size.fill("512Mi");
    await dialog.getByRole("button", { name: "Expand claim" }).click();
    await expect(size).toHaveAccessibleDescription(/larger than the claim's current 1Gi/);
    await expect(size).toHaveValue("512Mi");

    await size.fill("3Gi");
    await dialog.getByRole("button", { name: "Expand claim" }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByRole("cell").nth(4)).toHaveText("3Gi", { timeout: 20_000 });

    // Through the API, the class that cannot grow is named on the size field.
    const refused = await request.patch(`/api/v1/volumes/default/workspace-${pinned}`, { data: { size: "5Gi" } });
    const body = (await refused.json()) as { errors: { field: string; message: string }[] };
    expect([refused.status(), body.errors[0]?.field, body.errors[0]?.message]).toEqual([400, "size", expect.stringContaining("StorageClass local-path does not allow volume expansion")]);
  } finally {
    for (const id of ids) await request.delete(`/api/v1/sandboxes/${id}`);
  }
});

test("a bound claim on node-pinned storage shows Bound and the node it is pinned to", async ({ page, request }) => {
  const name = uniqueName("bound");
  const id = await createSandbox(request, { name, workspace: { claim: { storageClassName: "local-path" } } });
  let node: string | null = null;
  await expect.poll(async () => (node = ((await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as { nodeName: string | null }).nodeName), { timeout: 30_000 }).not.toBeNull();
  await page.goto("/volumes");
  const cells = rowOf(page, `workspace-${name}`).getByRole("cell");
  // Cells: sandbox, ownership, binding, class, size, used, node pinning, state, actions.
  await expect(cells.nth(2).getByText("Bound", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(cells.nth(3)).toHaveText("local-path");
  await expect(cells.nth(6)).toHaveText(node!);
});

test("a claim made in the form is listed bound and free, and is cloned from its row", async ({ page, request }) => {
  const name = uniqueName("made");
  const copy = uniqueName("copy");
  try {
    await page.goto("/volumes");
    await page.getByRole("link", { name: "Create claim" }).click();
    const form = page.getByRole("form", { name: "Create claim" });
    await form.getByRole("textbox", { name: "Name" }).fill(name);
    await form.getByRole("radio", { name: "A class of this cluster" }).check();
    await form.getByRole("combobox", { name: "Class" }).selectOption("portable");
    await form.getByRole("textbox", { name: "Size" }).fill("1Gi");
    await form.getByRole("button", { name: "Create claim" }).click();

    await expect(page).toHaveURL(/\/volumes$/);
    const row = rowOf(page, name);
    await expect(row.getByText("Bound", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(row.getByText("Detached", { exact: true })).toBeVisible();

    await row.getByRole("link", { name: `Clone ${name}` }).click();
    const clone = page.getByRole("form", { name: "Create claim" });
    await expect(clone.getByRole("combobox", { name: "Claim to clone" })).toHaveValue(name);
    await clone.getByRole("textbox", { name: "Name", exact: true }).fill(copy);
    await clone.getByRole("textbox", { name: "Size" }).fill("1Gi");
    await clone.getByRole("button", { name: "Create claim" }).click();
    await expect(rowOf(page, copy).getByText("Bound", { exact: true })).toBeVisible({ timeout: 20_000 });
  } finally {
    for (const claim of [copy, name]) await request.delete(`/api/v1/volumes/default/${claim}`);
  }
});

test("the claim form warns before a restore into a class whose driver would leave the claim empty", async ({ page }) => {
  await page.goto("/volumes/new");
  const form = page.getByRole("form", { name: "Create claim" });
  await form.getByRole("radio", { name: "Restore a snapshot" }).check();
  await form.getByRole("radio", { name: "A class of this cluster" }).check();
  await form.getByRole("combobox", { name: "Class" }).selectOption("local-path");
  await expect(form.getByText("local-path (rancher.io/local-path) does not fill a new volume from a source: the claim would be empty.")).toBeVisible();
});

test("the claim form shows the server's refusal on its field, keeping what was typed", async ({ page, browserErrors }) => {
  const name = uniqueName("restored");
  await page.goto("/volumes/new");
  const form = page.getByRole("form", { name: "Create claim" });
  await form.getByRole("textbox", { name: "Name" }).fill(name);
  await form.getByRole("radio", { name: "Restore a snapshot" }).check();
  await form.getByRole("textbox", { name: "Snapshot to restore" }).fill("no-such-snapshot");
  await form.getByRole("textbox", { name: "Size" }).fill("1Gi");
  await form.getByRole("button", { name: "Create claim" }).click();
  await expect(form.getByText(/has no VolumeSnapshot named no-such-snapshot/)).toBeVisible();
  await expect(form.getByRole("textbox", { name: "Snapshot to restore" })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByRole("textbox", { name: "Name" })).toHaveValue(name);
  forgiveRefusedRequests(browserErrors, 400);
});

test("a platform admin keeps a claim's volume after the claim, confirming what it means", async ({ page, request }) => {
  const name = uniqueName("keepvol");
  expect((await request.post("/api/v1/volumes", { data: { name, size: "1Gi", storageClassName: "portable" } })).status()).toBe(201);
  try {
    await page.goto("/volumes");
    const row = rowOf(page, name);
    await expect(row.getByText("deleted with the claim")).toBeVisible({ timeout: 20_000 });
    await row.getByRole("button", { name: `Keep volume of ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: /^Keep volume pvc-.* after its claim\?$/ });
    await expect(dialog).toContainText("the volume and its data stay (Released)");
    await dialog.getByRole("button", { name: "Set to Retain" }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText("kept after the claim")).toBeVisible({ timeout: 20_000 });
  } finally {
    await request.delete(`/api/v1/volumes/default/${name}`);
  }
});

test("a claim's page takes a snapshot, restores it into a new claim, and deletes it behind a typed confirmation", async ({ page, request }) => {
  const name = uniqueName("snapped");
  const restored = `${name}-restored`;
  expect((await request.post("/api/v1/volumes", { data: { name, size: "1Gi", storageClassName: "portable" } })).status()).toBe(201);
  try {
    await page.goto("/volumes");
    await rowOf(page, name).getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Claim ${name}` })).toBeVisible();
    await page.getByRole("button", { name: "Take snapshot" }).click();
    const snapshots = page.getByRole("region", { name: `Snapshots of ${name}` });
    const row = snapshots.getByRole("row").filter({ hasText: name });
    await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 20_000 });

    await row.getByRole("button", { name: /^Restore / }).click();
    const dialog = page.getByRole("dialog", { name: /^Restore / });
    await expect(dialog.getByRole("textbox", { name: "New claim" })).toHaveValue(restored);
    await dialog.getByRole("button", { name: "Restore into a new claim" }).click();
    await expect(dialog.getByRole("link", { name: restored })).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Start a sandbox on it" })).toHaveAttribute("href", `/sandboxes/new?claim=default%2F${restored}`);
    await dialog.getByRole("button", { name: "Close" }).click();

    await row.getByRole("button", { name: /^Delete / }).click();
    const confirm = page.getByRole("alertdialog", { name: /^Delete snapshot / });
    const snapshot = ((await confirm.getByRole("heading").textContent()) ?? "").replace(/^Delete snapshot (.*)\?$/, "$1");
    await confirm.getByRole("textbox").fill(snapshot);
    await confirm.getByRole("button", { name: "Delete snapshot" }).click();
    await expect(snapshots).toBeHidden({ timeout: 20_000 });
    await expect(page.getByText("No snapshots of this claim yet.")).toBeVisible();
  } finally {
    for (const claim of [restored, name]) await request.delete(`/api/v1/volumes/default/${claim}`);
  }
});

test("a snapshot is restored and a sandbox started on the new claim in one step", async ({ page, request }) => {
  const name = uniqueName("restart");
  const restored = `${name}-restored`;
  expect((await request.post("/api/v1/volumes", { data: { name, size: "1Gi", storageClassName: "portable" } })).status()).toBe(201);
  // A claim is snapshotted once bound: its provisioner takes a moment.
  await expect.poll(async () => (await request.post(`/api/v1/volumes/default/${name}/snapshots`, { data: {} })).status(), { timeout: 20_000 }).toBe(202);
  let sandboxId: string | undefined;
  try {
    await page.goto(`/volumes/default/${name}`);
    const row = page.getByRole("region", { name: `Snapshots of ${name}` }).getByRole("row").filter({ hasText: name });
    await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 20_000 });
    await row.getByRole("button", { name: /^Restore / }).click();
    const dialog = page.getByRole("dialog", { name: /^Restore / });
    await dialog.getByRole("checkbox", { name: "Also start a sandbox on it" }).check();
    await expect(dialog.getByRole("textbox", { name: "Sandbox name" })).toHaveValue(restored);
    await dialog.getByRole("button", { name: "Restore and start the sandbox" }).click();
    await expect(page).toHaveURL(/\/sandboxes\/[0-9a-f-]{36}$/, { timeout: 20_000 });
    sandboxId = page.url().split("/").at(-1);
    await expect(page.getByRole("heading", { level: 1, name: restored })).toBeVisible();
    const sandbox = (await (await request.get(`/api/v1/sandboxes/${sandboxId}`)).json()) as { spec: { workspace: { claim: { claimName: string } } } };
    expect(sandbox.spec.workspace.claim.claimName).toBe(restored);
  } finally {
    if (sandboxId) await request.delete(`/api/v1/sandboxes/${sandboxId}`);
    for (const claim of [restored, name]) await expect.poll(async () => (await request.delete(`/api/v1/volumes/default/${claim}`)).status(), { timeout: 30_000 }).not.toBe(409);
  }
});

test("a claim whose class takes no snapshots says so on its page instead of offering the button", async ({ page, request, browserErrors }) => {
  const name = uniqueName("nosnap");
  const id = await createSandbox(request, { name, workspace: { claim: { ownership: "retain", storageClassName: "local-path" } } });
  try {
    await page.goto(`/volumes/default/workspace-${name}`);
    await expect(page.getByText("Class local-path's driver takes no snapshots")).toBeVisible();
    await expect(page.getByRole("button", { name: "Take snapshot" })).toHaveCount(0);
    // The sandbox may still be starting: its files answer 409 (no running pod yet), and the page offers a helper instead.
    await expect(page.getByRole("button", { name: "Browse files" }).or(page.getByText(/^Read through pod /))).toBeVisible({ timeout: 20_000 });
    forgiveRefusedRequests(browserErrors, 409);
  } finally {
    await request.delete(`/api/v1/sandboxes/${id}`);
  }
});

test("a mounted claim shows how full it is, from its kubelet; one nearly full is flagged on its sandbox's page", async ({ page, request }) => {
  const name = uniqueName("full");
  const claim = `workspace-${name}`;
  const id = await createSandbox(request, { name, workspace: { claim: { size: "1Mi", storageClassName: "portable" } } });
  try {
    await expect.poll(async () => (await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: ["true"] } })).status(), { timeout: 30_000 }).toBe(200);
    const written = await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: ["sh", "-c", "printf '%980000s' x > /sandbox/big.txt"] } });
    expect(written.status()).toBe(200);

    const listed = async () => ((await (await request.get(`/api/v1/volumes?namespace=default&limit=500`)).json()) as { items: { name: string; usedBytes: number | null; capacityBytes: number | null }[] }).items.find((one) => one.name === claim);
    await expect.poll(async () => (await listed())?.capacityBytes, { timeout: 60_000 }).toBe(1024 ** 2);
    expect((await listed())!.usedBytes).toBeGreaterThan(980_000);

    await page.goto("/volumes");
    await expect(rowOf(page, claim).getByRole("meter", { name: `How full ${claim} is` })).toHaveAttribute("aria-valuetext", /^\d+\.\d KiB of 1\.0 MiB used \(9\d%\)$/);

    await page.goto(`/sandboxes/${id}`);
    await expect(page.getByRole("status").filter({ hasText: `Claim ${claim} is nearly full` })).toBeVisible();
  } finally {
    await request.delete(`/api/v1/sandboxes/${id}`);
  }
});

test("a claim's files are read through the sandbox that mounts it: a folder opened, a file downloaded", async ({ page, request }) => {
  const name = uniqueName("browse");
  const id = await createSandbox(request, { name, workspace: { claim: { ownership: "retain", storageClassName: "portable" } } });
  try {
    await expect.poll(async () => (await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: ["sh", "-c", "mkdir -p /sandbox/notes && printf 'ship it\\n' > /sandbox/notes/plan.txt"] } })).status(), { timeout: 30_000 }).toBe(200);
    await page.goto(`/volumes/default/workspace-${name}`);
    const files = page.getByRole("region", { name: `Files of workspace-${name}` });
    await expect(page.getByText(`Read through pod ${name} (container agent)`)).toBeVisible({ timeout: 20_000 });
    await files.getByRole("button", { name: "notes/" }).click();
    await expect(page.getByRole("navigation", { name: "Folder" }).getByRole("button", { name: "notes" })).toHaveAttribute("aria-current", "location");
    const download = page.waitForEvent("download");
    await files.getByRole("link", { name: "Download plan.txt" }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe("plan.txt");
    const body = await (await request.get(`/api/v1/volumes/default/workspace-${name}/files/content?path=/notes/plan.txt`)).text();
    expect(body).toBe("ship it\n");
  } finally {
    await request.delete(`/api/v1/sandboxes/${id}`);
  }
});

test("a claim nothing mounts is browsed through a helper pod started from its page, and its history says so", async ({ page, request }) => {
  const name = uniqueName("helper");
  expect((await request.post("/api/v1/volumes", { data: { name, size: "1Gi", storageClassName: "portable" } })).status()).toBe(201);
  try {
    await page.goto(`/volumes/default/${name}`);
    await expect(page.getByText("No running pod mounts this claim.")).toBeVisible({ timeout: 20_000 });
    await page.getByRole("button", { name: "Browse files" }).click();
    await expect(page.getByText(/^Read through helper pod berth-files-\w+, which mounts the claim read-only/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("This folder is empty.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("list", { name: "Changes to this claim" })).toContainText("volume.reader-start");
  } finally {
    await request.delete(`/api/v1/volumes/default/${name}`);
  }
});

test("a checkpoint's snapshot links from the sandbox's page to the claim's, where it can be restored", async ({ page, request }) => {
  const name = uniqueName("ckpt");
  const id = await createSandbox(request, { name, workspace: { claim: { storageClassName: "portable" } }, disruptionPolicy: { snapshotOnCheckpoint: true } });
  try {
    await expect.poll(async () => (await request.post(`/api/v1/sandboxes/${id}/checkpoint`)).status(), { timeout: 30_000 }).toBe(200);
    await page.goto(`/sandboxes/${id}`);
    const snapshot = page.getByRole("table", { name: "Checkpoints" }).getByRole("link", { name: new RegExp(`^${name}-checkpoint-`) });
    const snapshotName = (await snapshot.textContent())!;
    await snapshot.click();
    await expect(page.getByRole("heading", { level: 1, name: `Claim workspace-${name}` })).toBeVisible();
    await expect(page.locator(`[id="snapshot-${snapshotName}"]`).getByRole("button", { name: /^Restore / })).toBeVisible({ timeout: 20_000 });
  } finally {
    await request.delete(`/api/v1/sandboxes/${id}`);
  }
});

test("what is left over is deleted in one step behind a typed confirmation, each deletion audited", async ({ page, request }) => {
  const unused = uniqueName("unused");
  const released = uniqueName("released");
  const snapped = uniqueName("snapped-gone");
  for (const name of [unused, released, snapped]) expect((await request.post("/api/v1/volumes", { data: { name, size: "1Gi", storageClassName: "portable" } })).status()).toBe(201);
  // A volume kept after its claim: Retain, then the claim deleted.
  const volumeOf = async (claim: string) =>
    ((await (await request.get("/api/v1/volumes?namespace=default&limit=500")).json()) as { items: { name: string; persistentVolume: { name: string } | null }[] }).items.find((one) => one.name === claim)?.persistentVolume?.name;
  await expect.poll(() => volumeOf(released), { timeout: 20_000 }).toBeTruthy();
  const volume = (await volumeOf(released))!;
  expect((await request.patch(`/api/v1/persistent-volumes/${volume}`, { data: { reclaimPolicy: "Retain" } })).status()).toBe(200);
  expect((await request.delete(`/api/v1/volumes/default/${released}`)).status()).toBe(200);
  // A snapshot whose claim is gone.
  await expect.poll(async () => (await request.post(`/api/v1/volumes/default/${snapped}/snapshots`, { data: { name: `${snapped}-snap` } })).status(), { timeout: 20_000 }).toBe(202);
  await expect.poll(async () => ((await (await request.get(`/api/v1/volumes/default/${snapped}/snapshots`)).json()) as { items: { readyToUse: boolean }[] }).items[0]?.readyToUse, { timeout: 20_000 }).toBe(true);
  expect((await request.delete(`/api/v1/volumes/default/${snapped}`)).status()).toBe(200);

  await page.goto("/volumes");
  await page.getByRole("link", { name: "Clean up" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Clean up storage" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Claims no live sandbox uses" }).getByRole("row").filter({ hasText: unused })).toContainText("no sandbox");
  // The view is read once per visit: look again until the volume is Released and the claim gone.
  const afterReload = async (checkbox: string) => {
    await page.reload();
    await expect(page.getByRole("heading", { name: "Snapshots of deleted claims" })).toBeVisible();
    return page.getByRole("checkbox", { name: checkbox }).count();
  };
  await expect.poll(() => afterReload(`Select volume ${volume}`), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => afterReload(`Select snapshot ${snapped}-snap`), { timeout: 30_000 }).toBe(1);
  for (const label of [`claim ${unused}`, `volume ${volume}`, `snapshot ${snapped}-snap`]) await page.getByRole("checkbox", { name: `Select ${label}` }).check();

  await page.getByRole("button", { name: "Delete selected (3)" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete 3 things?" });
  const confirm = dialog.getByRole("button", { name: "Delete 3" });
  await dialog.getByRole("textbox", { name: "Type delete 3 to confirm" }).fill("delete 2");
  await expect(confirm).toBeDisabled();
  await dialog.getByRole("textbox", { name: "Type delete 3 to confirm" }).fill("delete 3");
  await confirm.click();
  await expect(dialog.getByRole("status")).toHaveText("3 of 3 deleted.", { timeout: 20_000 });
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("checkbox", { name: `Select claim ${unused}` })).toHaveCount(0, { timeout: 20_000 });

  const audited = (await (await request.get("/api/v1/audit?limit=50")).json()) as { items: { action: string; targetId: string }[] };
  expect(audited.items.filter((entry) => [`default/${unused}`, volume, `default/${snapped}`].includes(entry.targetId)).map((entry) => entry.action)).toEqual(
    expect.arrayContaining(["volume.delete", "volume.pv-delete", "volume.snapshot-delete"]),
  );
});

test("a node-pinned workspace is moved to a portable class from its page: the copy's end shown, the old claim kept", async ({ page, request }) => {
  const name = uniqueName("move");
  const claim = `workspace-${name}`;
  const id = await createSandbox(request, { name, workspace: { claim: { ownership: "retain", storageClassName: "local-path" } } });
  await expect.poll(async () => (await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: ["sh", "-c", "printf 'keep me\\n' > /sandbox/notes.txt"] } })).status(), { timeout: 30_000 }).toBe(200);
  expect((await request.delete(`/api/v1/sandboxes/${id}`)).status()).toBe(200);
  // A claim is moved once nothing uses it: the sandbox's pod is gone.
  await expect.poll(async () => ((await (await request.get("/api/v1/volumes?namespace=default")).json()) as { items: { name: string; attachedTo: unknown }[] }).items.find((one) => one.name === claim)?.attachedTo, { timeout: 30_000 }).toBeNull();
  try {
    await page.goto(`/volumes/default/${claim}`);
    await expect(page.getByText(/^Its volume lives on node \S+ alone/)).toBeVisible();
    await page.getByRole("button", { name: "Move to a portable class" }).click();
    const dialog = page.getByRole("dialog", { name: `Move ${claim} to a portable class` });
    await expect(dialog.getByRole("combobox", { name: "Portable class" })).toHaveValue("portable");
    await expect(dialog.getByRole("textbox", { name: "New claim" })).toHaveValue(`${claim}-moved`);
    await dialog.getByRole("button", { name: "Copy into the new claim" }).click();
    await expect(dialog).toBeHidden();
    const moves = page.getByRole("list", { name: `Moves of ${claim}` });
    await expect(moves.getByRole("status")).toHaveText(/^Copied/, { timeout: 30_000 });
    await expect(moves.getByRole("link", { name: `Start a sandbox on ${claim}-moved` })).toHaveAttribute("href", `/sandboxes/new?claim=default%2F${claim}-moved`);
    await expect(moves).toContainText(`${claim} is kept as it was`);

    expect((await request.post(`/api/v1/volumes/default/${claim}-moved/files/reader`)).status()).toBe(200);
    expect(await (await request.get(`/api/v1/volumes/default/${claim}-moved/files/content?path=/notes.txt`)).text()).toBe("keep me\n");
    await page.reload();
    await expect(page.getByRole("list", { name: "Changes to this claim" })).toContainText("volume.move");
  } finally {
    // The old claim is the person's to delete once they have the copy; the copy stays, its reader helper expiring by itself.
    await request.delete(`/api/v1/volumes/default/${claim}`);
  }
});
