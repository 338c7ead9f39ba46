// make dev: the edge bundle in local workerd, offline and without a login, on
// 127.0.0.1:$PORT (8787), its Durable Object storage in data/edge (kept between runs).
// It serves TABLETOP_ACCOUNTS (name:key[:key2];…) when set, else, explicitly, the
// development account, and prints the connection string of each account it serves;
// TABLETOP_DELETION_RETENTION (a Go duration, default 168h) is how long deletion records
// are kept for sync clients. It fails, and says why, when the port is taken or workerd
// does not start, and exits when workerd dies; Ctrl-C stops it.
import { createServer } from "node:net";
import { join } from "node:path";
import { startEdge, repoDir, DEV_ACCOUNTS } from "./runtime.mjs";

const port = Number(process.env.PORT ?? 8787);
const persistDir = process.env.TABLETOP_EDGE_DATA ?? join(repoDir, "data", "edge");
const accounts = process.env.TABLETOP_ACCOUNTS || DEV_ACCOUNTS;

/** portFree resolves to whether nothing listens on 127.0.0.1:port. */
function portFree(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** connectionStrings are the connection strings of the accounts in a TABLETOP_ACCOUNTS value. */
function connectionStrings(accounts, url) {
  return accounts
    .split(";")
    .map((e) => e.trim().split(":"))
    .filter(([name, key]) => name && key)
    .map(([name, key]) => `DefaultEndpointsProtocol=http;AccountName=${name};AccountKey=${key};TableEndpoint=${url}/${name};`);
}

function fail(msg) {
  console.error(`tabletop dev: ${msg}`);
  process.exit(1);
}

if (!(await portFree(port))) fail(`port ${port} is taken on 127.0.0.1; stop what listens there or set PORT`);
let edge;
try {
  const vars = { TABLETOP_ACCOUNTS: accounts };
  if (process.env.TABLETOP_DELETION_RETENTION) vars.TABLETOP_DELETION_RETENTION = process.env.TABLETOP_DELETION_RETENTION;
  edge = await startEdge({ persistDir, port, vars });
} catch (err) {
  fail(`workerd did not start: ${err.message}`);
}
// The port was free a moment ago: make sure the answer comes from our workerd, alive.
const ping = await fetch(`${edge.url}/__tabletop/ping`).then((r) => r.text()).catch(() => "");
if (ping !== "pong") {
  await edge.stop();
  fail(`something else answers on port ${port}`);
}
console.log(`Tabletop (edge, local workerd) listening on ${edge.url}, data in ${persistDir}`);
if (!process.env.TABLETOP_ACCOUNTS) console.log("Serving the development account (set TABLETOP_ACCOUNTS to serve others):");
for (const cs of connectionStrings(accounts, edge.url)) console.log(cs);
const logs = setInterval(() => {
  const out = edge.log();
  if (out) process.stdout.write(out), edge.clearLog();
}, 500);
let stopping = false;
edge.exited.then((code) => {
  if (stopping) return;
  clearInterval(logs);
  process.stdout.write(edge.log());
  fail(`workerd exited (${code}); the server is gone`);
});
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, async () => {
    stopping = true;
    clearInterval(logs);
    await edge.stop();
    process.exit(0);
  });
}
