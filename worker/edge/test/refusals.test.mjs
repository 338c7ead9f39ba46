// Bad input is refused at the edge as the native server refuses it, with a 4xx and an
// Azure code, and changes nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { startEdge } from "../runtime.mjs";
import { entityPath, batchBody, batchContentType } from "../src/restcall.mjs";
import { clients, tempDir, signedAt, signedFetch, accountName } from "./helpers.mjs";

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

/**
 * exchange sends a request on a socket of its own: the head of call as signedAt signs it,
 * with more header lines, then the body, chunk by chunk, from chunks (an iterable of
 * Buffers) until the answer's head arrives; end half-closes the socket after the last
 * chunk. It resolves to the answer's status and headers (lower-case names) and the body
 * bytes sent.
 */
async function exchange(call, more, chunks, { end = false } = {}) {
  const { url, headers } = await signedAt(edge.url, call);
  let head = `${call.method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  for (const [k, v] of headers) head += `${k}: ${v}\r\n`;
  const sock = net.connect(Number(url.port), "127.0.0.1");
  sock.on("error", () => {}); // the server may close, even reset, while the body is still coming
  let text = "";
  const answered = new Promise((resolve) => {
    sock.on("data", (d) => (text += d) && text.includes("\r\n\r\n") && resolve());
    sock.on("close", resolve);
  });
  let sent = 0;
  let over = false;
  answered.then(() => (over = true));
  sock.write(head + more + "\r\n");
  for (const chunk of chunks) {
    if (over || sock.destroyed) break;
    sent += chunk.length;
    if (!sock.write(chunk)) await Promise.race([once(sock, "drain").catch(() => {}), answered]);
    await new Promise(setImmediate); // read an early answer before the server, closing, resets the socket
  }
  if (end && !over) sock.end();
  await answered;
  sock.destroy();
  const [status, ...lines] = text.slice(0, text.indexOf("\r\n\r\n")).split("\r\n");
  const h = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status: Number(status.split(" ")[1]), headers: h, sent };
}

/** spaces yields n bytes of spaces in pieces of 64 KiB, each framed as a chunk when chunked. */
function* spaces(n, chunked = false) {
  const piece = Buffer.alloc(64 << 10, 0x20);
  for (let left = n; left > 0; left -= piece.length) {
    const b = left < piece.length ? piece.subarray(0, left) : piece;
    if (chunked) yield Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")]);
    else yield b;
  }
  if (chunked) yield Buffer.from("0\r\n\r\n");
}

const BIG = 64 << 20;

/** PEAK_MB bounds workerd's memory through the tests above: a 64 MiB body held whole passes it. */
const PEAK_MB = 320;

test("a body over the limit is 413 RequestBodyTooLarge before it is read whole, announced or chunked", async () => {
  const insert = { method: "POST", path: "/Refusals", body: "" };
  const json = "content-type: application/json\r\n";
  const announced = await exchange(insert, `${json}content-length: ${BIG}\r\n`, spaces(BIG));
  assert.equal(`${announced.status} ${announced.headers["x-ms-error-code"]}`, "413 RequestBodyTooLarge", `announced: ${announced.sent} bytes sent`);
  const chunked = await exchange(insert, `${json}transfer-encoding: chunked\r\n`, spaces(BIG, true));
  assert.equal(`${chunked.status} ${chunked.headers["x-ms-error-code"]}`, "413 RequestBodyTooLarge", `chunked: ${chunked.sent} bytes sent`);
  const batch = { method: "POST", path: "/$batch", body: "" };
  const batched = await exchange(batch, `content-type: multipart/mixed; boundary=b\r\ncontent-length: ${BIG}\r\n`, spaces(BIG));
  assert.equal(`${batched.status} ${batched.headers["x-ms-error-code"]}`, "413 RequestBodyTooLarge", `batched: ${batched.sent} bytes sent`);
  // The bodies were never held whole: before, the entry Worker read each (workerd's
  // memory then grew with every body) and failed 500 handing it to its object.
  assert.ok(peakMB(edge.pid) < PEAK_MB, `workerd peaked at ${peakMB(edge.pid)} MB`);
});

test("a malformed chunk or a body that ends early is 400 InvalidInput", async () => {
  const insert = { method: "POST", path: "/Refusals", body: "" };
  const json = "content-type: application/json\r\n";
  const entity = Buffer.from('{"PartitionKey":"bad","RowKey":"r"}');
  const badChunk = await exchange(insert, `${json}transfer-encoding: chunked\r\n`, [Buffer.from("zz\r\n"), entity, Buffer.from("\r\n0\r\n\r\n")]);
  assert.equal(`${badChunk.status} ${badChunk.headers["x-ms-error-code"]}`, "400 InvalidInput");
  const early = await exchange(insert, `${json}content-length: 100\r\n`, [entity], { end: true });
  assert.equal(`${early.status} ${early.headers["x-ms-error-code"]}`, "400 InvalidInput");
  const short = await exchange(insert, `${json}transfer-encoding: chunked\r\n`, [Buffer.from("40\r\n"), entity], { end: true });
  assert.equal(`${short.status} ${short.headers["x-ms-error-code"]}`, "400 InvalidInput");
  const left = [];
  for await (const e of c.table("Refusals").listEntities({ queryOptions: { filter: "PartitionKey eq 'bad'" } })) left.push(e);
  assert.deepEqual(left, [], "a refused body was stored");
});

test("error answers carry the account's CORS headers, those the glue builds included", async () => {
  const origin = "http://app.example";
  await c.service.setProperties({ cors: [{ allowedOrigins: origin, allowedMethods: "GET,POST,PUT,DELETE,MERGE", allowedHeaders: "*", exposedHeaders: "x-ms-*", maxAgeInSeconds: 60 }] });
  const sig = "A".repeat(43) + "=";
  const entities = `${c.endpoint}/Refusals()`;
  const cases = [
    ["no credentials", 403, "AuthenticationFailed", () => fetch(entities, { headers: { origin } })],
    ["another account's credentials", 403, "AuthenticationFailed", () => fetch(entities, { headers: { origin, authorization: `SharedKey someoneelse:${sig}` } })],
    ["a wrong signature", 403, "AuthenticationFailed", () => fetch(entities, { headers: { origin, authorization: `SharedKey ${accountName}:${sig}` } })],
    ["an account not served", 400, "InvalidUri", () => fetch(`${edge.url}/someoneelse/Tables`, { headers: { origin } })],
    ["a missing table", 404, "TableNotFound", () => signedFetch(edge.url, { method: "GET", path: "/Nope()", headers: { origin } })],
    ["a body too large", 413, "RequestBodyTooLarge", () => signedFetch(edge.url, { method: "POST", path: "/Refusals", headers: { origin }, body: " ".repeat((4 << 20) + 1) })],
  ];
  for (const [name, status, code, send] of cases) {
    const res = await send();
    await res.arrayBuffer();
    assert.equal(`${res.status} ${res.headers.get("x-ms-error-code")}`, `${status} ${code}`, name);
    assert.equal(res.headers.get("access-control-allow-origin"), origin, `${name}: no CORS headers`);
    assert.match(res.headers.get("access-control-expose-headers") ?? "", /x-ms-error-code/i, name);
  }
  const preflight = await fetch(`${edge.url}/someoneelse/Tables`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization" } });
  assert.equal(preflight.status, 200, "the preflight of an account not served");
  assert.equal(preflight.headers.get("access-control-allow-origin"), origin);
});

/** peakMB is the peak resident memory of process pid, in MB (Linux). */
function peakMB(pid) {
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024);
}
