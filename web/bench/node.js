// The browser benchmark under Node: `node bench/node.js` prints its table; with --json it
// prints the raw results for bench/run.js. IndexedDB here is fake-indexeddb (in memory),
// so the persistent column measures the API's cost, not a disk.
import "fake-indexeddb/auto";
import { createRequire } from "node:module";
import Dexie from "dexie";
import { runBench } from "./harness.js";
import { table } from "./table.js";

const require = createRequire(import.meta.url);

/** benchNode runs the harness in this process. */
export function benchNode(log) {
  return runBench({
    tabletopUrl: new URL("../dist/tabletop.js", import.meta.url).href,
    initSqlJs: require("sql.js"),
    Loki: require("lokijs"),
    Dexie,
    log,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const json = process.argv.includes("--json");
  const results = await benchNode((m) => console.error(`node: ${m}`));
  console.log(json ? JSON.stringify(results) : table({ Node: results }));
}
