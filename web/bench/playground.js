// The playground's first paint and first usable grid (`make bench-web`): the time from
// navigation to the first contentful paint, and to the first row of the grid (the engine
// loaded, the sample data made on a first visit, the first table queried and shown).
// Each round opens a fresh Chromium profile (a first visit: nothing cached, the engine
// compiled, the sample data written) and then reloads it (a return visit). With
// --against DIR, the same rounds run on the web/ folder at DIR too (another checkout's,
// built with `make web`), alternating, and the ratios are printed: how a change moved the
// figures, side by side on one machine.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "../browser/serve.js";
import { launch } from "../browser/chromium.js";

const args = process.argv.slice(2);
const at = (flag, def) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : def);
const rounds = Number(at("--rounds", 7));
const sites = { this: new URL("../", import.meta.url).pathname };
if (at("--against")) sites.against = at("--against");

/** watchGrid runs in the page before its scripts: it notes when the grid's first row appears. */
function watchGrid() {
  new MutationObserver((_, obs) => {
    if (document.querySelector("#results tbody tr")) {
      window.__gridAt = performance.now();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

/** visit loads the page (or reloads it) and resolves with its first paint and grid times. */
async function visit(page, go) {
  await go();
  await page.waitForFunction(() => window.__gridAt, null, { timeout: 60_000 });
  return page.evaluate(() => ({
    paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
    grid: window.__gridAt,
  }));
}

/** round measures a first and a return visit of the site at dir. */
async function round(dir) {
  const server = await serve(dir);
  const profile = await mkdtemp(join(tmpdir(), "tabletop-bench-playground-"));
  const b = await launch(profile);
  try {
    const page = await b.ctx.newPage();
    await page.addInitScript(watchGrid);
    const first = await visit(page, () => page.goto(server.url));
    const again = await visit(page, () => page.reload());
    return { first, again };
  } finally {
    await b.close();
    server.close();
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = Object.fromEntries(Object.keys(sites).map((k) => [k, []]));
for (let i = 0; i < rounds; i++) for (const [k, dir] of Object.entries(sites)) runs[k].push(await round(dir));

console.log(`\nplayground, median of ${rounds} rounds (ms from navigation):`);
const rows = [["first visit: first paint", "first", "paint"], ["first visit: usable grid", "first", "grid"], ["return visit: first paint", "again", "paint"], ["return visit: usable grid", "again", "grid"]];
for (const [label, v, m] of rows) {
  const mine = median(runs.this.map((r) => r[v][m]));
  let line = `  ${label.padEnd(27)} ${mine.toFixed(0).padStart(6)}`;
  if (runs.against) {
    const base = median(runs.against.map((r) => r[v][m]));
    line += `   against ${base.toFixed(0).padStart(6)}   ratio ${(mine / base).toFixed(2)}`;
  }
  console.log(line);
}
