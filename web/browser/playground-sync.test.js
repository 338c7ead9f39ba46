// The playground connects to the server that serves it (as under `make run`): it lists
// the server's tables, syncs one into the browser with its status visible, shows what
// the server's other clients write, and pushes what is edited in the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { TableClient, AzureNamedKeyCredential } from "@azure/data-tables";
import { launch } from "./chromium.js";
import { startNative, DEV_KEY } from "../test/servers.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

test("playground: connect to the server, sync a table, see both sides' writes", async (t) => {
  const server = await startNative(["-web", web]);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-pgsync-")));
  t.after(async () => (await b.close(), await server.stop()));
  const people = new TableClient(server.url, "people", new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY), { allowInsecureConnection: true });
  await people.createTable();
  await people.upsertEntity({ partitionKey: "uk", rowKey: "ada", name: "Ada" });

  const page = await b.ctx.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("dialog", (d) => d.accept()); // "Replace the local table people (the sample People)?"
  await page.goto(`${server.origin}/`);
  await page.waitForSelector("text=ready in");
  await page.click("#connect");
  await page.click('#remote-tables button[data-sync="people"]');
  await page.waitForSelector('#sync-status li[data-table="people"] .state:text-is("synced")');
  await page.waitForSelector('#results td:text-is("Ada")');
  assert.match(await page.textContent('#sync-status li[data-table="people"]'), /0 pending.*change feed/);

  // Another client writes on the server: the page shows it after a sync.
  await people.upsertEntity({ partitionKey: "uk", rowKey: "bob", name: "Bob" });
  await page.click('#remote-tables button[data-sync="people"]');
  await page.waitForSelector('#results td:text-is("Bob")');

  // An edit in the page reaches the server.
  await page.fill("#editor [name=pk]", "uk");
  await page.fill("#editor [name=rk]", "cy");
  await page.evaluate(() => (document.querySelector("#props").innerHTML = ""));
  await page.click("#add-prop");
  await page.fill("#props .prop input >> nth=0", "name");
  await page.fill("#props .prop input >> nth=1", "Cy");
  await page.click("#editor button[value=create]");
  let cy;
  for (let i = 0; i < 100 && !cy; i++) {
    cy = await people.getEntity("uk", "cy").catch(() => undefined);
    if (!cy) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(cy?.name, "Cy");
  await page.waitForSelector('#sync-status li[data-table="people"] .pending:text-is("0 pending")');
  await page.waitForSelector('#tables li[data-name="people"] .badge'); // the list says it is synced

  // A conflict: the server's Ada changes while the page edits its own; the server wins
  // (the default), the conflict is listed, and the editor shows the version kept.
  await page.click('#results td:text-is("Ada")');
  await page.waitForFunction(() => document.querySelector("#editor [name=rk]").value === "ada");
  await b.ctx.setOffline(true); // the page's edit is made before it hears of the server's
  await page.fill("#props .prop input >> nth=1", "Ada (page)");
  await page.click("#editor button[value=merge]");
  await page.waitForSelector("#etag:text-matches('saved')");
  await people.upsertEntity({ partitionKey: "uk", rowKey: "ada", name: "Ada (server)" }, "Replace");
  await b.ctx.setOffline(false);
  await page.waitForSelector('#conflicts li:has-text("uk/ada")');
  await page.waitForFunction(() => document.querySelector("#props .prop input:nth-of-type(2)")?.value === "Ada (server)");

  // Pause: an edit in the page queues (the pending count says so) and the server's writes
  // wait; Resume sends the one and brings the other, and the page loads paused.
  await page.click('#sync-status button[data-pause="people"]');
  await page.waitForSelector('#sync-status li[data-table="people"] .state:text-is("paused")');
  await page.fill("#editor [name=rk]", "eve");
  await page.fill("#props .prop input >> nth=1", "Eve");
  await page.click("#editor button[value=create]");
  await page.waitForSelector('#sync-status li[data-table="people"] .pending:text-is("1 pending")');
  await people.upsertEntity({ partitionKey: "uk", rowKey: "fay", name: "Fay" });
  await page.reload();
  await page.waitForSelector('#sync-status li[data-table="people"] .state:text-is("paused")');
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await people.getEntity("uk", "eve").catch((e) => e.statusCode), 404, "a paused sync pushed");
  assert.equal(await page.locator('#results td:text-is("Fay")').count(), 0, "a paused sync pulled");
  await page.click('#sync-status button[data-resume="people"]');
  await page.waitForSelector('#results td:text-is("Fay")');
  await page.waitForSelector('#sync-status li[data-table="people"] .pending:text-is("0 pending")');
  assert.equal((await people.getEntity("uk", "eve")).name, "Eve");

  // Stop: the table stays, as a local one; the server's later writes do not arrive.
  await page.click('#sync-status button[data-stop="people"]');
  await page.waitForFunction(() => !document.querySelector('#sync-status li[data-table="people"]'));
  await page.waitForFunction(() => !document.querySelector('#tables li[data-name="people"] .badge'));
  await people.upsertEntity({ partitionKey: "uk", rowKey: "dee", name: "Dee" });
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await page.locator('#results td:text-is("Dee")').count(), 0, "a stopped table still synced");
  assert.ok((await page.locator('#results td:text-is("Bob")').count()) > 0, "the local table stays");
  await page.screenshot({ path: join(web, "test-results", "playground-sync.png"), fullPage: true });
  assert.deepEqual(problems, []);
});
