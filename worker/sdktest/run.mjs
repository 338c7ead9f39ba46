// Runs the Node suite: builds the server once, then `node --test` over test/*.test.mjs
// with TABLETOP_BIN naming the binary, so test files need not build it each.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tabletop-bin-"));
const bin = join(dir, "tabletop");
let status = 1;
try {
  execFileSync("go", ["build", "-o", bin, "./worker/tabletop"], { cwd: join(here, "..", ".."), stdio: "inherit" });
  const files = readdirSync(here).filter((f) => f.endsWith(".test.mjs")).map((f) => join(here, f));
  const run = spawnSync(process.execPath, ["--test", ...process.argv.slice(2), ...files], {
    stdio: "inherit",
    env: { ...process.env, TABLETOP_BIN: bin },
  });
  status = run.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
