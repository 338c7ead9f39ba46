// The browser module's entity scenarios (web/test/entities.test.js, tables.test.js), with
// the same expected results, written against the TableClient API alone so that they run
// inside a Worker on the binding client (worker/edge/binding/client.mjs). Each scenario
// takes the clients' module and the binding and throws on the first difference.

/** scenarios maps a scenario's name to its function. */
export const scenarios = {
  "createEntity and getEntity": async ({ TableClient }, binding) => {
    const c = await tableIn(TableClient, binding, "people");
    const { etag } = await c.createEntity({ partitionKey: "p", rowKey: "1", name: "Ann", age: 41, ok: true });
    match(etag, /^W\/"datetime'.*'"$/);
    const e = await c.getEntity("p", "1");
    eq(e.etag, etag);
    match(e.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    eq({ ...e, etag: 0, timestamp: 0 }, { etag: 0, timestamp: 0, partitionKey: "p", rowKey: "1", name: "Ann", age: 41, ok: true });
    const sel = await c.getEntity("p", "1", { queryOptions: { select: ["name", "rowKey", "missing", "etag"] } });
    eq(sel, { etag: sel.etag, rowKey: "1", name: "Ann", missing: null });
    await rejects(c.createEntity({ partitionKey: "p", rowKey: "1" }), "EntityAlreadyExists", 409);
    await rejects(c.getEntity("p", "nope"), "ResourceNotFound", 404);
    await rejects(new TableClient(binding, "nothere").createEntity({ partitionKey: "p", rowKey: "1" }), "TableNotFound", 404);
    await rejects(c.createEntity({ partitionKey: "p" }), "PropertiesNeedValue", 400);
    await rejects(c.createEntity({ partitionKey: "a/b", rowKey: "1" }), "OutOfRangeInput", 400);
    await rejects(c.createEntity({ partitionKey: "p", rowKey: "2", "bad name": 1 }), "PropertyNameInvalid", 400);
    await rejects(c.createEntity({ partitionKey: "p", rowKey: "2", s: "x".repeat(40000) }), "PropertyValueTooLarge", 400);
    await rejects(c.createEntity({ partitionKey: "p", rowKey: "2", f: () => 1 }), "InvalidInput", 400);
  },

  "typed values round-trip exactly": async ({ TableClient }, binding) => {
    const c = await tableIn(TableClient, binding, "typed");
    const guid = "0d391d16-97f1-4b9a-be68-4cc871f90001";
    const when = "2021-08-31T15:40:49.6724407Z";
    const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
    await c.createEntity({
      partitionKey: "p", rowKey: "typed",
      big: { value: "9007199254740993", type: "Int64" }, neg: -(2n ** 63n),
      when: { value: when, type: "DateTime" }, bytes,
      id: { value: guid, type: "Guid" },
      nan: NaN, inf: Infinity, ninf: -Infinity, half: 0.5, dbl: { value: 5, type: "Double" },
      i32: 7, s: "héllo ✓ 𝄞", f: false,
    });
    const e = await c.getEntity("p", "typed");
    eq(e.big, 9007199254740993n);
    eq(e.neg, -(2n ** 63n));
    ok(e.when instanceof Date, "a DateTime reads as a Date");
    eq(e.when.toISOString(), "2021-08-31T15:40:49.672Z");
    eq([...e.bytes], [...bytes]);
    eq(e.id, { value: guid, type: "Guid" });
    ok(Number.isNaN(e.nan), "NaN");
    eq(e.inf, Infinity);
    eq(e.ninf, -Infinity);
    eq(e.half, 0.5);
    eq(e.i32, 7);
    eq(e.s, "héllo ✓ 𝄞");
    eq(e.f, false);
    const raw = await c.getEntity("p", "typed", { disableTypeConversion: true });
    eq(raw.big, { value: "9007199254740993", type: "Int64" });
    eq(raw.when, { value: when, type: "DateTime" });
    eq(raw.bytes, { value: "AAEC/f7/", type: "Binary" });
    eq(raw.nan, { value: "NaN", type: "Double" });
    eq(raw.ninf, { value: "-Infinity", type: "Double" });
    eq(raw.i32, { value: "7", type: "Int32" });
    await c.updateEntity(e, "Replace", { etag: e.etag });
    const again = await c.getEntity("p", "typed", { disableTypeConversion: true });
    eq(again.when.value, when, "a Date read from the store keeps its 7 digits");
    eq([again.big.value, again.bytes.value, again.id.value, again.nan.value, again.inf.value], ["9007199254740993", "AAEC/f7/", guid, "NaN", "Infinity"]);
    const changed = await c.getEntity("p", "typed");
    changed.when.setUTCFullYear(2022);
    await c.updateEntity({ partitionKey: "p", rowKey: "typed", when: changed.when });
    eq((await c.getEntity("p", "typed", { disableTypeConversion: true })).when.value, "2022-08-31T15:40:49.6720000Z");
    await rejects(c.createEntity({ partitionKey: "p", rowKey: "x", g: { value: "nope", type: "Guid" } }), "InvalidInput", 400);
  },

  "writes": async ({ TableClient }, binding) => {
    const c = await tableIn(TableClient, binding, "writes");
    const base = { partitionKey: "p", rowKey: "1" };
    await c.upsertEntity({ ...base, a: 1, b: 2 });
    await c.upsertEntity({ ...base, c: 3 }, "Merge");
    eq(props(await c.getEntity("p", "1")), { a: 1, b: 2, c: 3 });
    await c.upsertEntity({ ...base, d: 4 }, "Replace");
    eq(props(await c.getEntity("p", "1")), { d: 4 });
    const { etag } = await c.updateEntity({ ...base, e: 5 }, "Merge");
    const { etag: next } = await c.updateEntity({ ...base, f: 6 }, "Replace", { etag });
    ok(next !== etag, "an update changes the etag");
    eq(props(await c.getEntity("p", "1")), { f: 6 });
    await rejects(c.updateEntity({ ...base, g: 7 }, "Merge", { etag }), "UpdateConditionNotSatisfied", 412);
    await rejects(c.updateEntity({ partitionKey: "p", rowKey: "none", a: 1 }), "ResourceNotFound", 404);
    await rejects(c.updateEntity(base, "Bogus"), "InvalidInput", 400);
    const { etag: last } = await c.upsertEntity({ ...base, h: 8 });
    await rejects(c.deleteEntity("p", "1", { etag: `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"` }), "UpdateConditionNotSatisfied", 412);
    await rejects(c.deleteEntity("p", "1", { etag: "garbage" }), "InvalidInput", 400);
    await c.deleteEntity("p", "1", { etag: last });
    await rejects(c.getEntity("p", "1"), "ResourceNotFound", 404);
    await rejects(c.deleteEntity("p", "1"), "ResourceNotFound", 404);
  },

  "listEntities": async ({ TableClient, odata }, binding) => {
    const c = await tableIn(TableClient, binding, "listing");
    const actions = [];
    for (let i = 0; i < 2500; i++) {
      actions.push({ partitionKey: `p${Math.floor(i / 100)}`, rowKey: String(i).padStart(5, "0"), n: i, name: i % 2 ? "odd" : "even's" });
    }
    for (let i = 0; i < actions.length; i += 100) await c.submitTransaction(actions.slice(i, i + 100).map((e) => ["create", e]));
    const all = await collect(c.listEntities());
    const byKey = (a, b) => (a.partitionKey < b.partitionKey ? -1 : a.partitionKey > b.partitionKey ? 1 : a.rowKey < b.rowKey ? -1 : 1);
    eq(all.map((e) => e.n), actions.slice().sort(byKey).map((e) => e.n));
    const got = await collect(c.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"p3"} and name eq ${"even's"} and n lt ${310}`, select: ["rowKey", "n"] } }));
    eq(got.map((e) => e.n), [300, 302, 304, 306, 308]);
    eq(Object.keys(got[0]).sort(), ["etag", "n", "rowKey"]);
    const first = (await c.listEntities({ queryOptions: { filter: "n ge 10 and n lt 30" } }).byPage({ maxPageSize: 7 }).next()).value;
    eq(first.map((e) => e.n), [10, 11, 12, 13, 14, 15, 16]);
    const rest = await collect(c.listEntities({ queryOptions: { filter: "n ge 10 and n lt 30" } }).byPage({ maxPageSize: 7, continuationToken: first.continuationToken }));
    eq(rest.flat().map((e) => e.n), Array.from({ length: 13 }, (_, i) => 17 + i));
    eq(rest.at(-1).continuationToken, undefined);
    await rejects(collect(c.listEntities({ queryOptions: { filter: "n eq" } })), "InvalidInput", 400);
    await rejects(collect(c.listEntities().byPage({ maxPageSize: 5000 })), "InvalidQueryParameterValue", 400);
    await rejects(collect(c.listEntities().byPage({ continuationToken: "bogus" })), "InvalidInput", 400);
  },

  "submitTransaction": async ({ TableClient }, binding) => {
    const c = await tableIn(TableClient, binding, "batches");
    await c.createEntity({ partitionKey: "b", rowKey: "old", v: 1 });
    const { etag } = await c.createEntity({ partitionKey: "b", rowKey: "upd", v: 1 });
    const res = await c.submitTransaction([
      ["create", { partitionKey: "b", rowKey: "new", v: 2 }],
      ["upsert", { partitionKey: "b", rowKey: "ups", v: 3 }, "Replace"],
      ["update", { partitionKey: "b", rowKey: "upd", w: 4 }, "Merge", { etag }],
      ["delete", { partitionKey: "b", rowKey: "old" }],
    ]);
    eq(res.status, 202);
    eq(res.subResponses.length, 4);
    match(res.getResponseForEntity("new").etag, /^W\//);
    eq(res.getResponseForEntity("old").etag, undefined);
    eq((await collect(c.listEntities())).map((e) => [e.rowKey, e.v, e.w]), [["new", 2, undefined], ["upd", 1, 4], ["ups", 3, undefined]]);
    const failed = await c.submitTransaction([["create", { partitionKey: "b", rowKey: "x1" }], ["create", { partitionKey: "b", rowKey: "new" }]]).then(() => null, (e) => e);
    ok(failed && failed.code === "EntityAlreadyExists" && failed.statusCode === 409 && failed.index === 1 && failed.message.startsWith("1:"),
      `a failed transaction names its action: ${failed?.code} ${failed?.statusCode} ${failed?.index} ${failed?.message}`);
    await rejects(c.getEntity("b", "x1"), "ResourceNotFound", 404);
    await rejects(c.submitTransaction([["create", { partitionKey: "b", rowKey: "y" }], ["create", { partitionKey: "c", rowKey: "y" }]]), "CommandsInBatchActOnDifferentPartitions", 400);
    await rejects(c.submitTransaction([["upsert", { partitionKey: "b", rowKey: "y" }], ["delete", { partitionKey: "b", rowKey: "y" }]]), "InvalidDuplicateRow", 400);
    await rejects(c.submitTransaction([]), "InvalidInput", 400);
    await rejects(c.submitTransaction(Array.from({ length: 101 }, (_, i) => ["create", { partitionKey: "b", rowKey: `z${i}` }])), "InvalidInput", 400);
  },

  // In an account of its own (options.account), as the browser test has a store of its own.
  "tables": async ({ TableServiceClient, TableClient }, binding) => {
    const svc = new TableServiceClient(binding, { account: SECOND });
    for (const name of ["alpha", "beta", "gamma", "delta"]) await svc.createTable(name);
    await svc.createTable("alpha");
    eq((await collect(svc.listTables())).map((x) => x.name), ["alpha", "beta", "delta", "gamma"]);
    await rejects(svc.createTable("1bad"), "InvalidResourceName", 400);
    await rejects(svc.createTable("tables"), "InvalidResourceName", 400);
    eq((await collect(svc.listTables({ queryOptions: { filter: "TableName ge 'beta' and TableName lt 'delta'" } }))).map((x) => x.name), ["beta"]);
    const pages = await collect(svc.listTables().byPage({ maxPageSize: 3 }));
    eq(pages.map((p) => p.length), [3, 1]);
    ok(pages[0].continuationToken, "a first page has a continuation token");
    eq(pages[1].continuationToken, undefined);
    const rest = await collect(svc.listTables().byPage({ maxPageSize: 3, continuationToken: pages[0].continuationToken }));
    eq(rest[0].map((x) => x.name), ["gamma"]);
    await rejects(collect(svc.listTables({ queryOptions: { filter: "TableName eq" } })), "InvalidInput", 400);
    await svc.deleteTable("gamma");
    await svc.deleteTable("gamma");
    eq((await collect(svc.listTables())).map((x) => x.name), ["alpha", "beta", "delta"]);
    const c = new TableClient(binding, "omega", { account: SECOND });
    await c.createTable();
    await c.createTable();
    await c.createEntity({ partitionKey: "p", rowKey: "r" });
    await c.deleteTable();
    await c.deleteTable();
    await rejects(c.getEntity("p", "r"), "TableNotFound", 404);
  },
};

/** SECOND is the second account the test runtime serves. */
export const SECOND = "second";

/** bindingScenarios check what only the binding has: the choice of account. */
export const bindingScenarios = {
  "an account the worker does not serve": async ({ TableClient }, binding) => {
    await rejects(new TableClient(binding, "t", { account: "nobody" }).createTable(), "InvalidInput", 400);
  },
  "keys that need escaping in a URL": async ({ TableClient, odata }, binding) => {
    const c = await tableIn(TableClient, binding, "escapes");
    const keys = [["o'brien", "50% off"], ["a+b c", "x&y=z"], ["ü ✓ 𝄞", "''"], ["", ""]];
    for (const [pk, rk] of keys) {
      const { etag } = await c.createEntity({ partitionKey: pk, rowKey: rk, v: 1 });
      eq((await c.getEntity(pk, rk)).v, 1, `${pk}/${rk}`);
      await c.updateEntity({ partitionKey: pk, rowKey: rk, v: 2 }, "Merge", { etag });
      eq((await c.getEntity(pk, rk)).v, 2, `${pk}/${rk} updated`);
    }
    await c.submitTransaction([["upsert", { partitionKey: "o'brien", rowKey: "t'x", v: 3 }], ["delete", { partitionKey: "o'brien", rowKey: "50% off" }]]);
    eq((await collect(c.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"o'brien"}` } }))).map((e) => [e.rowKey, e.v]), [["t'x", 3]]);
    for (const [pk, rk] of keys.slice(1)) await c.deleteEntity(pk, rk);
    eq((await collect(c.listEntities())).length, 1);
  },

  "accounts are apart": async ({ TableClient }, binding) => {
    await new TableClient(binding, "apart").createTable();
    await new TableClient(binding, "apart").createEntity({ partitionKey: "p", rowKey: "r" });
    await rejects(new TableClient(binding, "apart", { account: SECOND }).getEntity("p", "r"), "TableNotFound", 404);
  },
};

async function tableIn(TableClient, binding, name) {
  const c = new TableClient(binding, name);
  await c.createTable();
  return c;
}

function props(e) {
  const { etag, timestamp, partitionKey, rowKey, ...rest } = e;
  return rest;
}

async function collect(iter) {
  const out = [];
  for await (const x of iter) out.push(x);
  return out;
}

/** show is v as text for comparison: object keys sorted, bigint, NaN and ±Infinity spelled out. */
function show(v) {
  return JSON.stringify(v, (_, x) => {
    if (typeof x === "bigint") return `${x}n`;
    if (typeof x === "number" && !Number.isFinite(x)) return String(x);
    if (x && typeof x === "object" && !Array.isArray(x) && !(x instanceof Date)) {
      return Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]]));
    }
    return x;
  });
}

function ok(cond, msg) {
  if (!cond) throw new Error(msg);
}

function eq(got, want, msg = "") {
  if (show(got) !== show(want)) throw new Error(`${msg ? msg + ": " : ""}got ${show(got)}, want ${show(want)}`);
}

function match(s, re) {
  ok(re.test(s), `${show(s)} does not match ${re}`);
}

async function rejects(p, code, statusCode) {
  const e = await p.then(() => null, (e) => e);
  ok(e, `resolved, want ${code} ${statusCode}`);
  ok(e.name === "RestError" && e.code === code && e.statusCode === statusCode, `got ${e.name} ${e.code} ${e.statusCode}: ${e.message}; want ${code} ${statusCode}`);
}
