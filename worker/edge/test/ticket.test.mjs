// Subscription tickets and wakes (src/subscribe.mjs), in Node: a ticket reads back for its
// object until it expires, and not for another object, account or key; a SAS's key range
// and expiry travel in it; a write wakes a range only when its PartitionKey may be in it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { issueTicket, readTicket, mayConcern, attachmentOf, TICKET_TTL_MS } from "../src/subscribe.mjs";
import { DEV_ACCOUNTS } from "../runtime.mjs";

const env = { TABLETOP_ACCOUNTS: DEV_ACCOUNTS };
const object = "devstoreaccount1/live";
const sasURL = "http://h/devstoreaccount1/live()?comp=changes&sig=x&se=2030-01-02T03:04:05Z&spk=b&epk=c";

test("readTicket", async (t) => {
  await t.test("OK", async () => {
    const got = await readTicket(env, object, await issueTicket(env, object, "boot:3", sasURL));
    assert.deepEqual([got.o, got.p, got.k, got.u], [object, "boot:3", ["b", null, "c", null], Date.parse("2030-01-02T03:04:05Z")]);
    const keyed = await readTicket(env, object, await issueTicket(env, object, "boot:3", "http://h/devstoreaccount1/live()?comp=changes&spk=b"));
    assert.deepEqual([keyed.k, keyed.u], [null, null], "no SAS: every key, no expiry");
  });
  await t.test("ErrExpired", async (t) => {
    const ticket = await issueTicket(env, object, "boot:3", sasURL);
    const later = Date.now() + TICKET_TTL_MS + 1000;
    t.mock.method(Date, "now", () => later);
    assert.equal(await readTicket(env, object, ticket), null);
  });
  await t.test("ErrOther", async () => {
    const ticket = await issueTicket(env, object, "boot:3", sasURL);
    assert.equal(await readTicket(env, "devstoreaccount1/other", ticket), null, "another table");
    const rotated = { TABLETOP_ACCOUNTS: `devstoreaccount1:${Buffer.alloc(64, 1).toString("base64")}` };
    assert.equal(await readTicket(rotated, object, ticket), null, "another key");
    assert.equal(await readTicket({ TABLETOP_ACCOUNTS: "" }, object, ticket), null, "an account not served");
    for (const bad of ["", "a", "a.b", `${ticket}.x`, ticket.replace(".", ".A")]) assert.equal(await readTicket(env, object, bad), null, bad);
  });
});

test("mayConcern", () => {
  const k = ["b", "5", "c", null];
  for (const [pk, want] of [["a", false], ["b", true], ["b0", true], ["c", true], ["c0", false], ["d", false], [null, true]]) {
    assert.equal(mayConcern(k, pk), want, `${pk}`);
  }
  assert.equal(mayConcern(null, "z"), true, "no range: every key");
  assert.equal(mayConcern(["m", null, null, null], "z"), true, "no end");
  assert.deepEqual(attachmentOf({ k: ["x".repeat(2000), null, null, null], u: 1 }), { k: null, u: 1 }, "a range too long to keep wakes on every write");
});
