// The playground at a phone's size and a laptop's, light and dark: no horizontal overflow,
// no control off the screen, no console error, a screenshot of each (test-results/). And
// the grid sorts by a column on a click of its header, and back on a second.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openPlayground, layoutProblems, web } from "./playground-page.js";

for (const [width, height] of [[390, 844], [1280, 800]]) {
  for (const scheme of ["light", "dark"]) {
    test(`playground at ${width}×${height}, ${scheme}`, async (t) => {
      const errors = [];
      const page = await openPlayground(t, async (page) => {
        page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
        page.on("pageerror", (e) => errors.push(String(e)));
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
      });
      await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 0);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme, "the page follows the system's scheme");
      await page.screenshot({ path: join(web, "test-results", `playground-${width}x${height}-${scheme}.png`), fullPage: true });
      assert.deepEqual(await layoutProblems(page), []);
      assert.deepEqual(errors, []);
    });
  }
}

test("the grid sorts by a column, both ways, and the theme toggles and stays", async (t) => {
  const page = await openPlayground(t);
  await page.click('#tables li[data-name="People"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 1);
  const column = (name) =>
    page.evaluate((name) => {
      const i = [...document.querySelectorAll("#results th")].findIndex((th) => th.dataset.col === name);
      return [...document.querySelectorAll("#results tbody tr")].map((tr) => tr.children[i].textContent);
    }, name);
  const ages = async () => (await column("Age")).filter((a) => a !== "null").map(Number);
  await page.click('#results th[data-col="Age"]');
  const up = await ages();
  assert.deepEqual(up, [...up].sort((a, b) => a - b), "ascending");
  assert.equal(await page.getAttribute('#results th[data-col="Age"]', "aria-sort"), "ascending");
  await page.click('#results th[data-col="Age"]');
  const down = await ages();
  assert.deepEqual(down, [...up].reverse(), "descending");
  assert.ok(up.length > 1 && up[0] !== up.at(-1), `the ages ${up} show an order`);

  // The plan that ran, and the query's total.
  assert.match(await page.textContent("#count"), /table scan|partition|index/);
  const all = await page.evaluate(async () => {
    let n = 0;
    for await (const _ of new window.tabletop.T.TableClient(window.tabletop.store, "People").listEntities()) n++;
    return n;
  });
  assert.ok(all > (await page.locator("#results tbody tr").count()), "People spans more than a page");
  await page.click("#total");
  await page.waitForSelector(`#total:text-is("${all} in all")`);

  const before = await page.evaluate(() => document.documentElement.dataset.theme);
  await page.click("#theme");
  const after = await page.evaluate(() => document.documentElement.dataset.theme);
  assert.notEqual(after, before);
  await page.reload();
  await page.waitForSelector("text=ready in");
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), after, "the choice stays");
});

test("CSV: a table exported, imported under another name and exported again is the same, types and all", async (t) => {
  const page = await openPlayground(t);
  // Every EDM type, a comma, a quote, a newline, an empty string and an absent property.
  await page.evaluate(async () => {
    const { T, store } = window.tabletop;
    const c = new T.TableClient(store, "Typed");
    await c.createTable();
    await c.createEntity({ partitionKey: "p", rowKey: "1", S: 'a, "quoted"\nline', Empty: "", I: { value: "7", type: "Int32" }, L: { value: "9007199254740993", type: "Int64" },
      D: { value: "2.5", type: "Double" }, B: { value: "true", type: "Boolean" }, T: { value: "2024-06-01T12:00:00.1234567Z", type: "DateTime" },
      G: { value: "3f2504e0-4f89-11d3-9a0c-0305e82c3301", type: "Guid" }, X: { value: "AAEC", type: "Binary" } });
    await c.createEntity({ partitionKey: "p", rowKey: "2", I: { value: "-1", type: "Int32" } });
  });
  await page.reload(); // the page lists tables as it loads
  await page.waitForSelector("text=ready in");
  await page.click('#tables li[data-name="Typed"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length === 2);
  const exported = async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-csv")]);
    const chunks = [];
    for await (const c of await download.createReadStream()) chunks.push(c);
    return Buffer.concat(chunks).toString("utf8");
  };
  const first = await exported();
  assert.match(first, /^PartitionKey,RowKey,/);
  assert.match(first, /I@Int32/);
  await page.setInputFiles("#import-csv", { name: "TypedCopy.csv", mimeType: "text/csv", buffer: Buffer.from(first) });
  await page.waitForSelector('#tables li.active[data-name="TypedCopy"]');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length === 2);
  assert.equal(await exported(), first, "the round trip changed the CSV");
  const copy = await page.evaluate(async () => {
    const e = await new window.tabletop.T.TableClient(window.tabletop.store, "TypedCopy").getEntity("p", "1", { disableTypeConversion: true });
    return { L: e.L, S: e.S, Empty: e.Empty, X: e.X };
  });
  assert.deepEqual(copy, { L: { value: "9007199254740993", type: "Int64" }, S: { value: 'a, "quoted"\nline', type: "String" }, Empty: { value: "", type: "String" }, X: { value: "AAEC", type: "Binary" } });
  const second = await page.evaluate(async () => {
    const e = await new window.tabletop.T.TableClient(window.tabletop.store, "TypedCopy").getEntity("p", "2", { disableTypeConversion: true });
    return Object.keys(e).filter((k) => !["etag", "timestamp", "partitionKey", "rowKey"].includes(k));
  });
  assert.deepEqual(second, ["I"], "an absent property stays absent");
});

test("the filter builder writes the $filter, which stays editable, and runs it", async (t) => {
  const page = await openPlayground(t);
  await page.click('#tables li[data-name="People"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 1);
  await page.selectOption("#builder [name=prop]", "Age");
  await page.selectOption("#builder [name=op]", "gt");
  await page.fill("#builder [name=value]", "40");
  await page.click("#builder button");
  await page.waitForFunction(() => document.querySelector("#query [name=filter]").value === "Age gt 40");
  // The grid shows the filtered page once every row's Age passes (a stale page would not).
  const agesPass = (lo, hi) =>
    page.waitForFunction(
      ([lo, hi]) => {
        const i = [...document.querySelectorAll("#results th")].findIndex((th) => th.dataset.col === "Age");
        const ages = [...document.querySelectorAll("#results tbody tr")].map((tr) => Number(tr.children[i]?.textContent));
        return i >= 0 && ages.length > 0 && ages.every((a) => a > lo && a <= hi);
      },
      [lo, hi],
    );
  await agesPass(40, Infinity);
  await page.selectOption("#builder [name=prop]", "Age");
  await page.selectOption("#builder [name=op]", "le");
  await page.fill("#builder [name=value]", "50");
  await page.click("#builder button");
  await page.waitForFunction(() => document.querySelector("#query [name=filter]").value === "Age gt 40 and Age le 50");
  await agesPass(40, 50);
});

test("a cell edited in place is saved in its type, and Escape gives up", async (t) => {
  const page = await openPlayground(t);
  await page.click('#tables li[data-name="People"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 1);
  const first = await page.evaluate(() => {
    const tr = document.querySelector("#results tbody tr");
    const cell = (c) => tr.querySelector(`td[data-col="${c}"]`).textContent;
    return { pk: cell("partitionKey"), rk: cell("rowKey") };
  });
  const ageCell = '#results tbody tr:first-child td[data-col="Age"]';
  await page.dblclick(ageCell);
  await page.fill(`${ageCell} input`, "77");
  await page.press(`${ageCell} input`, "Enter");
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "77", ageCell);
  const stored = await page.evaluate(async ({ pk, rk }) => {
    const e = await new window.tabletop.T.TableClient(window.tabletop.store, "People").getEntity(pk, rk, { disableTypeConversion: true });
    return e.Age;
  }, first);
  assert.deepEqual(stored, { value: "77", type: "Int32" });
  await page.dblclick(ageCell);
  await page.fill(`${ageCell} input`, "5");
  await page.press(`${ageCell} input`, "Escape");
  await page.waitForFunction((sel) => !document.querySelector(`${sel} input`) && document.querySelector(sel)?.textContent === "77", ageCell);
});

test("a cell edit the type refuses shows the error and keeps the stored value", async (t) => {
  const page = await openPlayground(t);
  await page.click('#tables li[data-name="People"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 1);
  const ageCell = '#results tbody tr:first-child td[data-col="Age"]';
  const before = await page.textContent(ageCell);
  await page.dblclick(ageCell);
  await page.fill(`${ageCell} input`, "fifteen");
  await page.press(`${ageCell} input`, "Enter");
  await page.waitForSelector("#error:not([hidden])");
  assert.match(await page.textContent("#error"), /Int32/);
  await page.waitForFunction(([sel, v]) => !document.querySelector(`${sel} input`) && document.querySelector(sel)?.textContent === v, [ageCell, before]);
});

test("rows picked in the grid are deleted together", async (t) => {
  const page = await openPlayground(t);
  page.on("dialog", (d) => d.accept());
  await page.click('#tables li[data-name="People"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 2);
  const keys = () => page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.querySelector('td[data-col="partitionKey"]').textContent + "/" + tr.querySelector('td[data-col="rowKey"]').textContent));
  const before = await keys();
  assert.ok(await page.isHidden("#delete-picked"), "no delete button before a pick");
  await page.check("#results tbody tr:nth-child(1) .pick input");
  await page.check("#results tbody tr:nth-child(2) .pick input");
  assert.equal(await page.textContent("#delete-picked"), "Delete 2 selected");
  await page.click("#delete-picked");
  await page.waitForFunction((gone) => ![...document.querySelectorAll("#results tbody tr")].some((tr) => gone.includes(tr.querySelector('td[data-col="rowKey"]').textContent)), before.slice(0, 2).map((k) => k.split("/")[1]));
  const left = await page.evaluate(async (gone) => {
    const c = new window.tabletop.T.TableClient(window.tabletop.store, "People");
    const found = [];
    for (const k of gone) {
      const [pk, rk] = k.split("/");
      await c.getEntity(pk, rk).then(() => found.push(k), () => {});
    }
    return found;
  }, before.slice(0, 2));
  assert.deepEqual(left, [], "the picked entities are gone from the store");
  assert.ok(await page.isHidden("#delete-picked"));
});

test("Microsoft's samples run as written in the page, and a link runs one", async (t) => {
  const page = await openPlayground(t);
  const run = async (name) => {
    await page.selectOption("#samples [name=sample]", name);
    await page.click("#samples button");
    await page.waitForFunction(() => /done\n$/.test(document.querySelector("#sample-output").textContent) || !document.querySelector("#sample-error").hidden);
    assert.ok(await page.isHidden("#sample-error"), `${name}: ${await page.textContent("#sample-error")}`);
    return page.textContent("#sample-output");
  };
  assert.match(await run("createTable"), /table: Orders/);
  assert.match(await run("insert"), /^Marker 5$/m);
  await page.waitForSelector('#tables li[data-name="Orders"]'); // the grid follows
  assert.match(await run("query"), /^1001 Marker 5\n1002 Pen 12$/m);
  assert.match(await run("batch"), /status of each: 204, 204, 204/);
  assert.match(await run("sas"), /sig/);
  const link = await page.getAttribute("#sample-link", "href");
  assert.equal(link, "#sample=sas");

  await page.goto(new URL("#sample=query", page.url()).href);
  await page.reload();
  await page.waitForSelector("text=ready in");
  await page.waitForFunction(() => /done\n$/.test(document.querySelector("#sample-output").textContent));
  assert.equal(await page.inputValue("#samples [name=sample]"), "query");
  assert.match(await page.textContent("#sample-output"), /^1001 Marker 5$/m);
});

test("the grid's columns can be hidden, and its cells walked and edited from the keyboard", async (t) => {
  const page = await openPlayground(t);
  await page.click('#tables li[data-name="People"] span');
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 1);
  await page.click("details.columns:not(.indexes) > summary");
  await page.uncheck('#columns input[value="timestamp"]');
  assert.equal(await page.locator('#results th[data-col="timestamp"]').count(), 0, "timestamp hidden");
  await page.check('#columns input[value="timestamp"]');
  assert.equal(await page.locator('#results th[data-col="timestamp"]').count(), 1, "timestamp shown again");

  await page.focus('#results tbody tr:first-child td[data-col="partitionKey"]');
  const focused = () => page.evaluate(() => [document.activeElement.dataset.col, [...document.activeElement.parentElement.parentElement.children].indexOf(document.activeElement.parentElement)]);
  await page.keyboard.press("ArrowDown");
  assert.deepEqual(await focused(), ["partitionKey", 1]);
  const cols = await page.$$eval("#results th[data-col]", (ths) => ths.map((th) => th.dataset.col));
  for (let i = 0; i < cols.indexOf("Age"); i++) await page.keyboard.press("ArrowRight");
  assert.deepEqual(await focused(), ["Age", 1]);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("66");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('#results tbody tr:nth-child(2) td[data-col="Age"]')?.textContent === "66");
});
