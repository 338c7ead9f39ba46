// An entity with every EDM type at awkward values, shared by the Node and Chromium tests
// (it runs in both: no Node imports).

export const guid = "0d391d16-97f1-4b9a-be68-4cc871f90001";
export const when = "2021-08-31T15:40:49.6724407Z";

/** allTypes returns the entity with those keys. */
export function allTypes(partitionKey, rowKey) {
  return {
    partitionKey, rowKey,
    whole: { value: 5, type: "Double" }, big: 3e9, half: 0.5, tiny: 5e-324, nan: NaN, inf: Infinity, ninf: -Infinity, negZero: { value: "-0", type: "Double" },
    min64: -(2n ** 63n), max64: 2n ** 63n - 1n, i32: -(2 ** 31), i32max: 2 ** 31 - 1,
    when: { value: when, type: "DateTime" }, id: { value: guid, type: "Guid" },
    bytes: new Uint8Array([0, 1, 2, 253, 254, 255]), empty: new Uint8Array(0),
    s: "héllo ✓ 𝄞 \"q\" \n", t: true, f: false,
  };
}

/** checkAllTypes asserts that the entity reads back exactly, every type included. */
export async function checkAllTypes(client, partitionKey, rowKey, assert) {
  const e = await client.getEntity(partitionKey, rowKey, { disableTypeConversion: true });
  assertAllTypes(e, assert);
}

/** assertAllTypes asserts that e, read with disableTypeConversion, is allTypes exactly. */
export function assertAllTypes(e, assert) {
  const want = {
    whole: ["5", "Double"], big: ["3000000000", "Double"], half: ["0.5", "Double"], tiny: ["5e-324", "Double"],
    nan: ["NaN", "Double"], inf: ["Infinity", "Double"], ninf: ["-Infinity", "Double"],
    min64: ["-9223372036854775808", "Int64"], max64: ["9223372036854775807", "Int64"], i32: ["-2147483648", "Int32"], i32max: ["2147483647", "Int32"],
    when: [when, "DateTime"], id: [guid, "Guid"], bytes: ["AAEC/f7/", "Binary"], empty: ["", "Binary"],
    s: ["héllo ✓ 𝄞 \"q\" \n", "String"], t: ["true", "Boolean"], f: ["false", "Boolean"],
  };
  // negZero reads as { value: "0" } here (JSON numbers lose the sign of zero in JavaScript);
  // a dump keeps "-0.0", which the round-trip tests compare as text.
  for (const [name, [value, type]] of Object.entries(want)) assert.deepEqual(e[name], { value, type }, name);
}
