// Create Table and Delete Table change two Durable Objects: the account's catalog and the
// table's own object. The runtime is SIGKILLed at moments swept across each operation,
// restarted on the same storage, and then, with no repair call, every table is either
// listed and usable or absent: an entity request and Query Tables agree.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startEdge } from "../runtime.mjs";
import { clients, tempDir } from "./helpers.mjs";

const ROUNDS = 24;
const tmp = tempDir();
after(() => tmp.cleanup());

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// outcome tries an entity write first (a table object that lacks its table asks the
// account object for it), then lists the tables; it fails the test if they disagree.
async function outcome(c, name) {
  let usable;
  try {
    await c.table(name).upsertEntity({ partitionKey: "p", rowKey: "after" });
    usable = true;
  } catch (err) {
    assert.equal(err.details?.errorCode, "TableNotFound", `${name}: ${err.message}`);
    usable = false;
  }
  const names = [];
  for await (const t of c.service.listTables()) names.push(t.name);
  const listed = names.includes(name);
  assert.equal(listed, usable, `${name} is ${listed ? "" : "not "}listed but ${usable ? "usable" : "not usable"}`);
  return listed;
}

// sweep runs op(c, name) ROUNDS times, killing the runtime a little later each round
// (from 0 to 1.25 times the operation's uninterrupted duration), and checks each outcome.
async function sweep(prefix, prepare, op) {
  let edge = await startEdge({ persistDir: tmp.dir });
  try {
    let c = clients(edge.url);
    await prepare(c, `${prefix}Probe`);
    const t0 = performance.now();
    await op(c, `${prefix}Probe`);
    const span = (performance.now() - t0) * 1.25;
    const seen = { done: 0, undone: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      const name = `${prefix}${i}`;
      await prepare(c, name);
      const pending = op(c, name).catch(() => {});
      await sleep((span * i) / (ROUNDS - 1));
      await edge.kill();
      await pending;
      edge = await startEdge({ persistDir: tmp.dir });
      c = clients(edge.url);
      seen[(await outcome(c, name)) === (prefix === "Create") ? "done" : "undone"]++;
    }
    return seen;
  } finally {
    await edge.stop();
  }
}

test("a crash at any moment of Create Table leaves the table listed and usable, or absent", async () => {
  const seen = await sweep(
    "Create",
    async (c) => {
      for await (const _ of c.service.listTables()); // the account object is up
    },
    (c, name) => c.service.createTable(name),
  );
  console.log(`Create Table, ${ROUNDS} kills: ${seen.done} happened, ${seen.undone} did not`);
});

test("a crash at any moment of Delete Table leaves the table listed and usable, or absent", async () => {
  const seen = await sweep(
    "Delete",
    async (c, name) => {
      await c.service.createTable(name);
      await c.table(name).createEntity({ partitionKey: "p", rowKey: "before" });
    },
    (c, name) => c.service.deleteTable(name),
  );
  console.log(`Delete Table, ${ROUNDS} kills: ${seen.done} happened, ${seen.undone} did not`);
});
