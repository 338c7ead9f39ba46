// The playground's explorer beyond the grid's basics: columns resized by a drag or the
// keyboard, indexes created and dropped from the page (the plan shows them used), and a
// link that carries the table shown, types and all, into a fresh browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPlayground } from "./playground-page.js";

/** people opens the playground on its People table, the grid filled. */
async function people(t, hash) {
  const page = await openPlayground(t, undefined, hash);
  await page.click('#tables li[data-name="People"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 1);
  return page;
}

const width = (page, col) => page.$eval(`#results th[data-col="${col}"]`, (th) => Math.round(th.getBoundingClientRect().width));

test("a column is resized by dragging its grip or with the arrow keys, and keeps its width", async (t) => {
  const page = await people(t);
  const before = await width(page, "Name");
  const grip = await page.$('#results th[data-col="Name"] .grip');
  await grip.scrollIntoViewIfNeeded();
  const box = await grip.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const dragged = await width(page, "Name");
  assert.ok(Math.abs(dragged - (before + 120)) <= 8, `dragged from ${before} px to ${dragged} px, want about ${before + 120}`);
  assert.equal(await page.getAttribute('#results th[data-col="Name"]', "aria-sort"), "none", "a drag on the grip does not sort");
  const cell = await page.$eval('#results tbody td[data-col="Name"]', (td) => Math.round(td.getBoundingClientRect().width));
  assert.ok(Math.abs(cell - dragged) <= 1, `the column's cells follow: ${cell} px`);

  await page.focus('#results th[data-col="Name"] .grip');
  await page.keyboard.press("ArrowLeft");
  assert.equal(await width(page, "Name"), dragged - 16, "ArrowLeft narrows by 16 px");

  await page.click("#next");
  await page.waitForFunction(() => /page 2/.test(document.querySelector("#count").textContent));
  assert.equal(await width(page, "Name"), dragged - 16, "the next page keeps the width");
});

test("indexes are created, used by a query (the plan says so) and dropped from the page", async (t) => {
  const page = await people(t);
  await page.click("#indexes > summary");
  await page.waitForFunction(() => /none/.test(document.querySelector("#indexes .index-list").textContent));
  await page.selectOption("#indexes [name=prop]", "Age");
  await page.click("#indexes form button");
  await page.waitForFunction(() => document.querySelector('#indexes [data-drop="Age"]'));
  assert.deepEqual(await page.evaluate(() => new window.tabletop.T.TableClient(window.tabletop.store, "People").listIndexes()), ["Age"]);

  await page.fill("#query [name=filter]", "Age ge 40");
  await page.click("#query button");
  await page.waitForFunction(() => /index\(Age\) range/.test(document.querySelector("#count").textContent));
  const ages = await page.$$eval('#results tbody td[data-col="Age"]', (tds) => tds.map((td) => Number(td.textContent)));
  assert.ok(ages.length > 0 && ages.every((a) => a >= 40), `ages ${ages}`);

  await page.click('#indexes [data-drop="Age"]');
  await page.waitForFunction(() => /table scan/.test(document.querySelector("#count").textContent));
  assert.deepEqual(await page.evaluate(() => new window.tabletop.T.TableClient(window.tabletop.store, "People").listIndexes()), []);
  assert.match(await page.textContent("#indexes .index-list"), /none/);
});

test("a link carries the table shown and the sample into a fresh browser, types and all", async (t) => {
  const page = await people(t);
  await page.selectOption("#samples [name=sample]", "query");
  await page.click("#share");
  await page.waitForSelector("#share-link:not([hidden])");
  const link = new URL(await page.getAttribute("#share-link", "href"));
  const read = (p) => p.evaluate(async () => {
    const out = [];
    for await (const e of new window.tabletop.T.TableClient(window.tabletop.store, "People").listEntities({ disableTypeConversion: true })) {
      const { etag, timestamp, ...rest } = e;
      out.push(rest);
    }
    return out;
  });
  const want = await read(page);
  assert.equal(want.length, 36);

  const other = await openPlayground(t, undefined, link.hash);
  await other.waitForFunction(() => /done\n$/.test(document.querySelector("#sample-output").textContent) || !document.querySelector("#sample-error").hidden);
  assert.deepEqual(await read(other), want, "the linked table, every entity and type");
  assert.equal(await other.inputValue("#samples [name=sample]"), "query");
  assert.equal(await other.textContent("#tables li.active span"), "People");

  const bad = await openPlayground(t, undefined, "#table=People&rows=not-deflate");
  await bad.waitForFunction(() => !document.querySelector("#error").hidden);
  assert.match(await bad.textContent("#error"), /InvalidInput[\s\S]*cannot be read/);
  assert.equal((await read(bad)).length, 36, "a damaged link leaves the sample data as it was");
});
