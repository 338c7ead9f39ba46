// A worker deployed without TABLETOP_ACCOUNTS serves no account, the development account
// included, and says why on every request.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir } from "./helpers.mjs";

test("a worker with no account configured refuses every request", async () => {
  const { dir, cleanup } = tempDir();
  const edge = await startEdge({ persistDir: dir, vars: { TABLETOP_ACCOUNTS: "" } });
  try {
    const res = await fetch(`${edge.url}/devstoreaccount1/Tables`);
    assert.equal(res.status, 403);
    assert.equal(res.headers.get("x-ms-error-code"), "AuthenticationFailed");
    assert.match(await res.text(), /no account configured: set the TABLETOP_ACCOUNTS secret/);
    await assert.rejects(clients(edge.url).service.createTable("Devless"), (err) => err.statusCode === 403);
    assert.equal(await (await fetch(`${edge.url}/__tabletop/ping`)).text(), "pong");
  } finally {
    await edge.stop();
    cleanup();
  }
});
