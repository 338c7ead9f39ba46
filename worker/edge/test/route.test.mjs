import { test } from "node:test";
import assert from "node:assert/strict";
import { route, batchRoute, tableLifecycle, accountNames, objectName } from "../src/route.mjs";

const accounts = ["devstoreaccount1", "other"];
const base = "http://127.0.0.1:8787/devstoreaccount1";

test("route: account-level requests go to the account object", () => {
  for (const [method, path] of [
    ["GET", "/?restype=service&comp=properties"],
    ["GET", ""],
    ["GET", "/Tables"],
    ["GET", "/Tables()?$filter=TableName%20eq%20'x'"],
    ["POST", "/Tables"],
    ["DELETE", "/Tables('People')"],
    ["DELETE", "/Tables(%27People%27)"],
    ["OPTIONS", "/People(PartitionKey='p',RowKey='r')"],
    ["GET", "/a/b"],
    ["GET", "/%E0%A4%A"],
  ]) {
    assert.deepEqual(route(method, base + path, accounts), { account: "devstoreaccount1", table: "" }, `${method} ${path}`);
  }
});

test("route: entity, query and ACL requests go to the table's object", () => {
  for (const path of ["/People", "/People()", "/People(PartitionKey='a/b',RowKey='r')", "/People?comp=acl", "/Pe%6Fple()"]) {
    assert.deepEqual(route("GET", base + path, accounts), { account: "devstoreaccount1", table: "People" }, path);
  }
  assert.equal(objectName("devstoreaccount1", "People"), "devstoreaccount1/people");
});

test("route: host style names the account in the host", () => {
  assert.deepEqual(route("GET", "https://other.table.example.com/T()", accounts), { account: "other", table: "T" });
  assert.deepEqual(route("GET", "https://nobody.table.example.com/other/T()", accounts), { account: "other", table: "T" });
});

test("route: an account not served goes to the first account's object", () => {
  assert.deepEqual(route("GET", "http://127.0.0.1/nobody/T()", accounts), { account: "devstoreaccount1", table: "" });
});

test("route: $batch is routed by the first request in its body", () => {
  assert.deepEqual(route("POST", base + "/$batch", accounts), { account: "devstoreaccount1", batch: true });
  const body = [
    "--batch_1", "Content-Type: multipart/mixed; boundary=changeset_1", "", "--changeset_1",
    "Content-Type: application/http", "Content-Transfer-Encoding: binary", "",
    `POST ${base}/Orders HTTP/1.1`, "Content-Type: application/json", "", "{}", "--changeset_1--", "--batch_1--",
  ].join("\r\n");
  assert.deepEqual(batchRoute(body, base + "/$batch", accounts), { account: "devstoreaccount1", table: "Orders" });
  assert.deepEqual(batchRoute("garbage", base + "/$batch", accounts), { account: "devstoreaccount1", table: "" });
});

test("tableLifecycle finds Create Table and Delete Table", () => {
  assert.deepEqual(tableLifecycle("POST", base + "/Tables"), { op: "create" });
  assert.deepEqual(tableLifecycle("POST", "https://a.table.x/Tables()"), { op: "create" });
  assert.deepEqual(tableLifecycle("DELETE", base + "/Tables('It''s')"), { op: "delete", table: "It's" });
  assert.deepEqual(tableLifecycle("DELETE", base + "/Tables(%27People%27)"), { op: "delete", table: "People" });
  assert.equal(tableLifecycle("GET", base + "/Tables"), null);
  assert.equal(tableLifecycle("GET", base + "/?restype=service&comp=properties"), null);
});

test("accountNames reads names from TABLETOP_ACCOUNTS", () => {
  assert.deepEqual(accountNames(""), []); // never the development account by default
  assert.deepEqual(accountNames(undefined), []);
  assert.deepEqual(accountNames("alpha:a2V5;beta:a2V5:a2V5Mg==; "), ["alpha", "beta"]);
});

test("route ignores one trailing slash, as the handler does", () => {
  const accounts = ["devstoreaccount1"];
  const base = "http://127.0.0.1:8787/devstoreaccount1";
  assert.deepEqual(route("POST", base + "/$batch/", accounts), { account: "devstoreaccount1", batch: true });
  assert.deepEqual(route("GET", base + "/People/", accounts), { account: "devstoreaccount1", table: "People" });
  assert.deepEqual(route("GET", base + "/People()/", accounts), { account: "devstoreaccount1", table: "People" });
  assert.deepEqual(route("GET", base + "/Tables/", accounts), { account: "devstoreaccount1", table: "" });
  assert.deepEqual(tableLifecycle("POST", base + "/Tables/"), { op: "create" });
  assert.deepEqual(tableLifecycle("DELETE", base + "/Tables('People')/"), { op: "delete", table: "People" });
});

test("route sends the secondary location to the account's objects", () => {
  const accounts = ["devstoreaccount1"];
  assert.deepEqual(route("GET", "http://127.0.0.1:8787/devstoreaccount1-secondary/People()", accounts), { account: "devstoreaccount1", table: "People" });
  assert.deepEqual(route("GET", "https://devstoreaccount1-secondary.table.example.com/People()", accounts), { account: "devstoreaccount1", table: "People" });
  assert.deepEqual(route("GET", "http://127.0.0.1:8787/nobody-secondary/People()", accounts), { account: "devstoreaccount1", table: "" });
});
