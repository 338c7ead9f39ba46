// The change feed checkpoint of a split table: a vector of the ranges' own checkpoints.
import { test } from "node:test";
import assert from "node:assert/strict";
import { START, encodeVector, decodeVector, sinceAt, fits, epochOf } from "../src/vector.mjs";
import { defaultMap, splitMap } from "../src/partition.mjs";

const vector = { epoch: 3, start: "m", entries: [["", "AgA"], ["m", ""], ["t", "AgB"]] };

test("decodeVector", async (t) => {
  await t.test("OK", () => {
    assert.deepEqual(decodeVector(encodeVector(vector)), vector);
    assert.equal(decodeVector(""), START);
    assert.equal(decodeVector(null), START);
    // a Go handler's checkpoint (version byte 2): one entry over every key, any epoch
    assert.deepEqual(decodeVector("AgAB"), { epoch: null, start: "", entries: [["", "AgAB"]] });
  });
  await t.test("ErrInvalid", () => {
    const bad = [
      "!!",
      "Vg", // the mark, no version
      encodeVector(vector).replace(/^Vg/, "Vh"), // another version
      encodeVector({ ...vector, start: "x" }), // start is no entry's
      encodeVector({ ...vector, entries: [["a", ""]] }), // the first entry must cover ""
      encodeVector({ ...vector, entries: [["", ""], ["t", ""], ["m", ""]] }), // out of order
      encodeVector({ ...vector, entries: [["", 1]] }),
      encodeVector({ ...vector, epoch: -1 }),
      btoa("V\u0001[1,").replace(/=+$/, ""),
    ];
    for (const text of bad) assert.equal(decodeVector(text), undefined, text);
  });
});

test("sinceAt carries a range's checkpoint over to the ranges it splits into", () => {
  assert.deepEqual(
    ["", "a", "m", "p", "t", "zz"].map((lo) => sinceAt(vector, lo)),
    ["AgA", "AgA", "", "", "AgB", "AgB"],
  );
});

test("fits tells whether a map has every range a vector names", () => {
  let map = splitMap(defaultMap("a", "t"), "m", "a/t#1");
  assert.ok(!fits(vector, map), "the map has no range at t: it is older than the vector");
  map = splitMap(map, "t", "a/t#2");
  assert.ok(fits(vector, map));
  assert.ok(fits(vector, splitMap(map, "p", "a/t#3")), "a later split keeps every boundary");
  assert.ok(fits(START, defaultMap("a", "t")));
});

test("epochOf is the version at which a table last started over", () => {
  assert.equal(epochOf(defaultMap("a", "t")), 0);
  assert.equal(epochOf(splitMap(defaultMap("a", "t", 7, 7), "m", "x")), 7, "a split keeps the epoch");
});
