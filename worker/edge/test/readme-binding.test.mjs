// The README's service-binding snippet, run as written: extracted from README.md (after
// <!-- binding-snippet -->), put where its import path finds this repository (a folder
// beside a "tabletop" checkout), bundled as wrangler would, and run as a user's Worker
// bound to the bundle's RPC entrypoint in local workerd. It is requested twice: a Worker
// serves many requests, and the second must answer as the first.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, mkdirSync, writeFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { startEdge, freePort, edgeDir } from "../runtime.mjs";
import { tempDir } from "./helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

test("the README's service-binding snippet answers, twice", async () => {
  const readme = readFileSync(join(edgeDir, "..", "..", "README.md"), "utf8");
  const m = /<!-- binding-snippet -->\s*```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, "README.md has no snippet after <!-- binding-snippet -->");
  const work = join(tmp.dir, "src");
  mkdirSync(join(work, "app"), { recursive: true });
  symlinkSync(join(edgeDir, "..", ".."), join(work, "tabletop")); // "../tabletop/…" from app/
  writeFileSync(join(work, "app", "worker.mjs"), m[1]);
  await build({
    entryPoints: [join(work, "app", "worker.mjs")],
    outfile: join(edgeDir, "build", "dist", "readme-user.js"),
    bundle: true, format: "esm", platform: "neutral", logLevel: "warning",
  });
  const port = await freePort();
  const edge = await startEdge({ persistDir: join(tmp.dir, "data"), user: { module: "readme-user.js", port } });
  try {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      const body = await res.text();
      assert.equal(res.status, 200, `request ${i + 1}: ${body}`);
      assert.deepEqual(JSON.parse(body), { name: "ann", age: 41, older: 1 });
    }
  } finally {
    await edge.stop();
  }
});
