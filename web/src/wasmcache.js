// The engine's wasm kept in Cache Storage, read by the page itself.
//
// A page that compiles a response it took from Cache Storage (caches.match) starts the
// engine much sooner than from the HTTP cache's copy in Chromium, warm: no
// request reaches the network service, nothing waits for a revalidation, and Blink's
// response body loader, most of a warm load's main-thread time, does not run (see
// web/README, "Size and speed"; `node bench/import.js --cache-api` measures it). A
// service worker answering the page's fetch from the same cache is slower than the HTTP
// cache instead: the response still goes through the loader.
//
// The copy is the build's: the one-file module (dist/tabletop.js) carries the first
// characters of the SHA-256 of the wasm `make web` built beside it, the cache key says
// which build it is, and a response is stored only when its bytes have that digest. So a
// page never runs a wasm of another build than its JavaScript's, a rebuilt module looks
// for its own wasm, and the other builds' copies are deleted when it stores it.

/** WASM_CACHE names the Cache Storage cache the engine's wasm is kept in. */
export const WASM_CACHE = "tabletop-engine";

/** BUILD_PARAM is the query parameter of a cache key that names the wasm's build. */
const BUILD_PARAM = "tabletop-build";

/**
 * canCache reports whether the wasm at url can be kept in Cache Storage: the page has it
 * (a secure context), url is http(s) and build (the digest the module expects) is known.
 */
export function canCache(url, build) {
  return Boolean(build) && typeof caches !== "undefined" && (url.protocol === "https:" || url.protocol === "http:");
}

/**
 * cachedWasm resolves with a response for the wasm at url: Cache Storage's copy of build,
 * or else the network's, which is stored in the background for the next load if its
 * bytes are build's.
 */
export async function cachedWasm(url, build) {
  const key = new URL(url);
  key.searchParams.set(BUILD_PARAM, build);
  try {
    // One lookup naming the cache: Chromium answers it in one round trip to the browser
    // process, where caches.open and then cache.match take two.
    const hit = await caches.match(key.href, { cacheName: WASM_CACHE });
    if (hit) return hit;
  } catch {
    // no Cache Storage here (an opaque origin, storage blocked): the network's copy
  }
  const res = await fetch(url);
  if (res.ok) {
    const copy = res.clone(); // now: the caller consumes res's body
    caches
      .open(WASM_CACHE)
      .then((cache) => keep(cache, key, copy, build))
      .catch(() => {}); // no Cache Storage, or a full quota: the next load fetches again
  }
  return res;
}

/** keep stores res under key if its bytes have the digest build, and deletes other builds' copies of the file. */
async function keep(cache, key, res, build) {
  const bytes = await res.arrayBuffer();
  if (!(await digest(bytes)).startsWith(build)) return;
  await cache.put(key.href, new Response(bytes, { headers: { "Content-Type": "application/wasm" } }));
  const file = withoutBuild(key);
  for (const old of await cache.keys()) {
    if (old.url !== key.href && withoutBuild(old.url) === file) await cache.delete(old);
  }
}

/** withoutBuild is the URL of a cache key without its build parameter. */
function withoutBuild(key) {
  const u = new URL(key);
  u.searchParams.delete(BUILD_PARAM);
  return u.href;
}

/** digest is the hex SHA-256 of bytes. */
async function digest(bytes) {
  const sum = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(sum, (b) => b.toString(16).padStart(2, "0")).join("");
}
