// A wasm that cannot be loaded (src/engine.js): the error names the URL and why, with code
// EngineLoadFailed, not a CompileError about a magic word. A file of its own: the
// process's engine must not have loaded before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { loadEngine } from "../src/engine.js";

test("loadEngine names the URL and why a wasm did not load", async (t) => {
  const server = createServer((req, res) => {
    if (req.url === "/missing/tabletop.wasm") res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    else res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><p>an app's fallback page");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  t.after(() => server.close());
  const base = `http://127.0.0.1:${server.address().port}`;
  for (const [name, path, why] of [
    ["ErrNotFound", "/missing/tabletop.wasm", /: HTTP 404 Not Found$/],
    ["ErrNotWasm", "/app/tabletop.wasm", /: HTTP 200, text\/html, is not WebAssembly \(/],
  ]) {
    await t.test(name, async () => {
      const err = await loadEngine({ wasmUrl: base + path, wasmCache: false }).then(() => null, (e) => e);
      assert.ok(err, "loaded");
      assert.equal(err.code, "EngineLoadFailed");
      assert.equal(err.url, base + path);
      assert.ok(err.message.includes(base + path), err.message);
      assert.match(err.message, why);
    });
  }
});
