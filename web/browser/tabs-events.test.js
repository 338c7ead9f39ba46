// Change events and live queries across tabs: every tab's commits reach Store._subscribe
// in every tab, and change listeners and live queries are built on it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

test("a change in one tab reaches another tab's listeners and live queries", async (t) => {
  const site = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-tabs-")));
  t.after(async () => (await b.close(), site.close()));
  const open = async () => {
    const page = await b.ctx.newPage();
    await page.goto(`${site.url}browser/blank.html`);
    await page.evaluate(async () => {
      const T = await import("/tabletop.js");
      const client = new T.TableClient("shared", "notes");
      await client.createTable();
      window.seen = [];
      window.live = [];
      client.on("change", (c) => window.seen.push([c.kind, c.rowKey]));
      T.liveQuery(() => client.listEntities()).subscribe((list) => window.live.push(list.map((e) => e.rowKey)));
      window.client = client;
    });
    return page;
  };
  const writer = await open();
  const reader = await open();
  await writer.evaluate(() => window.client.createEntity({ partitionKey: "p", rowKey: "hello", v: 1 }));
  await reader.waitForFunction(() => window.seen.length === 1, null, { timeout: 5000 });
  assert.deepEqual(await reader.evaluate(() => window.seen), [["create", "hello"]]);
  await reader.waitForFunction(() => JSON.stringify(window.live.at(-1)) === '["hello"]', null, { timeout: 5000 });
});
