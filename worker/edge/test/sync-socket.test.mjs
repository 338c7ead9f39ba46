// The browser module's TableSync (web/, under Node with fake IndexedDB, as sync-split.test.mjs
// runs it) live against the edge in local workerd: it waits on a subscriber socket and
// hears each write once; a socket cut under it is followed by a pull and a new socket,
// and nothing is lost or applied twice; a client whose sockets fail to open falls back,
// after a few, to held change feed requests, and still hears writes live.
// Needs the browser build (make web) and web's packages, which make test-edge installs.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "../../../web/test/helpers.js"; // installs fake IndexedDB (web's devDependency)
import { openStore, TableClient, TableSync, AzureNamedKeyCredential } from "../../../web/tabletop.js";
import { TableClient as SDKClient } from "@azure/data-tables";
import { startEdge } from "../runtime.mjs";
import { tempDir, accountName, accountKey, clients, stats, credential as sdkCredential } from "./helpers.mjs";
import { NodeWebSocket } from "./wsclient.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

const credential = new AzureNamedKeyCredential(accountName, accountKey);

/**
 * writer is an SDK client of table that retries (the helpers' clients do not): a write
 * after an idle while may meet a keep-alive connection the runtime has just closed.
 */
function writer(url, table) {
  return new SDKClient(`${url}/${accountName}`, table, sdkCredential, { allowInsecureConnection: true });
}

/**
 * cleanups registers on t one after hook that runs the functions given to the returned
 * defer, the last given first: the sync stops before its store closes and before the edge
 * under it stops (t.after alone runs its hooks in the order they were registered).
 */
function cleanups(t) {
  const fns = [];
  t.after(async () => {
    while (fns.length) await fns.pop()();
  });
  return (fn) => fns.push(fn);
}

/** subscriber starts a live TableSync of table on the edge at url, with WebSocket, recording the remote changes it applies. */
async function subscriber(defer, url, table, WebSocket) {
  const store = await openStore(fresh("edge"), {});
  defer(() => store.close());
  const client = new TableClient(store, "items");
  const sync = new TableSync(client, { url: `${url}/${accountName}`, table, credential, WebSocket });
  const applied = [];
  client.on("change", (c) => c.remote && applied.push(`${c.partitionKey}/${c.rowKey}/${c.etag}`));
  sync.start({ interval: 60_000 });
  defer(() => sync.stop());
  while (!sync.status.lastSync) await new Promise((r) => setTimeout(r, 10));
  return { client, sync, applied };
}

/** arrives waits until client holds v at p/rk, up to within ms, and returns how long it took. */
async function arrives(client, rk, v, within = 5000) {
  const start = performance.now();
  while ((await client.getEntity("p", rk).then((e) => e.v, () => null)) !== v) {
    if (performance.now() - start > within) throw new Error(`p/${rk}=${v} not seen live after ${within} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return performance.now() - start;
}

/** until polls fn until it returns true, up to within ms. */
async function until(fn, within, what) {
  const start = performance.now();
  while (!(await fn())) {
    if (performance.now() - start > within) throw new Error(`${what}: not after ${within} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("TableSync waits on a socket, and one cut under it costs no change", async (t) => {
  const defer = cleanups(t);
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1" } });
  defer(() => edge.stop());
  const { service } = clients(edge.url);
  await service.createTable("Sock");
  const table = writer(edge.url, "Sock");
  const sub = await subscriber(defer, edge.url, "Sock", NodeWebSocket);
  await until(async () => (await stats(edge.url, "Sock")).feed.subscribers === 1, 5000, "a socket opened");
  assert.deepEqual((await stats(edge.url, "Sock")).feed, { held: 0, subscribers: 1 });
  for (let i = 0; i < 10; i++) {
    await table.upsertEntity({ partitionKey: "p", rowKey: `k${i}`, v: i });
    if (i === 4) sub.sync._socket._ws._s.close(); // the socket ends under the subscriber (its client's close, as a network cut)
    await arrives(sub.client, `k${i}`, i);
  }
  await until(async () => (await stats(edge.url, "Sock")).feed.subscribers === 1, 5000, "a socket opened again");
  assert.equal(new Set(sub.applied).size, sub.applied.length, `a change applied twice: ${sub.applied}`);
  assert.equal(sub.applied.length, 10);
});

test("TableSync whose sockets fail to open waits on held requests", async (t) => {
  const defer = cleanups(t);
  const edge = await startEdge({ persistDir: tmp.dir + "-fail", vars: { TABLETOP_DEBUG: "1" } });
  defer(() => edge.stop());
  const { service } = clients(edge.url);
  await service.createTable("NoSock");
  let opened = 0;
  class Refused extends NodeWebSocket {
    constructor(url) {
      super(url.replace(/subscribe=[^&]*/, "subscribe=forged")); // refused 403: never opens
      opened++;
    }
  }
  const sub = await subscriber(defer, edge.url, "NoSock", Refused);
  await until(async () => (await stats(edge.url, "NoSock")).feed.held === 1, 30_000, "a held request after the sockets failed");
  assert.equal(opened, 3, "three sockets tried");
  assert.equal((await stats(edge.url, "NoSock")).feed.subscribers, 0);
  await writer(edge.url, "NoSock").upsertEntity({ partitionKey: "p", rowKey: "late", v: 1 });
  assert.ok((await arrives(sub.client, "late", 1)) < 3000, "heard live on a held request");
});
