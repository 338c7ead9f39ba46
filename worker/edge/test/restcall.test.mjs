// The pure parts of the RPC entrypoint's REST calls (src/restcall.mjs): signing, entity
// paths, error answers and transaction answers. The entrypoint itself runs in workerd
// (binding.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { accountKeys, signedRequest, entityPath, failure, batchBody, batchAnswer } from "../src/restcall.mjs";
import { DEV_ACCOUNTS } from "../runtime.mjs";

test("accountKeys", () => {
  assert.deepEqual([...accountKeys(`${DEV_ACCOUNTS}; b:a2V5:c2Vjb25k ;;bad`)].map(([n]) => n), ["devstoreaccount1", "b"]);
  assert.equal(accountKeys("b:a2V5:c2Vjb25k").get("b"), "a2V5");
  assert.equal(accountKeys(undefined).size, 0);
});

test("signedRequest signs Shared Key Lite over the path as sent", async () => {
  const key = accountKeys(DEV_ACCOUNTS).get("devstoreaccount1");
  const req = await signedRequest({ account: "devstoreaccount1", key, method: "GET", path: "/Tables", query: { comp: "acl", $top: 5, empty: "" } });
  const url = new URL(req.url);
  assert.equal(url.search, "?comp=acl&%24top=5");
  const date = req.headers.get("x-ms-date");
  const want = createHmac("sha256", Buffer.from(key, "base64")).update(`${date}\n/devstoreaccount1/devstoreaccount1/Tables?comp=acl`).digest("base64");
  assert.equal(req.headers.get("authorization"), `SharedKeyLite devstoreaccount1:${want}`);
  assert.equal(req.headers.get("x-ms-version"), "2019-02-02");
});

test("entityPath quotes and escapes keys as the SDKs do", () => {
  assert.equal(entityPath("t", "o'brien", "50% #1"), "/t(PartitionKey='o''brien',RowKey='50%25%20%231')");
  assert.equal(entityPath("t", "", undefined), "/t(PartitionKey='',RowKey='')");
});

test("failure", async (t) => {
  await t.test("OK/JSON", () => {
    const body = JSON.stringify({ "odata.error": { code: "EntityAlreadyExists", message: { lang: "en-US", value: "1:The specified entity already exists.\nRequestId:x\nTime:y" } } });
    assert.deepEqual(failure(409, body), { code: "EntityAlreadyExists", statusCode: 409, message: "1:The specified entity already exists.", index: 1 });
  });
  await t.test("OK/NotJSON", () => {
    assert.deepEqual(failure(500, "boom", new Headers({ "x-ms-error-code": "InternalError" })), { code: "InternalError", statusCode: 500, message: "boom" });
  });
});

test("batchAnswer", async (t) => {
  const ok = "--batchresponse_b\r\nContent-Type: multipart/mixed; boundary=changesetresponse_c\r\n\r\n" +
    "--changesetresponse_c\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\nETag: W/\"1\"\r\n\r\n\r\n" +
    "--changesetresponse_c\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n\r\n" +
    "--changesetresponse_c--\r\n--batchresponse_b--\r\n";
  await t.test("OK", () => assert.deepEqual(batchAnswer(ok), { etags: ['W/"1"', ""] }));
  await t.test("ErrFailedAction", () => {
    const failed = "--batchresponse_b\r\nContent-Type: multipart/mixed; boundary=changesetresponse_c\r\n\r\n" +
      "--changesetresponse_c\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 409 Conflict\r\nContent-Type: application/json\r\n\r\n" +
      JSON.stringify({ "odata.error": { code: "EntityAlreadyExists", message: { lang: "en-US", value: "2:exists\nRequestId:r" } } }) + "\r\n" +
      "--changesetresponse_c--\r\n--batchresponse_b--\r\n";
    assert.deepEqual(batchAnswer(failed), { error: { code: "EntityAlreadyExists", statusCode: 409, message: "2:exists", index: 2 } });
  });
});

test("batchBody frames each action as the SDKs do", () => {
  const body = batchBody("acct", [["POST", "/t", '{"PartitionKey":"p","RowKey":"r"}', ""], ["DELETE", "/t(PartitionKey='p',RowKey='s')", "", "*"]]);
  assert.match(body, /^--batch_tabletop\r\nContent-Type: multipart\/mixed; boundary=changeset_tabletop\r\n\r\n--changeset_tabletop\r\n/);
  assert.match(body, /POST http:\/\/127\.0\.0\.1\/acct\/t HTTP\/1\.1\r\n[^]*Prefer: return-no-content\r\n\r\n\{"PartitionKey":"p","RowKey":"r"\}\r\n/);
  assert.match(body, /DELETE http:\/\/127\.0\.0\.1\/acct\/t\(PartitionKey='p',RowKey='s'\) HTTP\/1\.1\r\n[^]*If-Match: \*\r\n\r\n\r\n--changeset_tabletop--\r\n--batch_tabletop--\r\n$/);
});
