// `make bench-sync`: TableSync throughput over loopback against the native server:
// 10,000 entities pushed from one replica's outbox, then pulled into a second, empty
// replica through the change feed, and pulled again through the Timestamp fallback
// (Query Entities, as against Azure or Azurite). Local stores are persistent (IndexedDB:
// fake-indexeddb under Node, in memory), so each pulled page is committed with its
// checkpoint. Prints entities/s.
import "fake-indexeddb/auto";
import { startNative, DEV_KEY } from "../test/servers.js";
import { openStore, TableClient, TableSync, AzureNamedKeyCredential } from "../tabletop.js";

const N = Number(process.env.N ?? 10_000);
const credential = new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY);
const server = await startNative();
try {
  const replica = async (name, options = {}) => {
    const client = new TableClient(await openStore(`bench-sync-${name}-${process.pid}`, {}), "items");
    return new TableSync(client, { url: server.url, table: "benchsync", credential, ...options });
  };
  const a = await replica("a");
  await a.remote.createTable();
  await a.track();
  for (let i = 0; i < N; i += 100) {
    await a.client.submitTransaction(Array.from({ length: 100 }, (_, j) => ["create", { partitionKey: `p${(i / 1000) | 0}`, rowKey: String(i + j).padStart(6, "0"), name: `entity ${i + j}`, n: i + j, big: BigInt(i + j) << 40n, score: (i + j) / 7, when: new Date(1e12 + i + j), ok: (i + j) % 2 === 0 }]));
  }
  const rate = (n, ms) => Math.round((n / ms) * 1000).toLocaleString("en-US");
  let t0 = performance.now();
  const pushed = await a.sync();
  const pushMs = performance.now() - t0;
  const b = await replica("b");
  t0 = performance.now();
  const pulled = await b.sync();
  const pullMs = performance.now() - t0;
  const noFeed = (url, init) =>
    String(url).includes("comp=changes") ? Promise.resolve(new Response("{}", { status: 400 })) : globalThis.fetch(url, init);
  const c = await replica("c", { fetch: noFeed });
  t0 = performance.now();
  const pulledTs = await c.sync();
  const pullTsMs = performance.now() - t0;
  if (pushed.pushed !== N || pulled.pulled !== N || pulledTs.pulled !== N) throw new Error(`counts: ${JSON.stringify({ pushed, pulled, pulledTs })}`);
  console.log(`make bench-sync: ${N.toLocaleString("en-US")} entities of 8 properties, loopback, native server, Node ${process.version}`);
  console.log(`| direction | entities/s | time |`);
  console.log(`| --- | ---: | ---: |`);
  console.log(`| push (outbox → server: $batch of up to 100 per partition, If-Match, 8 in flight) | ${rate(N, pushMs)} | ${(pushMs / 1000).toFixed(2)} s |`);
  console.log(`| pull, change feed (server → empty replica, pages of 1,000) | ${rate(N, pullMs)} | ${(pullMs / 1000).toFixed(2)} s |`);
  console.log(`| pull, Timestamp fallback + key reconciliation | ${rate(N, pullTsMs)} | ${(pullTsMs / 1000).toFixed(2)} s |`);
} finally {
  await server.stop();
}
