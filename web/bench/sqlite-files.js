// SQLite-OPFS's files for the page, in bench/sqlite-wasm/ (git-ignored): the package's
// module dist/index.mjs as sqlite3.js and its sqlite3.wasm beside it, where the module
// finds it (import.meta.url). web/browser/serve.js gives .mjs no JavaScript MIME type,
// and a Worker's module import refuses any other; a copy named .js is served as an app's
// bundle would be, the bytes unchanged.
import { copyFileSync, mkdirSync, readFileSync, existsSync } from "node:fs";

const dist = new URL("../node_modules/@sqlite.org/sqlite-wasm/dist/", import.meta.url);
const dir = new URL("./sqlite-wasm/", import.meta.url);

/** files maps each served copy to the package's file it is made from. */
export const files = { "sqlite3.js": "index.mjs", "sqlite3.wasm": "sqlite3.wasm" };

/** stageSqlite copies the package's files into bench/sqlite-wasm/ where they are missing or differ. */
export function stageSqlite() {
  mkdirSync(dir, { recursive: true });
  for (const [to, from] of Object.entries(files)) {
    const [src, dst] = [new URL(from, dist), new URL(to, dir)];
    if (!existsSync(dst) || !readFileSync(src).equals(readFileSync(dst))) copyFileSync(src, dst);
  }
}
