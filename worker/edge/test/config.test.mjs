import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoDir } from "../runtime.mjs";
import { CLASSES, COMPATIBILITY_DATE } from "../workerd.mjs";

// wrangler.toml (deployments) and workerd.mjs (the local runtime) must declare the same Worker.
test("wrangler.toml and the local workerd config agree", () => {
  const toml = readFileSync(join(repoDir, "wrangler.toml"), "utf8");
  assert.match(toml, new RegExp(`^compatibility_date = "${COMPATIBILITY_DATE}"$`, "m"));
  assert.match(toml, /^main = "worker\/edge\/src\/entry\.mjs"$/m);
  for (const { binding, className } of CLASSES) {
    assert.match(toml, new RegExp(`name = "${binding}"\\nclass_name = "${className}"`), binding);
  }
  const sqlite = /new_sqlite_classes = \[([^\]]*)\]/.exec(toml);
  assert.ok(sqlite, "a migration with new_sqlite_classes");
  assert.deepEqual(sqlite[1].split(",").map((s) => s.trim().replaceAll('"', "")).sort(), CLASSES.map((c) => c.className).sort());
});

// A [vars] entry replaces a secret of the same name on deploy: declaring TABLETOP_ACCOUNTS
// there, even empty, would drop the accounts a deployment set as a secret.
test("wrangler.toml declares no accounts", () => {
  const toml = readFileSync(join(repoDir, "wrangler.toml"), "utf8");
  assert.doesNotMatch(toml, /^\s*TABLETOP_ACCOUNTS\s*=/m);
});
