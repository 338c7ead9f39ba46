// make dev: the edge bundle in local workerd, offline and without a login, on
// 127.0.0.1:$PORT (8787), its Durable Object storage in data/edge (kept between runs).
// TABLETOP_ACCOUNTS (name:key[:key2];…) replaces the development account;
// TABLETOP_DELETION_RETENTION (a Go duration, default 168h) is how long deletion records
// are kept for sync clients. Prints the
// development connection string; Ctrl-C stops it.
import { join } from "node:path";
import { startEdge, repoDir } from "./runtime.mjs";

const port = Number(process.env.PORT ?? 8787);
const persistDir = process.env.TABLETOP_EDGE_DATA ?? join(repoDir, "data", "edge");
const vars = {};
for (const name of ["TABLETOP_ACCOUNTS", "TABLETOP_DELETION_RETENTION"]) if (process.env[name]) vars[name] = process.env[name];
const edge = await startEdge({ persistDir, port, vars });
const key = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
console.log(`Tabletop (edge, local workerd) listening on ${edge.url}, data in ${persistDir}`);
console.log(`DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${key};TableEndpoint=${edge.url}/devstoreaccount1;`);
const logs = setInterval(() => {
  const out = edge.log();
  if (out) process.stdout.write(out), edge.clearLog();
}, 500);
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, async () => {
    clearInterval(logs);
    await edge.stop();
    process.exit(0);
  });
}
