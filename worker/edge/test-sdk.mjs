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
const only = process.argv.slice(2);
const files = readdirSync(suiteDir)
  .filter((f) => f.endsWith(".test.mjs") && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort();
let failed = [];
for (const file of files) {
  const dir = mkdtempSync(join(tmpdir(), "tabletop-edge-sdk-"));
  const edge = await startEdge({ persistDir: dir });
  try {
    const run = spawnSync(process.execPath, ["--test", join(suiteDir, file)], {
      stdio: "inherit",
      env: { ...process.env, TABLETOP_URL: edge.url },
    });
    if (run.status !== 0) failed.push(file);
  } finally {
    await edge.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`edge SDK suite: ${files.length - failed.length} of ${files.length} files passed${failed.length ? "; failed: " + failed.join(", ") : ""}`);
process.exit(failed.length ? 1 : 0);
