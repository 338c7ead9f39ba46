// The one-file module keeps the engine's wasm in Cache Storage (web/src/wasmcache.js):
// the next load compiles that copy without a request; only the bytes of the module's own
// build are kept, and another build's copy is deleted when it is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./serve.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const wasmBytes = await readFile(join(web, "dist", "tabletop.wasm"));
const build = createHash("sha256").update(wasmBytes).digest("hex").slice(0, 16);

/** start serves web/ and opens its blank page in a new browser; it resolves with { server, page, wasmRequests }. */
async function start(t) {
  const server = await serve(web);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args });
  t.after(async () => (await browser.close(), server.close()));
  const page = await (await browser.newContext()).newPage();
  const wasmRequests = [];
  page.on("request", (r) => r.url().endsWith(".wasm") && wasmRequests.push(r.url()));
  await page.goto(`${server.url}browser/blank.html`);
  return { server, page, wasmRequests };
}

/** use imports dist/tabletop.js in the page and round-trips an entity through an in-memory store. */
const use = (page) =>
  page.evaluate(async () => {
    const T = await import("/dist/tabletop.js");
    const store = await T.openStore("cache", { inMemory: true });
    const c = new T.TableClient(store, "Cached");
    await c.createTable();
    await c.createEntity({ partitionKey: "p", rowKey: "r", n: 7 });
    const n = (await c.getEntity("p", "r")).n;
    await store.close();
    return n;
  });

/**
 * keys lists the URLs in the engine's cache, sorted, once they are want (sorted) or ms
 * have passed: the wasm is stored in the background. With want empty it waits the whole
 * ms, for a store that should not happen.
 */
const keys = (page, want, ms) =>
  page.evaluate(
    async ([want, ms]) => {
      const cache = await caches.open("tabletop-engine");
      for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 50))) {
        const urls = (await cache.keys()).map((r) => r.url).sort();
        if ((want.length > 0 && urls.join() === want.join()) || Date.now() > end) return urls;
      }
    },
    [[...want].sort(), ms],
  );

test("engine cache", async (t) => {
  await t.test("OK", async (t) => {
    const { server, page, wasmRequests } = await start(t);
    assert.equal(await use(page), 7);
    const kept = [`${server.url}dist/tabletop.wasm?tabletop-build=${build}`];
    assert.deepEqual(await keys(page, kept, 10_000), kept);
    assert.equal(wasmRequests.length, 1);
    await page.reload();
    assert.equal(await use(page), 7);
    assert.equal(wasmRequests.length, 1, "the second load fetches no wasm");
  });

  await t.test("OtherBuildDeleted", async (t) => {
    const { server, page } = await start(t);
    const old = `${server.url}dist/tabletop.wasm?tabletop-build=0123456789abcdef`;
    const other = `${server.url}dist/other.wasm?tabletop-build=0123456789abcdef`;
    await page.evaluate(async ([old, other]) => {
      const cache = await caches.open("tabletop-engine");
      for (const u of [old, other]) await cache.put(u, new Response(new Uint8Array([0, 97, 115, 109]), { headers: { "Content-Type": "application/wasm" } }));
    }, [old, other]);
    assert.equal(await use(page), 7, "another build's copy is not used");
    const want = [`${server.url}dist/tabletop.wasm?tabletop-build=${build}`, other].sort();
    assert.deepEqual(await keys(page, want, 10_000), want, "the build's copy replaces the other build's; another file's entry stays");
  });

  await t.test("ErrNotTheBuild", async (t) => {
    const { page, wasmRequests } = await start(t);
    // The server sends another wasm (the build's with a custom section added: it still
    // compiles and runs): the page uses it, but does not keep it.
    const custom = Buffer.from([0, 6, 5, ...Buffer.from("other")]);
    await page.route("**/dist/tabletop.wasm", (route) =>
      route.fulfill({ status: 200, headers: { "Content-Type": "application/wasm" }, body: Buffer.concat([wasmBytes, custom]) }),
    );
    assert.equal(await use(page), 7);
    assert.deepEqual(await keys(page, [], 2_000), [], "a wasm not of the build is not kept");
    await page.reload();
    assert.equal(await use(page), 7);
    assert.equal(wasmRequests.length, 2, "so the next load fetches it again");
  });

  await t.test("Off", async (t) => {
    const { page } = await start(t);
    await page.evaluate(async () => (await import("/dist/tabletop.js")).loadEngine({ wasmCache: false }));
    assert.equal(await use(page), 7);
    assert.deepEqual(await keys(page, [], 2_000), [], "wasmCache: false keeps nothing");
  });
});
