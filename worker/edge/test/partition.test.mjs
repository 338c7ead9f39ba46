// The partition map and what the entry Worker reads from a request to route it.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  compareKeys,
  defaultMap,
  rangeIndex,
  spanOf,
  splitMap,
  sameSpan,
  inSpan,
  pathKey,
  bodyKey,
  batchKey,
  filterKey,
  filterBounds,
  beyond,
  encodeToken,
  decodeToken,
  feedParts,
  joinFeeds,
} from "../src/partition.mjs";

test("splitMap: ranges stay ordered, versions grow, and every key has one range", () => {
  let map = defaultMap("acct", "Things");
  assert.deepEqual(map, { version: 0, ranges: [{ lo: "", obj: "acct/things" }] });
  map = splitMap(map, "m", "acct/things#1");
  map = splitMap(map, "f", "acct/things#2");
  map = splitMap(map, "t", "acct/things#3");
  assert.equal(map.version, 3);
  assert.deepEqual(
    map.ranges.map((r) => r.lo),
    ["", "f", "m", "t"],
  );
  for (const [pk, i] of [["", 0], ["a", 0], ["f", 1], ["ezzz", 0], ["m", 2], ["s", 2], ["t", 3], ["zz", 3]]) {
    assert.equal(rangeIndex(map, pk), i, pk);
    assert.ok(inSpan(spanOf(map, i), pk), pk);
  }
  assert.deepEqual(spanOf(map, 3), { lo: "t", hi: null, obj: "acct/things#3" });
  assert.deepEqual(spanOf(map, 1), { lo: "f", hi: "m", obj: "acct/things#2" });
  assert.throws(() => splitMap(map, "m", "x"), /a range starts there/);
  assert.ok(sameSpan({ lo: "f", hi: "m", obj: "o" }, { lo: "f", hi: "m", obj: "o" }));
  assert.ok(!sameSpan({ lo: "f", hi: "m", obj: "o" }, { lo: "f", hi: null, obj: "o" }));
});

test("pathKey, bodyKey, batchKey find the partition of a request", () => {
  assert.equal(pathKey("/acct/t(PartitionKey='it''s',RowKey='r')"), "it's");
  assert.equal(pathKey("/acct/t()"), undefined);
  assert.equal(bodyKey('{"PartitionKey":"p\\u00fc","RowKey":"r"}'), "pü");
  assert.equal(bodyKey('{"PartitionKey":1}'), undefined);
  assert.equal(bodyKey("not json"), undefined);
  const batch = [
    "--batch_1",
    "Content-Type: multipart/mixed; boundary=changeset_1",
    "",
    "--changeset_1",
    "Content-Type: application/http",
    "",
    "POST http://h/acct/t HTTP/1.1",
    "Content-Type: application/json",
    "",
    '{"PartitionKey":"from body","RowKey":"1"}',
    "--changeset_1",
    "DELETE http://h/acct/t(PartitionKey='from%20url',RowKey='2') HTTP/1.1",
    "",
  ].join("\r\n");
  assert.equal(batchKey(batch), "from body");
  assert.equal(batchKey(batch.replace("POST http://h/acct/t HTTP/1.1", "MERGE http://h/acct/t(PartitionKey='first',RowKey='1') HTTP/1.1")), "first");
  assert.equal(batchKey("--batch_1\r\n--batch_1--"), undefined);
});

test("filterKey finds a partition only when every match is in it", () => {
  const cases = [
    ["PartitionKey eq 'a'", "a"],
    ["(PartitionKey eq 'a''b') and RowKey gt '1'", "a'b"],
    ["RowKey gt '1' and PartitionKey eq 'a'", "a"],
    ["PartitionKey eq 'a' or PartitionKey eq 'b'", undefined],
    ["not (PartitionKey eq 'a')", undefined],
    ["PartitionKey ge 'a'", undefined],
    ["Name eq ' PartitionKey eq ''x'''", undefined],
    ["Name eq 'or' and PartitionKey eq 'x'", "x"],
    ["", undefined],
    [null, undefined],
  ];
  for (const [filter, want] of cases) assert.equal(filterKey(filter), want, String(filter));
});

test("filterBounds finds the PartitionKeys a filter can match", () => {
  const all = { lo: "", hi: null, hiIn: false };
  const cases = [
    ["PartitionKey ge 'a' and PartitionKey lt 'm'", { lo: "a", hi: "m", hiIn: false }],
    ["PartitionKey gt 'a' and (PartitionKey le 'm') and RowKey eq 'x'", { lo: "a", hi: "m", hiIn: true }],
    ["PartitionKey eq 'k'", { lo: "k", hi: "k", hiIn: true }],
    ["PartitionKey le 'm' and PartitionKey lt 'm'", { lo: "", hi: "m", hiIn: false }],
    ["PartitionKey lt 'm' and PartitionKey le 'm'", { lo: "", hi: "m", hiIn: false }],
    ["PartitionKey lt 'z' and PartitionKey le 'm' and PartitionKey ge 'b' and PartitionKey gt 'a'", { lo: "b", hi: "m", hiIn: true }],
    ["PartitionKey ge 'it''s'", { lo: "it's", hi: null, hiIn: false }],
    ["PartitionKey ge 'a' or PartitionKey lt 'm'", all],
    ["not (PartitionKey ge 'a')", all],
    ["Name eq ' PartitionKey ge ''x''' and PartitionKey lt 'q'", { lo: "", hi: "q", hiIn: false }],
    ["RowKey ge 'a'", all],
    ["", all],
    [null, all],
  ];
  for (const [filter, want] of cases) assert.deepEqual(filterBounds(filter), want, String(filter));
  const b = filterBounds("PartitionKey ge 'a' and PartitionKey lt 'm'");
  assert.deepEqual([beyond(b, "l"), beyond(b, "m"), beyond(b, "n")], [false, true, true]);
  assert.deepEqual([beyond(filterBounds("PartitionKey le 'm'"), "m"), beyond(all, "zzz")], [false, false]);
});

test("continuation tokens read as the Go handler writes them", () => {
  // core/query: base64url of version 1, kind 'P' and the key "pk1"
  assert.equal(encodeToken("P", "pk1"), "AVBwazE");
  assert.deepEqual(decodeToken("AVBwazE"), { kind: "P", key: "pk1" });
  assert.deepEqual(decodeToken(encodeToken("S", "ünï")), { kind: "S", key: "ünï" });
  assert.deepEqual(decodeToken(encodeToken("S", "")), { kind: "S", key: "" });
  for (const bad of ["", "A", "AlBw", "!!", null]) assert.equal(decodeToken(bad), undefined, String(bad));
});

test("joinFeeds joins the entities of several pages in order, byte for byte", () => {
  const head = '{"odata.metadata":"http://h/acct/$metadata#t","value":[';
  const a = feedParts(`${head}{"PartitionKey":"a","value":[1]},{"PartitionKey":"b"}]}`);
  const empty = feedParts(`${head}]}`);
  const c = feedParts(`${head}{"PartitionKey":"c","N":1.0}]}`);
  assert.equal(joinFeeds([a, empty, c]), `${head}{"PartitionKey":"a","value":[1]},{"PartitionKey":"b"},{"PartitionKey":"c","N":1.0}]}`);
  assert.equal(joinFeeds([empty]), `${head}]}`);
  assert.equal(feedParts('{"odata.error":{}}'), undefined);
});

// Keys on both sides of the U+E000–U+FFFF / beyond-U+FFFF boundary, where UTF-16 code unit
// order (JavaScript's <) and the store's UTF-8 byte order disagree.
const BOUNDARY_KEYS = ["", "a", "\u00e9", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\ue000a", "\uf8ff", "\ufffd", "\uffff", "\u{10000}", "\u{1f600}", "\u{1f600}a", "\u{10ffff}", "x\ue000", "x\u{1f600}"];

test("compareKeys orders keys by their UTF-8 bytes, as the store does", () => {
  const utf8 = (a, b) => Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
  for (const a of BOUNDARY_KEYS) for (const b of BOUNDARY_KEYS) assert.equal(Math.sign(compareKeys(a, b)), utf8(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  assert.ok(compareKeys("\ue000", "\u{1f600}") < 0 && "\ue000" > "\u{1f600}", "the case JavaScript's < gets wrong");
});

test("routing and bounds follow the store's order across the U+FFFF boundary", () => {
  let map = defaultMap("acct", "Things");
  map = splitMap(map, "\ue000", "acct/things#1");
  map = splitMap(map, "\u{1f600}", "acct/things#2");
  assert.deepEqual(
    map.ranges.map((r) => r.lo),
    ["", "\ue000", "\u{1f600}"],
  );
  for (const [pk, i] of [["a", 0], ["\ue000", 1], ["\uffff", 1], ["\u{10000}", 1], ["\u{1f600}", 2], ["\u{10ffff}", 2]]) {
    assert.equal(rangeIndex(map, pk), i, JSON.stringify(pk));
    assert.ok(inSpan(spanOf(map, i), pk), JSON.stringify(pk));
  }
  const b = filterBounds("PartitionKey ge '\u{10000}' and PartitionKey lt '\ufffd'");
  assert.deepEqual(b, { lo: "\u{10000}", hi: "\ufffd", hiIn: false }, "an empty span: its bounds are kept as given");
  const c = filterBounds("PartitionKey ge '\ue000' and PartitionKey ge '\u{10000}' and PartitionKey le '\u{10ffff}' and PartitionKey le '\u{1f600}'");
  assert.deepEqual(c, { lo: "\u{10000}", hi: "\u{1f600}", hiIn: true });
  assert.ok(beyond({ lo: "", hi: "\ufffd", hiIn: true }, "\u{10000}"));
  assert.ok(!beyond({ lo: "", hi: "\u{10000}", hiIn: false }, "\ufffd"));
});
