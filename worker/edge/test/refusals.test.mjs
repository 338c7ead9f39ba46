// Bad input is refused at the edge as the native server refuses it, with a 4xx and an
// Azure code, and changes nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { entityPath, batchBody, batchContentType } from "../src/restcall.mjs";
import { clients, tempDir, signedFetch, accountName } from "./helpers.mjs";

let tmp, edge, c;
before(async () => {
  tmp = tempDir();
  edge = await startEdge({ persistDir: tmp.dir });
  c = clients(edge.url);
  await c.service.createTable("Refusals");
});
after(async () => {
  await edge?.stop();
  tmp?.cleanup();
});

/** errorOf is the status, x-ms-error-code and message of an error answer. */
async function errorOf(res) {
  const text = await res.text();
  let message = text;
  try {
    message = JSON.parse(text)["odata.error"].message.value;
  } catch {
    // not JSON: the text is the message
  }
  return { status: res.status, code: res.headers.get("x-ms-error-code"), message };
}

test("If-None-Match on an update, merge, upsert or delete is 400 InvalidInput and changes nothing", async () => {
  const t = c.table("Refusals");
  await t.upsertEntity({ partitionKey: "cond", rowKey: "r", A: 1 }, "Replace");
  const path = entityPath("Refusals", "cond", "r");
  for (const [method, ifMatch, body] of [
    ["DELETE", "*", undefined],
    ["DELETE", "", undefined],
    ["PUT", "", '{"B":2}'],
    ["PUT", "*", '{"B":2}'],
    ["MERGE", "*", '{"B":2}'],
  ]) {
    const headers = { "if-none-match": "*", ...(ifMatch && { "if-match": ifMatch }) };
    const got = await errorOf(await signedFetch(edge.url, { method, path, headers, body }));
    assert.equal(`${got.status} ${got.code}`, "400 InvalidInput", `${method} If-Match ${ifMatch || "absent"}: ${got.message}`);
    assert.match(got.message, /If-None-Match/);
    const e = await t.getEntity("cond", "r");
    assert.ok(e.A === 1 && e.B === undefined, `${method} changed the entity`);
  }
  const batch = batchBody(accountName, [["DELETE", path, "", "*"]]).replace("If-Match: *\r\n", "If-Match: *\r\nIf-None-Match: *\r\n");
  const res = await signedFetch(edge.url, { method: "POST", path: "/$batch", headers: { "content-type": batchContentType }, body: batch });
  assert.equal(res.status, 202);
  assert.match(await res.text(), /HTTP\/1\.1 400 Bad Request[\s\S]*"value":"0:Both If-Match and If-None-Match/);
  assert.equal((await t.getEntity("cond", "r")).A, 1, "the batch deleted the entity");
});
