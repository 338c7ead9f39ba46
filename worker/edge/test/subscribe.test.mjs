// Subscriber sockets on a table's change feed (src/subscribe.mjs): a change feed request
// that asks to wait and to subscribe is answered at once with a ticket; the ticket opens
// a hibernatable socket on the table's object, which holds no request for it and is woken
// by the next write to its table (and its SAS's key range) within a second; a write
// between the page and the socket wakes it at once; a bad ticket or credential gets no
// socket; a table split across objects closes its sockets and is held as before.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { generateTableSas } from "@azure/data-tables";
import { clients, credential, tempDir, accountName, stats, signedFetch } from "./helpers.mjs";
import { openSocket } from "./wsclient.mjs";

const tmp = tempDir();
after(() => tmp.cleanup());

const ACCEPT = { Accept: "application/json;odata=minimalmetadata", "x-ms-version": "2019-02-02" };

/** sasOf is a query SAS on table, limited to a PartitionKey range when range is given. */
function sasOf(table, range = {}) {
  return generateTableSas(table, credential, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3), ...range });
}

/** feed reads a page of table's change feed after since with sas, asking to wait and subscribe. */
async function feed(url, table, since, { sas = sasOf(table), wait = 10, subscribe = true } = {}) {
  const extra = `${wait === undefined ? "" : `&wait=${wait}`}${subscribe ? "&subscribe=1" : ""}`;
  const start = performance.now();
  const res = await fetch(`${url}/${accountName}/${table}()?comp=changes&since=${encodeURIComponent(since)}${extra}&${sas}`, { headers: ACCEPT });
  const body = await res.json();
  return { status: res.status, body, took: performance.now() - start, keys: res.ok ? body.value.map((e) => e.RowKey) : [] };
}

/** end reads table's feed to its end and returns the last page. */
async function end(url, table, sas) {
  let page = { body: { "tabletop.checkpoint": "", "tabletop.more": true } };
  while (page.body["tabletop.more"]) page = await feed(url, table, page.body["tabletop.checkpoint"], { sas, wait: undefined, subscribe: false });
  return page;
}

/** socketAt opens a subscriber socket on table with ticket. */
function socketAt(url, table, ticket) {
  return openSocket(`${url}/${accountName}/${table}()?comp=changes&subscribe=${encodeURIComponent(ticket)}`);
}

/** woken times the next message on socket after write() resolves, or null if none in ms. */
async function woken(socket, write, ms = 1000) {
  const start = performance.now();
  await write();
  const m = await socket.next(ms);
  return m === null ? null : { message: m, took: performance.now() - start };
}

test("a subscriber socket is woken by a write to its table and holds nothing in the object", async () => {
  const edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_SPLIT_ENTITIES: "6" } });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Live");
    await service.createTable("Other");
    const since = (await end(edge.url, "Live")).body["tabletop.checkpoint"];

    const offer = await feed(edge.url, "Live", since);
    assert.equal(offer.status, 200);
    assert.deepEqual(offer.keys, []);
    assert.ok(offer.took < 2000, `a subscribing page is answered at once, not held: ${Math.round(offer.took)} ms`);
    const ticket = offer.body["tabletop.subscribe"];
    assert.match(ticket, /^[\w-]+\.[\w-]+$/);

    const ws = await socketAt(edge.url, "Live", ticket);
    assert.equal(ws.status, 101);
    assert.equal(await ws.next(300), null, "no write since the page: not woken");
    assert.deepEqual((await stats(edge.url, "Live")).feed, { held: 0, subscribers: 1 }, "an idle subscriber holds no request");
    ws.send("ping");
    assert.equal(await ws.next(1000), "pong", "a keep-alive ping is answered");

    assert.equal(await woken(ws, () => table("Other").createEntity({ partitionKey: "p", rowKey: "elsewhere" }), 500), null, "another table's write wakes nothing");
    const got = await woken(ws, () => table("Live").createEntity({ partitionKey: "p", rowKey: "1" }));
    assert.ok(got, "a write to the table wakes its subscriber");
    assert.deepEqual(JSON.parse(got.message), { changed: true });
    assert.ok(got.took < 1000, `woken ${Math.round(got.took)} ms after the write was acknowledged`);
    const pulled = await feed(edge.url, "Live", since, { wait: undefined, subscribe: false });
    assert.deepEqual(pulled.keys, ["1"], "the pull after a wake is the ordinary feed");
    assert.ok(await woken(ws, () => table("Live").deleteEntity("p", "1")), "a delete wakes it too");

    // A write between the page and the socket wakes the socket as it opens.
    const late = await feed(edge.url, "Live", (await end(edge.url, "Live")).body["tabletop.checkpoint"]);
    await table("Live").createEntity({ partitionKey: "p", rowKey: "between" });
    const ws2 = await socketAt(edge.url, "Live", late.body["tabletop.subscribe"]);
    assert.equal(ws2.status, 101);
    assert.equal(await ws2.next(1000), '{"changed":true}', "a write before the socket opened wakes it at once");
    assert.equal(await ws.next(1000), '{"changed":true}');

    // Without subscribe, or asking not to wait, the feed is as before.
    const plain = await feed(edge.url, "Live", (await end(edge.url, "Live")).body["tabletop.checkpoint"], { wait: 1, subscribe: false });
    assert.equal(plain.body["tabletop.subscribe"], undefined);
    assert.ok(plain.took >= 900, `a page not subscribing is held: ${Math.round(plain.took)} ms`);
    assert.equal((await feed(edge.url, "Live", since, { wait: undefined })).body["tabletop.subscribe"], undefined, "no ticket without wait");

    // Split: the object closes its sockets; the split table is held, not offered a socket.
    for (let i = 0; i < 8; i++) await table("Live").createEntity({ partitionKey: `p${i}`, rowKey: "x" });
    const closed = await Promise.race([ws.closed, new Promise((r) => setTimeout(() => r(null), 10000))]);
    assert.equal(closed?.code, 4000, "the split closes the subscriber sockets");
    const splitSince = (await end(edge.url, "Live")).body["tabletop.checkpoint"];
    const split = await feed(edge.url, "Live", splitSince, { wait: 1 });
    assert.equal(split.body["tabletop.subscribe"], undefined, "a split table offers no socket");
    assert.ok(split.took >= 900, `a split table's subscribing page is held: ${Math.round(split.took)} ms`);
    const stale = await socketAt(edge.url, "Live", ticket);
    assert.deepEqual([stale.status, stale.headers["x-ms-error-code"]], [409, "SubscriptionNotOffered"]);
  } finally {
    await edge.stop();
  }
});

test("a subscriber's credential is the change feed's: a bad one gets no socket, a SAS range is not woken outside it", async () => {
  const edge = await startEdge({ persistDir: tmp.dir + "-auth", vars: { TABLETOP_DEBUG: "1" } });
  try {
    const { service, table } = clients(edge.url);
    await service.createTable("Ranged");
    const t = table("Ranged");
    const sas = sasOf("Ranged", { startPartitionKey: "b", endPartitionKey: "c" });
    const offer = await feed(edge.url, "Ranged", (await end(edge.url, "Ranged", sas)).body["tabletop.checkpoint"], { sas });
    const ws = await socketAt(edge.url, "Ranged", offer.body["tabletop.subscribe"]);
    assert.equal(ws.status, 101);
    for (const pk of ["a", "d", "c0"]) assert.equal(await woken(ws, () => t.createEntity({ partitionKey: pk, rowKey: "out" }), 500), null, `a write to ${pk}, outside b…c, wakes nothing`);
    assert.ok(await woken(ws, () => t.createEntity({ partitionKey: "b", rowKey: "in" })), "a write inside the range wakes it");
    assert.ok(await woken(ws, () => t.createEntity({ partitionKey: "c", rowKey: "in" })), "the end of the range is inside it");
    const pulled = await feed(edge.url, "Ranged", offer.body["tabletop.checkpoint"], { sas, wait: undefined, subscribe: false });
    assert.deepEqual(pulled.body.value.map((e) => e.PartitionKey).sort(), ["b", "c"], "the pull is limited to the range");

    // Shared Key: the same offer.
    const signed = await signedFetch(edge.url, { method: "GET", path: "/Ranged()", query: { comp: "changes", since: pulled.body["tabletop.checkpoint"], wait: "5", subscribe: "1" }, headers: ACCEPT });
    assert.equal(signed.status, 200);
    const keyTicket = (await signed.json())["tabletop.subscribe"];
    const keyed = await socketAt(edge.url, "Ranged", keyTicket);
    assert.equal(keyed.status, 101);
    assert.ok(await woken(keyed, () => t.createEntity({ partitionKey: "z", rowKey: "any" })), "a Shared Key subscriber sees every key");
    keyed.close();

    // Refusals: an Azure error status, and no socket.
    const refused = async (ticket, label) => {
      const res = await socketAt(edge.url, "Ranged", ticket);
      assert.deepEqual([res.status, res.headers["x-ms-error-code"]], [403, "AuthenticationFailed"], label);
      assert.match(res.body, /AuthenticationFailed/);
    };
    const [body, sig] = offer.body["tabletop.subscribe"].split(".");
    await refused(`${body}.${sig.slice(0, -2)}AA`, "a ticket whose signature is wrong");
    const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url")), k: null })).toString("base64url");
    await refused(`${widened}.${sig}`, "a ticket whose key range was widened");
    await refused("nothing", "no ticket");
    const other = await socketAt(edge.url, "Other", offer.body["tabletop.subscribe"]);
    assert.equal(other.status, 403, "a ticket for another table");
    const badSas = sas.replace(/sig=[^&]+/, "sig=" + encodeURIComponent(Buffer.alloc(32).toString("base64")));
    const forged = await feed(edge.url, "Ranged", "", { sas: badSas });
    assert.equal(forged.status, 403, "a refused credential gets no ticket");
    assert.equal(forged.body["tabletop.subscribe"], undefined);
    const expired = generateTableSas("Ranged", credential, { permissions: { query: true }, expiresOn: new Date(Date.now() - 60e3) });
    assert.equal((await feed(edge.url, "Ranged", "", { sas: expired })).status, 403, "an expired SAS gets no ticket");
    assert.deepEqual((await stats(edge.url, "Ranged")).feed, { held: 0, subscribers: 1 });
  } finally {
    await edge.stop();
  }
});
