// The playground works offline once loaded: its service worker (web/sw.js) caches the
// shell. Checked in Debian's chromium for both ways the page is served: as static files
// (page and sw.js in one folder) and as `make run` serves it (the page at "/", files under
// /web/, sw.js allowed the scope "/" by a Service-Worker-Allowed header).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile, readdir } from "node:fs/promises";
import { extname, join, normalize, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

/**
 * layoutServer serves web/ on a free port: layout "static" maps URL paths to files;
 * "make run" serves index.html at "/", files under /web/, and answers anything else like
 * the API would (400). Setting down makes it drop every connection, like a dead network;
 * setting version sends it as every file's ETag (a new version is a rebuild); served
 * counts the requests per path.
 */
function layoutServer(layout) {
  const state = { down: false, servedWhileDown: 0, version: undefined, served: {} };
  const server = createServer(async (req, res) => {
    if (state.down) return state.servedWhileDown++, req.socket.destroy();
    const path = new URL(req.url, "http://x").pathname;
    state.served[path] = (state.served[path] ?? 0) + 1;
    let file = path;
    if (layout === "make run") {
      if (path === "/") file = "/index.html";
      else if (path.startsWith("/web/")) file = path.slice(4);
      else return res.writeHead(400, { "Content-Type": "application/json" }).end('{"odata.error":{}}');
    }
    if (file.endsWith("/")) file += "index.html";
    const headers = state.version === undefined ? {} : { ETag: `"${state.version}"` };
    if (layout === "make run" && path === "/web/sw.js") headers["Service-Worker-Allowed"] = "/";
    try {
      const body = await readFile(join(web, normalize(file).replace(/^(\.\.[/\\])+/, "")));
      res.writeHead(200, { "Content-Type": types[extname(file)] ?? "application/octet-stream", ...headers });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(Object.assign(state, { url: `http://127.0.0.1:${server.address().port}/`, close: () => (server.closeAllConnections(), server.close()) })),
    ),
  );
}

/**
 * shellFiles lists, relative to web/, every file the worker precaches: the playground's and
 * the module in one file (dist/tabletop.js, as `make web` builds it, Go's glue inside
 * it). The engine's wasm, the page's other file, the module keeps in its own cache.
 */
async function shellFiles() {
  const playground = (await readdir(join(web, "playground"))).map((f) => `playground/${f}`);
  return [...playground, "dist/tabletop.js"];
}

/** engineCached waits until the module has kept the engine's wasm in its own cache and returns the URLs there. */
async function engineCached(page) {
  return page.evaluate(async () => {
    for (let i = 0; i < 300; i++) {
      const keys = (await (await caches.open("tabletop-engine")).keys()).map((r) => r.url);
      if (keys.length > 0) return keys;
      await new Promise((r) => setTimeout(r, 50));
    }
    return [];
  });
}

for (const [layout, files] of [["static", ""], ["make run", "web/"]]) {
  test(`offline (${layout}): the playground loads with the network gone`, async (t) => {
    const server = await layoutServer(layout);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args });
    t.after(async () => (await browser.close(), server.close()));
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForSelector("text=ready in");
    const scope = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      if (reg.active.state !== "activated") await new Promise((r) => reg.active.addEventListener("statechange", r));
      return reg.scope;
    });
    assert.equal(scope, server.url, "the worker controls the page's folder");
    const cached = await page.evaluate(async () => {
      const name = (await caches.keys()).find((n) => n.startsWith("tabletop-shell-"));
      return (await (await caches.open(name)).keys()).map((r) => r.url);
    });
    for (const f of ["", ...(await shellFiles()).map((f) => files + f)]) assert.ok(cached.includes(server.url + f), `${f || "the page"} is precached`);
    assert.deepEqual(cached.filter((u) => /\/src\/|\/tabletop\.js$/.test(u) && !u.endsWith("/dist/tabletop.js")), [], "no module of the source is cached");
    assert.deepEqual(cached.filter((u) => u.endsWith(".wasm")), [], "the worker keeps no copy of the engine's wasm");
    const engine = await engineCached(page);
    assert.equal(engine.length, 1, "the module keeps one copy of the engine's wasm");
    assert.ok(engine[0].startsWith(`${server.url}${files}dist/tabletop.wasm?`), `the module's copy is the page's wasm: ${engine[0]}`);

    await ctx.setOffline(true);
    server.down = true;
    const fetched = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await page.reload();
    await page.waitForSelector("text=ready in");
    await page.waitForSelector('#tables li[data-name="People"]');
    await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length > 0);
    assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), "the page is served by the worker");
    assert.deepEqual(fetched.filter((p) => /\/src\/|^\/(web\/)?tabletop\.js$/.test(p)), [], "the page loads the one-file module");
    assert.ok(fetched.some((p) => p.endsWith("/dist/tabletop.js")), "the page loads dist/tabletop.js");
    assert.deepEqual(errors, []);
    t.diagnostic(`requests that reached the server while offline: ${server.servedWhileDown}`);
  });
}

test("offline: a reload rewrites a cached file only when the server's copy changed", async (t) => {
  const server = await layoutServer("static");
  server.version = 1;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args });
  t.after(async () => (await browser.close(), server.close()));
  const page = await (await browser.newContext()).newPage();
  await page.goto(server.url);
  await page.waitForSelector("text=ready in");
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The module: the page requests it on every load (the wasm it may take from the
  // engine's own cache instead, see engine-cache.test.js).
  const file = "/dist/tabletop.js";
  // The Date the server sent with the cached file: a rewrite stores a later one.
  const cachedDate = () =>
    page.evaluate(async (url) => (await (await caches.open("tabletop-shell-v8")).match(url)).headers.get("Date"), server.url + file.slice(1));
  const reloadAndRefresh = async () => {
    const before = server.served[file];
    await page.reload();
    await page.waitForSelector("text=ready in");
    for (let i = 0; i < 200 && server.served[file] === before; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(server.served[file] > before, "the worker refreshes the file in the background");
  };
  const installed = await cachedDate();
  await new Promise((r) => setTimeout(r, 1100)); // a later second in Date

  await reloadAndRefresh();
  await new Promise((r) => setTimeout(r, 1500)); // time for a rewrite, were there one
  assert.equal(await cachedDate(), installed, "the unchanged file is not written again");

  server.version = 2;
  await reloadAndRefresh();
  let date = installed;
  for (let i = 0; i < 100 && date === installed; i++) {
    await new Promise((r) => setTimeout(r, 100));
    date = await cachedDate();
  }
  assert.notEqual(date, installed, "the rebuilt file replaces the cached one");
});
