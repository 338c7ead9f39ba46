// `make bench-sync`, live: the time from a write on device A to its arrival in a
// liveQuery on device B, through the native server and through the edge worker in local
// workerd (when built: make worker), over loopback. A writes one entity and syncs (the
// push); B runs TableSync.start(), which waits between syncs on a held change feed
// request (native; the edge when B has no WebSocket) or on a subscriber socket (the edge),
// and a liveQuery of that entity. 100 writes one after another; prints the median and the
// 99th percentile, and B's requests while idle. The Makefile runs it with Node's
// WebSocket (--experimental-websocket on Node 20).
import "fake-indexeddb/auto";
import { startNative, startEdgeWorker, DEV_KEY } from "../test/servers.js";
import { openStore, TableClient, TableSync, AzureNamedKeyCredential, liveQuery } from "../tabletop.js";

const N = Number(process.env.N ?? 100);
const credential = new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY);
console.log(`make bench-sync, live: ${N} writes on device A seen by a liveQuery on device B, loopback, Node ${process.version}`);
console.log(`| server | B waits on | median | 99th percentile | slowest | B's requests in 5 s idle |`);
console.log(`| --- | --- | ---: | ---: | ---: | ---: |`);
const sockets = typeof WebSocket === "function";
const runs = [
  ["native", "a held request", startNative, {}],
  ["edge (workerd)", "a held request", startEdgeWorker, { WebSocket: null }],
  ["edge (workerd)", "a socket", startEdgeWorker, {}],
];
for (const [name, waits, start, options] of runs) {
  if (waits === "a socket" && !sockets) {
    console.log(`| ${name} | ${waits}: no WebSocket in this Node | | | | |`);
    continue;
  }
  const server = await start();
  if (!server) {
    console.log(`| ${name} | ${waits} | not built: make worker | | | |`);
    continue;
  }
  try {
    const { times, idle, socket } = await measure(server, `${name.split(" ")[0]}-${waits.split(" ")[1]}`, options);
    if ((waits === "a socket") !== socket) throw new Error(`${name}: B was to wait on ${waits}, but ${socket ? "opened" : "opened no"} socket`);
    times.sort((x, y) => x - y);
    const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)].toFixed(1);
    console.log(`| ${name} | ${waits} | ${at(0.5)} ms | ${at(0.99)} ms | ${times.at(-1).toFixed(1)} ms | ${idle} |`);
  } finally {
    await server.stop();
  }
}

/** measure times N writes from device A to device B's liveQuery through server (B's TableSync options: options). */
async function measure(server, tag, options) {
  let requests = 0;
  const counted = (url, init) => (requests++, globalThis.fetch(url, init));
  const device = async (name, options = {}) => {
    const client = new TableClient(await openStore(`bench-live-${tag}-${name}-${process.pid}`, {}), "items");
    return new TableSync(client, { url: server.url, table: "benchlive", credential, ...options });
  };
  const a = await device("a");
  await a.remote.createTable();
  await a.track();
  const b = await device("b", { fetch: counted, ...options });
  b.start({ interval: 60_000 });
  while (!b.status.lastSync) await new Promise((r) => setTimeout(r, 10));

  let arrived = () => {};
  let want = -1;
  const sub = liveQuery(() => b.client.getEntity("p", "r").catch(() => null)).subscribe((e) => e?.n === want && arrived());
  const times = [];
  for (let n = 0; n < N; n++) {
    const seen = new Promise((r) => (arrived = r));
    want = n;
    const t0 = performance.now();
    await a.client.upsertEntity({ partitionKey: "p", rowKey: "r", n });
    await a.sync();
    await seen;
    times.push(performance.now() - t0);
  }
  await new Promise((r) => setTimeout(r, 200));
  const before = requests;
  await new Promise((r) => setTimeout(r, 5000));
  const idle = requests - before;
  const socket = b._socket?.opened === true && !b._socket.ended;
  sub.unsubscribe();
  await b.stop();
  return { times, idle, socket };
}
