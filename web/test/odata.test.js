import { test } from "node:test";
import assert from "node:assert/strict";
import { odata } from "../tabletop.js";

test("odata", async (t) => {
  const cases = [
    ["string", odata`Name eq ${"O'Brien"}`, "Name eq 'O''Brien'"],
    ["quoted by the template", odata`Name eq '${"O'Brien"}'`, "Name eq 'O''Brien'"],
    ["number and boolean", odata`Age gt ${41} and Ok eq ${true}`, "Age gt 41 and Ok eq true"],
    ["Date", odata`When lt ${new Date(Date.UTC(2021, 7, 31))}`, "When lt datetime'2021-08-31T00:00:00.000Z'"],
    ["bigint", odata`Big eq ${2n ** 60n}`, "Big eq 1152921504606846976L"],
    ["Int64", odata`Big eq ${{ value: "9007199254740993", type: "Int64" }}`, "Big eq 9007199254740993L"],
    ["Guid", odata`Id eq ${{ value: "0d391d16-97f1-4b9a-be68-4cc871f90001", type: "Guid" }}`, "Id eq guid'0d391d16-97f1-4b9a-be68-4cc871f90001'"],
    ["Double", odata`D eq ${{ value: 5, type: "Double" }}`, "D eq 5.0"],
    ["Binary", odata`B eq ${new Uint8Array([1, 255])}`, "B eq X'01ff'"],
    ["no values", odata`PartitionKey eq 'a'`, "PartitionKey eq 'a'"],
  ];
  for (const [name, got, want] of cases) await t.test(name, () => assert.equal(got, want));
});
