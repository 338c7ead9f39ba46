// The change feed checkpoint of a split table: a vector of the ranges' own checkpoints.
import { test } from "node:test";
import assert from "node:assert/strict";
import { START, encodeVector, decodeVector, sinceAt, fits, epochOf } from "../src/vector.mjs";
import { defaultMap, splitMap } from "../src/partition.mjs";

const vector = { epoch: 3, start: "m", entries: [["", "AgA"], ["m", ""], ["t", "AgB"]] };

test("decodeVector", async (t) => {
  await t.test("OK", async () => {
    assert.deepEqual(await decodeVector(await encodeVector(vector)), vector);
    assert.equal(await decodeVector(""), START);
    assert.equal(await decodeVector(null), START);
    // a Go handler's checkpoint (version byte 2): one entry over every key, any epoch
    assert.deepEqual(await decodeVector("AgAB"), { epoch: null, start: "", entries: [["", "AgAB"]] });
    // hundreds of ranges fit in a URL: their checkpoints share most of their bytes
    const many = { epoch: 0, start: "", entries: Array.from({ length: 500 }, (_, i) => [i ? `p${String(i).padStart(6, "0")}` : "", `AlRhYmxldG9wIHN0b3JlIGlkIQ${i}x`]) };
    const text = await encodeVector(many);
    assert.ok(text.length < 16000, `${text.length} characters for 500 ranges`);
    assert.deepEqual(await decodeVector(text), many);
  });
  await t.test("ErrInvalid", async () => {
    const deflated = async (json) => {
      const packed = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
      return btoa(String.fromCharCode(86, 1, ...packed)).replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_");
    };
    const bad = [
      "!!",
      "Vg", // the mark, no version
      (await encodeVector(vector)).replace(/^Vg/, "Vh"), // another version
      await encodeVector({ ...vector, start: "x" }), // start is no entry's
      await encodeVector({ ...vector, entries: [["a", ""]] }), // the first entry must cover ""
      await encodeVector({ ...vector, entries: [["", ""], ["t", ""], ["m", ""]] }), // out of order
      await encodeVector({ ...vector, entries: [["", 1]] }),
      await encodeVector({ ...vector, epoch: -1 }),
      btoa("V\u0001[1,").replace(/=+$/, ""), // not deflated
      await deflated("[1,"), // not JSON
      await deflated(`[0,"",[["",""]],"${"x".repeat(2 << 20)}"]`), // inflates past the limit
    ];
    for (const text of bad) assert.equal(await decodeVector(text), undefined, text.slice(0, 40));
  });
});

test("sinceAt carries a range's checkpoint over to the ranges it splits into", () => {
  assert.deepEqual(
    ["", "a", "m", "p", "t", "zz"].map((lo) => sinceAt(vector, lo)),
    ["AgA", "AgA", "", "", "AgB", "AgB"],
  );
});

test("a vector's entries are ordered as the store orders keys", async () => {
  const v = { epoch: 1, start: "", entries: [["", "AgA"], ["\ue000", "AgB"], ["\u{1f600}", "AgC"]] };
  assert.deepEqual(await decodeVector(await encodeVector(v)), v);
  assert.equal(sinceAt(v, "\u{10000}"), "AgB", "U+10000 lies in the range from U+E000");
  assert.equal(sinceAt(v, "\u{1f600}"), "AgC");
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
