// The playground's service worker: once the page has been loaded, it works offline.
//
// It precaches the shell (the page, playground/, dist/ but the engine's wasm) and serves
// those files cache first; after answering from the cache it fetches the file again in the
// background (revalidating against the server), so a rebuilt engine shows on the next
// load. Every other request (under `make run`, the Azure Table API shares the origin) goes
// to the network untouched.
//
// Paths are relative to this file, so it works served as static files (the page and this
// file in one directory) and under `make run` (the page at "/", this file at /web/sw.js,
// registered with scope "/", which the server allows with Service-Worker-Allowed: /).
// The page itself is cached under the registration's scope URL.
//
// Bump VERSION when this file's list or logic changes: the new worker then starts from a
// fresh cache and deletes the old ones.

const VERSION = "tabletop-shell-v8";
const PREFIX = "tabletop-shell-";

/**
 * SHELL lists the files of the page, relative to this file: the module is the one file
 * `make web` builds (dist/tabletop.js), Go's glue (wasm_exec.js) inside it. The engine's wasm is not
 * among them: the module keeps its own copy of it in Cache Storage (cache
 * "tabletop-engine", the build its JavaScript expects, stored on the first load) and
 * reads it there without a request, so a second copy here would only double the 4.9 MB
 * the origin stores.
 */
const SHELL = ["./", "playground/app.js", "playground/csv.js", "playground/indexes.js", "playground/resize.js", "playground/samples.js", "playground/share.js", "playground/sync.js", "playground/style.css", "dist/tabletop.js"];

/** ENGINE is the engine's wasm, which the worker leaves to the module's own cache (see SHELL). */
const ENGINE = "dist/tabletop.wasm";

/** SHELL_DIRS are folders whose files are cached as they are fetched, if SHELL misses one. */
const SHELL_DIRS = ["playground/", "dist/"];

const here = (path) => new URL(path, self.location.href).href;
const pageURL = () => self.registration.scope;

self.addEventListener("install", (event) => {
  const urls = [...new Set([pageURL(), ...SHELL.map(here)])];
  event.waitUntil(
    caches
      .open(VERSION)
      .then((cache) => cache.addAll(urls.map((u) => new Request(u, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== VERSION).map((n) => caches.delete(n)))),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" && request.method !== "HEAD") return;
  const key = shellKey(request.url);
  if (!key) return;
  event.respondWith(fromCache(request, key, event));
});

/**
 * shellKey returns the cache key of a shell URL (index.html is the directory's page), or
 * undefined for any other URL, which the worker leaves to the network.
 */
function shellKey(url) {
  const u = new URL(url);
  if (u.origin !== self.location.origin || u.search) return undefined;
  u.hash = "";
  if (u.pathname.endsWith("/index.html")) u.pathname = u.pathname.slice(0, -"index.html".length);
  const href = u.href;
  if (href === here(ENGINE)) return undefined;
  if (href === pageURL() || SHELL.some((p) => here(p) === href)) return href;
  return SHELL_DIRS.some((d) => href.startsWith(here(d))) ? href : undefined;
}

/**
 * REFRESH_AFTER is how long, in ms, a file answered from the cache waits before it is
 * refreshed: the page's own requests and its start go first, the revalidations after.
 */
const REFRESH_AFTER = 2000;

/** fromCache answers from the cache, refreshing it in the background; on a miss, from the network. */
async function fromCache(request, key, event) {
  const cache = await caches.open(VERSION);
  const cached = await cache.match(key);
  if (!cached) return refresh(cache, key);
  const later = new Promise((r) => setTimeout(r, REFRESH_AFTER));
  event.waitUntil(later.then(() => refresh(cache, key, cached)).then((res) => res.body?.cancel(), () => {})); // offline: keep what we have
  if (request.method === "HEAD") return new Response(null, { status: cached.status, headers: cached.headers });
  return cached;
}

/**
 * refresh fetches a shell file, revalidating past the HTTP cache, and stores a good answer
 * unless its validator (ETag, else Last-Modified) says it is the one cached: rewriting the
 * 4.8 MB engine on every load would cost a disk write of it per page load.
 */
async function refresh(cache, key, cached) {
  const res = await fetch(key, { cache: "no-cache" });
  if (res.ok && !res.redirected && !sameFile(cached, res)) await cache.put(key, res.clone());
  return res;
}

/** sameFile reports whether two responses carry the same validator (ETag, else Last-Modified). */
function sameFile(a, b) {
  if (!a) return false;
  for (const h of ["ETag", "Last-Modified"]) {
    const v = a.headers.get(h);
    if (v || b.headers.get(h)) return v === b.headers.get(h);
  }
  return false;
}
