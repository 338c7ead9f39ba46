// Runs the official-SDK scenario suite of the REST API (worker/sdktest/*.test.mjs) against the
// edge bundle in the local runtime: each test file gets a fresh runtime with empty
// storage, as it gets a fresh native server in `make test`, and reaches it through
// TABLETOP_URL (see worker/sdktest/server.mjs). Arguments filter the files by name.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEdge, repoDir } from "./runtime.mjs";

const suiteDir = join(repoDir, "worker", "sdktest");

// TABLETOP_SPLIT_ENTITIES in the environment is handed to the runtime: set low (make
// test-edge runs the suite again with 2), every suite table of more than two entities in
// two partitions or more is split across objects while the suite runs.
const vars = { TABLETOP_DEBUG: "1" };
if (process.env.TABLETOP_SPLIT_ENTITIES) vars.TABLETOP_SPLIT_ENTITIES = process.env.TABLETOP_SPLIT_ENTITIES;
const only = process.argv.slice(2);
const files = readdirSync(suiteDir)
  .filter((f) => f.endsWith(".test.mjs") && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort();
let failed = [];
for (const file of files) {
  const dir = mkdtempSync(join(tmpdir(), "tabletop-edge-sdk-"));
  const edge = await startEdge({ persistDir: dir, vars });
  try {
    const run = spawnSync(process.execPath, ["--test", join(suiteDir, file)], {
      stdio: "inherit",
      env: { ...process.env, TABLETOP_URL: edge.url },
    });
    if (run.status !== 0) failed.push(file);
    if (vars.TABLETOP_SPLIT_ENTITIES) {
      const { started } = await (await fetch(`${edge.url}/__tabletop/started`)).json();
      console.log(`${file}: ${started} Go instances (objects) started with TABLETOP_SPLIT_ENTITIES=${vars.TABLETOP_SPLIT_ENTITIES}`);
    }
  } finally {
    await edge.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`edge SDK suite: ${files.length - failed.length} of ${files.length} files passed${failed.length ? "; failed: " + failed.join(", ") : ""}`);
process.exit(failed.length ? 1 : 0);
