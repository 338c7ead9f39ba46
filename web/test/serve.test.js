// browser/serve.js, the static server of the browser tests and benchmark: it sends files
// as `make run` does (worker/native/web.go), kept by the browser and revalidated on each
// use ("Cache-Control: no-cache", 304 when unchanged), the wasm as application/wasm.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "../browser/serve.js";

test("serve", async (t) => {
  const server = await serve(new URL("../", import.meta.url).pathname);
  t.after(() => server.close());
  await t.test("OK", async () => {
    for (const [path, type] of [["dist/tabletop.wasm", "application/wasm"], ["dist/tabletop.js", "text/javascript"], ["tabletop.js", "text/javascript"]]) {
      const res = await fetch(server.url + path);
      await res.arrayBuffer();
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get("content-type"), type, path);
      assert.equal(res.headers.get("cache-control"), "no-cache", path);
      const again = await fetch(server.url + path, { headers: { "If-None-Match": res.headers.get("etag") } });
      assert.equal(again.status, 304, path);
    }
  });
  await t.test("ErrNotFound", async () => {
    const res = await fetch(server.url + "dist/absent.wasm");
    assert.equal(res.status, 404);
  });
});
