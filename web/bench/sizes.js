// What each engine ships, raw and gzip -9 (zlib level 9, as `gzip -9`): the wasm module
// and the JavaScript around it.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const web = new URL("../", import.meta.url);
const at = (path) => new URL(path, web);

/** shipped lists, per engine, the files a page loads: wasm and JS. */
export function shipped() {
  return {
    tabletop: { wasm: ["dist/tabletop.wasm"], js: ["dist/tabletop.js", "dist/wasm_exec.js"] }, // as `make web` builds them for a page
    sqljs: { wasm: ["node_modules/sql.js/dist/sql-wasm-browser.wasm"], js: ["node_modules/sql.js/dist/sql-wasm-browser.js"] },
    loki: { wasm: [], js: ["node_modules/lokijs/build/lokijs.min.js"] },
    dexie: { wasm: [], js: ["node_modules/dexie/dist/dexie.min.js"] },
    sqliteOpfs: { wasm: ["node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm"], js: ["node_modules/@sqlite.org/sqlite-wasm/dist/index.mjs"] }, // the package's module as published, not minified
  };
}

/**
 * sizes measures raw and gzip -9 bytes per engine and kind (each file compressed on its
 * own, as a server would send it): { engine: { wasmRaw, wasmGzip, jsRaw, jsGzip } }.
 */
export function sizes() {
  const out = {};
  for (const [engine, kinds] of Object.entries(shipped())) {
    out[engine] = {};
    for (const [kind, files] of Object.entries(kinds)) {
      const bufs = files.map((f) => readFileSync(at(f)));
      out[engine][`${kind}Raw`] = files.length ? bufs.reduce((s, b) => s + b.length, 0) : NaN;
      out[engine][`${kind}Gzip`] = files.length ? bufs.reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0) : NaN;
    }
  }
  return out;
}
