// Browser tests in Debian's chromium, driven by playwright-core: the playground persists
// across a reload, and a write survives the browser being killed right after it resolved.
import { test } from "node:test";
import { spawn } from "node:child_process";
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
  const fetched = requests(page);
  await page.goto(server.url);
  await page.waitForSelector("text=ready in");
  assertOneFile(fetched, server.url);
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
  await page.waitForSelector("text=ready in");
  const etag = await page.evaluate(async () => {
    const { T } = window.tabletop; // the playground's module: one engine in the page
    const c = new T.TableClient("crash", "Crash");
    await c.createTable();
    return (await c.createEntity({ partitionKey: "p", rowKey: "r", v: 42 })).etag;
  });
  await b.kill();
  b = await launch(profile);
  t.after(() => b.close());
  page = await b.ctx.newPage();
  await page.goto(server.url);
  await page.waitForSelector("text=ready in");
  const got = await page.evaluate(async () => {
    const { T } = window.tabletop;
    const e = await new T.TableClient("crash", "Crash").getEntity("p", "r");
    return [e.v, e.etag];
  });
  assert.deepEqual(got, [42, etag]);
});

/** requests records the URL of every request the page makes. */
function requests(page) {
  const urls = [];
  page.on("request", (r) => urls.push(r.url()));
  return urls;
}

/**
 * assertOneFile checks that the page at base loaded the module as the one file `make web`
 * builds, with the engine beside it, once: none of the source's modules, one wasm.
 */
function assertOneFile(urls, base) {
  const paths = urls.filter((u) => u.startsWith(base)).map((u) => new URL(u).pathname);
  assert.deepEqual(paths.filter((p) => /\/src\/|^\/(web\/)?tabletop\.js$/.test(p)), [], "no module of the source");
  assert.equal(paths.filter((p) => p.endsWith("/dist/tabletop.js")).length, 1, "the one-file module, once");
  assert.equal(paths.filter((p) => p.endsWith(".wasm")).length, 1, "one engine");
}

/** watch records the page's console errors and failed responses. */
function watch(page) {
  const problems = [];
  page.on("console", (m) => m.type() === "error" && !m.location().url.endsWith("/favicon.ico") && problems.push(`console: ${m.text()} (${m.location().url})`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.request().method()} ${r.url()} ${r.status()}`));
  return problems;
}

/** overflow is how far the page is wider than the window, in CSS pixels. */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test("playground: wide results scroll in their panel, phone size works, errors stay where they belong", async (t) => {
  const server = await serve(web);
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-")));
  t.after(async () => (await b.close(), server.close()));
  const page = await b.ctx.newPage();
  const problems = watch(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url);
  await page.waitForSelector("text=ready in");

  // A table wide enough to overflow any window: the page must not widen.
  const wide = { partitionKey: "w", rowKey: "1" };
  for (let i = 0; i < 40; i++) wide[`Column${i}`] = "a fairly long value " + i;
  await page.setInputFiles("#import", { name: "Wide.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify({ table: "Wide", entities: [wide] })) });
  await page.waitForSelector('#tables li.active[data-name="Wide"]');
  await page.click('#tables li[data-name="Wide"] span');
  await page.waitForSelector('#results td:text-is("a fairly long value 39")');
  assert.ok((await overflow(page)) <= 0, `page wider than the window by ${await overflow(page)} px`);
  for (const sel of ["#query button", "#next"]) {
    const box = await page.locator(sel).boundingBox();
    assert.ok(box.x + box.width <= 1280, `${sel} leaves the screen at x=${box.x + box.width}`);
  }
  const results = await page.evaluate(() => { const r = document.querySelector(".results"); return r.scrollWidth > r.clientWidth; });
  assert.ok(results, "the results panel scrolls");

  // Examples belong to the table shown.
  const examples = await page.textContent("#examples");
  assert.match(examples, /PartitionKey eq 'w'/);
  assert.doesNotMatch(examples, /Age|City|Salary/);
  await page.click('#tables li[data-name="People"] span');
  await page.waitForFunction(() => /Age|City|Name/.test(document.querySelector("#examples").textContent));
  await page.click("#examples a >> nth=0");
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 0);

  // A failed query leaves no old results under its error.
  await page.fill("#query [name=filter]", "Age gt");
  await page.click("#query button");
  await page.waitForSelector("#error:not([hidden])");
  assert.equal(await page.locator("#results tbody tr").count(), 0);

  // The batch panel reports in its own panel, success and failure.
  await page.click("#batch button");
  await page.waitForSelector("#batch-result:text-matches('transaction applied')");
  await page.fill("#batch textarea", "[not json");
  await page.click("#batch button");
  await page.waitForSelector("#batch-error:not([hidden])");
  assert.equal(await page.textContent("#batch-result"), "", "no stale success beside the error");
  assert.equal(await page.isHidden("#error"), false, "the query error is still the query's");
  assert.match(await page.textContent("#batch-error"), /JSON|Unexpected|SyntaxError/);

  // Phone size: nothing wider than the window.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#tables li[data-name="Wide"] span');
  await page.waitForSelector('#results td:text-is("a fairly long value 39")');
  assert.ok((await overflow(page)) <= 0, `page wider than a phone by ${await overflow(page)} px`);
  const run = await page.locator("#query button").boundingBox();
  assert.ok(run.x + run.width <= 390, "Run is on screen");
  await page.screenshot({ path: join(web, "test-results", "playground-phone.png"), fullPage: true });

  assert.deepEqual(problems.filter((p) => !/Age gt|InvalidInput|status of 400/.test(p)), []);
});

/** runServer starts the native server (make run's program) serving web/ and resolves with { url, stop }. */
async function runServer() {
  const repo = join(web, "..");
  // Its own process group, so that stop ends go run and the server it started.
  const proc = spawn("go", ["run", "./worker/tabletop", "-addr", "127.0.0.1:0", "-data", ":memory:", "-quiet", "-web", web], { cwd: repo, detached: true });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/Tabletop listening on (http:\S+)/);
      if (m) resolve(m[1] + "/");
    });
    proc.on("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return { url, stop: () => process.kill(-proc.pid) };
}

test("playground under make run: no failed request, no console error", async (t) => {
  const server = await runServer();
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-")));
  t.after(async () => (await b.close(), server.stop()));
  const page = await b.ctx.newPage();
  const problems = watch(page);
  const fetched = requests(page);
  await page.goto(server.url);
  await page.waitForSelector("text=ready in");
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 0);
  assert.deepEqual(problems, []);
  assertOneFile(fetched, server.url);
});
