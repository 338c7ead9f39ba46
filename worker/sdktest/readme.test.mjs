// The README's getting-started snippet, run as written against a fresh server (only the
// address is swapped for the test server's), so the snippet users copy keeps working.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const server = await startServer();
after(() => server.stop());

/** snippet returns the ```js block that follows the readme-snippet marker. */
function snippet() {
  const readme = readFileSync(join(here, "..", "..", "README.md"), "utf8");
  const m = readme.match(/<!-- readme-snippet -->\s*```js\n([\s\S]*?)```/);
  assert.ok(m, "README.md has no snippet after <!-- readme-snippet -->");
  return m[1];
}

test("the README snippet works against make run's server", async () => {
  const code = snippet().replaceAll("http://127.0.0.1:10002", server.url);
  const file = join(here, `readme-snippet-${process.pid}.mjs`);
  writeFileSync(file, code);
  const lines = [];
  const log = console.log;
  console.log = (...args) => lines.push(args);
  try {
    await import(file);
  } finally {
    console.log = log;
    rmSync(file, { force: true });
  }
  assert.equal(lines.length, 1);
  const [entity] = lines[0];
  assert.equal(entity.name, "Ada");
  assert.match(entity.etag, /^W\/"datetime'/);
});
