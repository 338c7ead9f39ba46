// Strangers are refused at the door: a request with no or malformed credentials is
// answered 403 AuthenticationFailed by the entry Worker, as the Go handler would answer
// it, without starting a Go instance; signed requests and preflights go in.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir, accountName } from "./helpers.mjs";

let tmp, edge, c;
before(async () => {
  tmp = tempDir();
  edge = await startEdge({ persistDir: tmp.dir });
  c = clients(edge.url);
});
after(async () => {
  await edge?.stop();
  tmp?.cleanup();
});

const startedCount = async () => (await (await fetch(`${edge.url}/__tabletop/started`)).json()).started;

test("requests without usable credentials are refused at the entry, waking no object", async () => {
  const before = await startedCount();
  const sig = "A".repeat(43) + "=";
  for (const [path, init, xml] of [
    ["/Tables", {}, false],
    ["/People(PartitionKey='p',RowKey='r')", { method: "DELETE", headers: { "if-match": "*" } }, false],
    ["/People()", { headers: { authorization: "Bearer token" } }, false],
    ["/People()", { headers: { authorization: `SharedKey ${accountName}:not-base64` } }, false],
    ["/People()", { headers: { authorization: `SharedKey someoneelse:${sig}` } }, false],
    ["/People?comp=acl", {}, true],
    ["/?restype=service&comp=properties", {}, true],
  ]) {
    const res = await fetch(`${c.endpoint}${path}`, init);
    assert.equal(res.status, 403, path);
    assert.equal(res.headers.get("x-ms-error-code"), "AuthenticationFailed", path);
    assert.match(res.headers.get("x-ms-request-id"), /^[0-9a-f-]{36}$/);
    const body = await res.text();
    if (xml) assert.match(body, /^<\?xml version="1.0" encoding="utf-8"\?><Error><Code>AuthenticationFailed<\/Code><Message>Server failed to authenticate the request\./);
    else assert.equal(JSON.parse(body)["odata.error"].code, "AuthenticationFailed", path);
  }
  assert.equal(await startedCount(), before, "no Go instance was started");
});

test("signed requests, shared access signatures and preflights still reach their objects", async () => {
  await c.service.createTable("Door");
  await c.table("Door").createEntity({ partitionKey: "p", rowKey: "r" });
  const badSig = await fetch(`${c.endpoint}/Door()?sv=2019-02-02&tn=door&sp=r&se=2099-01-01&sig=AAAA`);
  assert.equal(badSig.status, 403, "a SAS is checked by the handler");
  const preflight = await fetch(`${c.endpoint}/Door()`, { method: "OPTIONS", headers: { origin: "http://x", "access-control-request-method": "GET" } });
  assert.equal(preflight.status, 403, "no CORS rule: the account object answers CorsPreflightFailure");
  assert.equal(preflight.headers.get("x-ms-error-code"), "CorsPreflightFailure");
  const unknown = await fetch(`${edge.url}/nosuchaccount/Tables`);
  assert.equal(unknown.status, 400, "an account that is not served is the handler's InvalidUri");
});
