// The browser module's TableSync (web/, run under Node with fake IndexedDB as web's own
// tests run it) against a table that splits across objects in local workerd: replicas
// that edit, delete and sync while the table grows past the split limit converge, through
// the change feed (not the Timestamp fallback), to the table's exact contents.
// Needs the browser build (make web) and web's packages, which make test-edge installs.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { fresh } from "../../../web/test/helpers.js"; // installs fake IndexedDB (web's devDependency)
import { openStore, TableClient, TableSync, AzureNamedKeyCredential } from "../../../web/tabletop.js";
import { startEdge } from "../runtime.mjs";
import { tempDir, accountName, accountKey, clients } from "./helpers.mjs";
import { pk, mapOf } from "./split-helpers.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

/** contents is a table client's entities as "pk/rk" → v. */
async function contents(list) {
  const out = {};
  for await (const e of list) out[`${e.partitionKey}/${e.rowKey}`] = e.v;
  return out;
}

/**
 * synced runs sync.sync(), again after a NetworkError as an application would (Node's
 * fetch now and then reuses a keep-alive connection the runtime has just closed); any
 * other failure, or three in a row, fails the test.
 */
async function synced(sync, retried) {
  for (let n = 0; ; n++) {
    try {
      return await sync.sync();
    } catch (err) {
      if (err.code !== "NetworkError" || n === 2) throw err;
      retried.count++;
    }
  }
}

test("TableSync replicas converge on a table that splits while they sync", async (t) => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "15" } });
  t.after(() => edge.stop());
  const url = `${edge.url}/${accountName}`;
  const credential = new AzureNamedKeyCredential(accountName, accountKey);
  const replicas = [];
  const retried = { count: 0 };
  for (let i = 0; i < 3; i++) {
    const store = await openStore(fresh("edge"), {});
    t.after(() => store.close());
    const client = new TableClient(store, "items");
    const sync = new TableSync(client, { url, table: "Shared", credential });
    if (i === 0) await sync.remote.createTable();
    await sync.track();
    replicas.push({ client, sync });
  }
  // Each replica writes its own keys over many partitions, deletes some, and syncs
  // every few writes, so pulls and pushes meet the splits.
  await Promise.all(
    replicas.map(async ({ client, sync }, r) => {
      for (let i = 0; i < 40; i++) {
        await client.upsertEntity({ partitionKey: pk(i * 3 + r), rowKey: `r${r}-${i}`, v: i });
        if (i % 6 === 5) await client.deleteEntity(pk((i - 5) * 3 + r), `r${r}-${i - 5}`);
        if (i % 8 === 7) await synced(sync, retried);
      }
      await synced(sync, retried);
    }),
  );
  for (const { sync } of replicas) await synced(sync, retried); // each pulls what the others pushed last
  const { map } = await mapOf(edge.url, "Shared");
  assert.ok(map.ranges.length >= 3, `only ${map.ranges.length} ranges`);
  const remote = await contents(clients(edge.url).table("Shared").listEntities());
  assert.equal(Object.keys(remote).length, 3 * (40 - 6), "each replica's writes less its deletions");
  console.log(`${Object.keys(remote).length} entities in ${map.ranges.length} ranges; ${retried.count} syncs retried after a NetworkError`);
  for (const [r, { client, sync }] of replicas.entries()) {
    assert.equal(sync.status.pull, "changes", `replica ${r} pulled by the change feed`);
    assert.deepEqual(await contents(client.listEntities()), remote, `replica ${r} has the table`);
  }
});
