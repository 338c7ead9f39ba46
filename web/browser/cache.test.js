// The memory budget in Chromium, in every tab: two tabs of one profile each read a store
// of about 12 MB in full, twice, with cacheBytes 1 MiB, and each keeps about that loaded
// (the engine's heap far below a tab reading the same store with the default budget),
// while every read and write stays exact.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";
import { fill } from "./fill.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const ROWS = 12000;

/** open opens the store "big" in a new tab of b, with options, as window.app. */
async function open(b, site, options) {
  const page = await b.ctx.newPage();
  await page.goto(`${site.url}browser/blank.html`);
  await page.evaluate(async (options) => {
    const T = await import("/tabletop.js");
    const store = await T.openStore("big", options);
    window.app = { store, c: new T.TableClient(store, "things"), heap: () => Number(store._exec("heapBytes", []).json) };
  }, options);
  return page;
}

/** readAll reads every entity in the tab and checks each; it resolves with the engine's heap after. */
const readAll = (page) =>
  page.evaluate(async (rows) => {
    let n = 0;
    for await (const e of window.app.c.listEntities()) {
      if (e.n !== Number(e.rowKey)) throw new Error(`${e.rowKey} holds ${e.n}`);
      n++;
    }
    if (n !== rows) throw new Error(`read ${n} entities of ${rows}`);
    return window.app.heap();
  }, ROWS);

test("every tab keeps about cacheBytes loaded through full reads of a larger store", async (t) => {
  const site = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-cache-")));
  t.after(async () => (await b.close(), site.close()));
  const filler = await open(b, site, {});
  await fill(filler, ROWS);
  await filler.close();

  const budget = 1 << 20;
  const tabs = [await open(b, site, { cacheBytes: budget }), await open(b, site, { cacheBytes: budget })];
  const heaps = [];
  for (let pass = 0; pass < 2; pass++) heaps.push(...(await Promise.all(tabs.map(readAll))));
  for (const [i, tab] of tabs.entries()) {
    const loaded = await tab.evaluate(() => window.app.store._loadedBytes);
    assert.ok(loaded <= budget, `tab ${i}: ${loaded} bytes loaded after the reads, over ${budget}`);
  }
  // A write in one tab, to a range the other dropped, reads back exact in both.
  await tabs[0].evaluate(() => window.app.c.updateEntity({ partitionKey: "p0", rowKey: "00007", v: "changed", n: 7 }, "Merge"));
  for (const tab of tabs) {
    assert.equal(await tab.evaluate(async () => (await window.app.store.sync(), (await window.app.c.getEntity("p0", "00007")).v)), "changed");
  }
  const unbounded = await readAll(await open(b, site, {}));
  const bounded = Math.max(...heaps);
  t.diagnostic(`engine heap after full reads of ${ROWS} entities of 1 KB: at most ${(bounded / 1e6).toFixed(1)} MB per tab with cacheBytes 1 MiB, ${(unbounded / 1e6).toFixed(1)} MB with the default`);
  assert.ok(unbounded > bounded + 6e6, `bounded ${bounded}, default ${unbounded}`);
});
