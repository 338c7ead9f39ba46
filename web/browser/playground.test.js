// Browser tests in Debian's chromium, driven by playwright-core: the playground persists
// across a reload, and a write survives the browser being killed right after it resolved.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
test("playground: create a table, insert, filter, reload, find the data", async (t) => {
  const server = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-")));
  t.after(async () => (await b.close(), server.close()));
  const page = await b.ctx.newPage();
  await page.goto(server.url);
  await page.waitForSelector("text=ready in");
  await page.fill("#new-table input", "Planets");
  await page.click("#new-table button");
  await page.waitForSelector('#tables li.active[data-name="Planets"]');
  for (const [rk, moons] of [["Earth", "1"], ["Mars", "2"], ["Jupiter", "95"]]) {
    await page.fill("#editor [name=pk]", "sol");
    await page.fill("#editor [name=rk]", rk);
    await page.evaluate(() => (document.querySelector("#props").innerHTML = ""));
    await page.click("#add-prop");
    await page.fill("#props .prop input >> nth=0", "Moons");
    await page.selectOption("#props .prop select", "Int32");
    await page.fill("#props .prop input >> nth=1", moons);
    await page.click("#editor button[value=create]");
    await page.waitForSelector(`#results td:text-is("${rk}")`);
  }
  await page.fill("#query [name=filter]", "Moons gt 1");
  await page.click("#query button");
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length === 2);
  await page.reload();
  await page.waitForSelector("text=ready in");
  await page.click('#tables li[data-name="Planets"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length === 3);
  await page.screenshot({ path: join(web, "test-results", "playground.png"), fullPage: true });
});

test("a write that resolved survives the browser being killed", async (t) => {
  const server = await serve(web);
  t.after(() => server.close());
  const profile = await mkdtemp(join(tmpdir(), "tabletop-"));
  let b = await launch(profile);
  let page = await b.ctx.newPage();
  await page.goto(server.url);
  const etag = await page.evaluate(async () => {
    const T = await import("./tabletop.js");
    const c = new T.TableClient("crash", "Crash");
    await c.createTable();
    return (await c.createEntity({ partitionKey: "p", rowKey: "r", v: 42 })).etag;
  });
  await b.kill();
  b = await launch(profile);
  t.after(() => b.close());
  page = await b.ctx.newPage();
  await page.goto(server.url);
  const got = await page.evaluate(async () => {
    const T = await import("./tabletop.js");
    const e = await new T.TableClient("crash", "Crash").getEntity("p", "r");
    return [e.v, e.etag];
  });
  assert.deepEqual(got, [42, etag]);
});
