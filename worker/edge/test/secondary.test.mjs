// The account's secondary location at the edge: reads reach the table's object, as at
// the native server; writes are refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { startEdge } from "../runtime.mjs";
import { clients, credential, clientOptions, tempDir } from "./helpers.mjs";

test("the secondary location reads the account's tables and stats", async () => {
  const { dir, cleanup } = tempDir();
  const edge = await startEdge({ persistDir: dir });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Mirror");
    await table("Mirror").createEntity({ partitionKey: "p", rowKey: "1", v: 7 });
    const endpoint = `${edge.url}/devstoreaccount1-secondary`;
    const secondary = new TableClient(endpoint, "Mirror", credential, clientOptions);
    assert.equal((await secondary.getEntity("p", "1")).v, 7);
    const stats = await new TableServiceClient(endpoint, credential, clientOptions).getStatistics();
    assert.equal(stats.geoReplication.status, "live");
    await assert.rejects(secondary.createEntity({ partitionKey: "p", rowKey: "2" }), (err) => err.statusCode === 403);
  } finally {
    await edge.stop();
    cleanup();
  }
});
