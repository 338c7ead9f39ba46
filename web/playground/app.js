// The Tabletop playground: a small table browser over the public module API.

// The page's own modules are imported when needed rather than before this module runs,
// which would put their requests ahead of the engine's on the way to the first grid: the
// grid's (resize.js, indexes.js) while the engine loads, the panels' after the grid shows.
const gridParts = Promise.all(["./resize.js", "./indexes.js"].map((m) => import(m)));
const panelParts = () => Promise.all(["./csv.js", "./samples.js", "./share.js"].map((m) => import(m)));
let toCSV, fromCSV, SAMPLES, runSample, columnStyle, grip, wireResize, showIndexes, MAX_LINK, packRows;

const $ = (sel) => document.querySelector(sel);
const TYPES = ["String", "Int32", "Int64", "Double", "Boolean", "DateTime", "Guid", "Binary"];
const STORE = "playground";
let T; // the module
let store, service, table, pageTokens, pageIndex, examplesTable;
let isSynced = () => false; // whether a table is synced with a server (sync.js)
let sort = { col: "", dir: 1 }; // the grid's order: a column, ascending (1) or descending (-1)
const hidden = new Map(); // table → the columns the user hid (Set)

/**
 * start loads the module (dist/tabletop.js, the one file `make web` builds, which finds
 * the engine beside it) and the sample data, then wires the page. The page's store and
 * module are window.tabletop ({ T, store }), for the console and the browser tests: one
 * engine per page.
 */
export async function start(base) {
  const t0 = performance.now();
  T = await import(new URL(base + "dist/tabletop.js", document.baseURI).href);
  try {
    store = await T.openStore(STORE);
  } catch (e) {
    if (e.code !== "StoreLocked" || !confirm("The playground is open in another tab. Take it over here?")) return showError(e, "#status");
    store = await T.openStore(STORE, { lock: "steal" });
  }
  service = new T.TableServiceClient(store);
  window.tabletop = { T, store };
  [{ columnStyle, grip, wireResize }, { showIndexes }] = await gridParts;
  const theme = localStorage.getItem("tabletop-theme") ?? (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  setTheme(theme);
  const fresh = (await firstTables()).length === 0;
  if (fresh) await loadSample();
  await act(null, () => openLinkedTable(fresh));
  await refreshTables(); // the grid first: the panels below it are wired after
  [{ toCSV, fromCSV }, { SAMPLES, runSample }, { MAX_LINK, packRows }] = await panelParts();
  wire();
  $("#status").textContent = `ready in ${Math.round(performance.now() - t0)} ms · stored in IndexedDB`;
  const { startSync } = await import(new URL(base + "playground/sync.js", document.baseURI).href);
  isSynced = startSync(T, store, (name, select) => act(null, () => (select || name === table ? refreshTables(select ? name : undefined) : undefined)));
  await refreshTables();
  document.addEventListener("tabletop-conflict", (ev) => showWinner(ev.detail));
}

async function firstTables() {
  for await (const page of service.listTables().byPage({ maxPageSize: 1 })) return page;
  return [];
}

function wire() {
  $("#new-table").onsubmit = (ev) => act(ev, async () => {
    const name = ev.target.name.value.trim();
    await service.createTable(name);
    ev.target.reset();
    await refreshTables(name);
  });
  $("#query").onsubmit = (ev) => act(ev, () => runQuery(0));
  $("#next").onclick = () => act(null, () => runQuery(pageIndex + 1));
  $("#prev").onclick = () => act(null, () => runQuery(pageIndex - 1));
  $("#total").onclick = () => act(null, countAll);
  wireSamples();
  wireResize($("#results"), () => table);
  $("#builder").onsubmit = (ev) => act(ev, addCondition);
  $("#add-prop").onclick = () => addProp();
  $("#editor").onsubmit = (ev) => act(ev, () => saveEntity(ev.submitter.value), "#editor-error");
  $("#batch").onsubmit = (ev) => act(ev, submitBatch, "#batch-error");
  $("#export").onclick = () => act(null, exportTable);
  $("#import").onchange = (ev) => act(null, () => importTable(ev.target.files[0]));
  $("#export-csv").onclick = () => act(null, exportCSV);
  $("#import-csv").onchange = (ev) => act(null, () => importCSV(ev.target.files[0]));
  $("#reset").onclick = () => act(null, async () => {
    if (!confirm("Drop every table and reload the sample data?")) return;
    for await (const t of service.listTables()) await service.deleteTable(t.name);
    await loadSample();
    await refreshTables();
  });
  if (!$("#batch").actions.value) $("#batch").actions.value = sampleBatch();
  $("#theme").onclick = () => setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark");
  $("#examples").onclick = (ev) => ev.target.tagName === "A" && (($("#query").filter.value = ev.target.textContent), act(null, () => runQuery(0)));
}

/**
 * setTheme shows the page light or dark, and remembers the choice; without one the page
 * follows the system's (prefers-color-scheme).
 */
function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem("tabletop-theme", theme);
  $("#theme").textContent = theme === "dark" ? "☀ Light" : "☾ Dark";
}

/** act runs fn, showing a RestError with its code in the element where instead of throwing. */
async function act(ev, fn, where = "#error") {
  ev?.preventDefault();
  $(where).hidden = true;
  try {
    await fn();
  } catch (e) {
    showError(e, where);
  }
}

function showError(e, where = "#error") {
  const el = $(where);
  el.hidden = false;
  el.innerHTML = e.code ? `<b>${escapeHTML(e.code)}</b> · HTTP ${e.statusCode}\n${escapeHTML(e.message)}` : escapeHTML(String(e));
}

async function refreshTables(select) {
  const names = [];
  for await (const t of service.listTables()) names.push(t.name);
  table = select ?? (names.includes(table) ? table : names[0]);
  $("#tables").innerHTML = names
    .map((n) => `<li data-name="${n}" class="${n === table ? "active" : ""}"><span>${n}${isSynced(n) ? ' <small class="badge" title="synced with the server">⇅ synced</small>' : ""}</span><button title="Drop table">✕</button></li>`)
    .join("");
  $("#tables").onclick = (ev) => act(null, async () => {
    const li = ev.target.closest("li");
    if (!li) return;
    if (ev.target.tagName === "BUTTON") {
      if (!confirm(`Drop table ${li.dataset.name} and all its entities?`)) return;
      await service.deleteTable(li.dataset.name);
      return refreshTables();
    }
    if (li.dataset.name !== table) $("#query").reset(); // a filter written for another table
    await refreshTables(li.dataset.name);
  });
  if (table) await runQuery(0);
  else $("#results").innerHTML = "", ($("#count").textContent = "no tables");
}

/** runQuery shows page i of the current query; pageTokens remembers how to get back. A
 * query that fails leaves no results from the previous one under its error. */
async function runQuery(i) {
  try {
    await showPage(i);
  } catch (e) {
    $("#results").innerHTML = "";
    $("#count").textContent = `${table} · the query failed`;
    $("#prev").disabled = $("#next").disabled = true;
    throw e;
  }
}

/**
 * addCondition writes the builder's condition (a property, a comparison, a value read as
 * the property's type) into the $filter box, after what is there with "and", and runs the
 * query: the filter stays text the user can read and edit.
 */
async function addCondition() {
  const b = $("#builder");
  const option = b.prop.selectedOptions[0];
  if (!option) return;
  const lit = literal(b.value.value, option.dataset.type);
  if (!lit) throw Object.assign(new Error(`a ${option.dataset.type} cannot be compared in a filter`), { code: "InvalidInput", statusCode: 400 });
  const q = $("#query");
  const condition = `${option.value} ${b.op.value} ${lit}`;
  q.filter.value = q.filter.value.trim() ? `${q.filter.value.trim()} and ${condition}` : condition;
  b.value.value = "";
  await runQuery(0);
}

/**
 * wireSamples fills the code panel: a sample chosen (or named in the page's address,
 * #sample=name) is shown to edit; Run runs it and refreshes the tables, as the grid
 * follows what the program did.
 */
function wireSamples() {
  const f = $("#samples");
  f.sample.innerHTML = Object.keys(SAMPLES).map((n) => `<option>${n}</option>`).join("");
  const show = (name) => {
    f.sample.value = name;
    f.code.value = SAMPLES[name];
    $("#sample-link").href = `#sample=${name}`;
  };
  f.sample.onchange = () => show(f.sample.value);
  const asked = new URLSearchParams(location.hash.slice(1)).get("sample");
  show(SAMPLES[asked] ? asked : Object.keys(SAMPLES)[0]);
  f.onsubmit = (ev) => act(ev, async () => {
    const out = $("#sample-output");
    out.textContent = "";
    await runSample(f.code.value, T, store, (line) => (out.textContent += line + "\n"));
    out.textContent += "done\n";
    await refreshTables();
  }, "#sample-error");
  $("#share").onclick = () => act(null, shareTable, "#sample-error");
  if (SAMPLES[asked]) f.requestSubmit();
}

/**
 * shareTable makes a link that opens the playground with the sample shown and the table
 * shown, its entities and their types, and offers it (and copies it, where allowed).
 */
async function shareTable() {
  const rows = [];
  for await (const e of new T.TableClient(store, table).listEntities({ disableTypeConversion: true })) {
    const { etag, timestamp, ...rest } = e;
    rows.push(rest);
  }
  const packed = await packRows(rows);
  if (packed.length > MAX_LINK) {
    throw Object.assign(new Error(`${table} is too large for a link (${rows.length} entities); export it instead`), { code: "InvalidInput", statusCode: 400 });
  }
  const url = new URL(location.href);
  url.hash = new URLSearchParams({ sample: $("#samples").sample.value, table, rows: packed }).toString();
  const a = $("#share-link");
  a.href = url.href;
  a.hidden = false;
  await navigator.clipboard?.writeText(url.href).catch(() => {});
}

/**
 * openLinkedTable loads the table a link carries (#table=Name&rows=…, from shareTable):
 * created if missing; a table of that name that holds entities is replaced if the store
 * is fresh (its sample data was just made) or the user agrees, and kept otherwise.
 */
async function openLinkedTable(fresh) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const name = hash.get("table"), packed = hash.get("rows");
  if (!name || !packed) return;
  const { unpackRows } = await import("./share.js");
  const rows = await unpackRows(packed);
  const client = new T.TableClient(store, name);
  let has = false;
  try {
    for await (const page of client.listEntities().byPage({ maxPageSize: 1 })) has = page.length > 0;
  } catch (e) {
    if (e.code !== "TableNotFound") throw e;
  }
  if (has && !fresh && !confirm(`Replace table ${name} with the ${rows.length} entities of the link?`)) return;
  if (has) await service.deleteTable(name);
  await upsertAll(name, rows);
  table = name;
}

/** countAll counts the entities the query matches, reading their keys only, page by page. */
async function countAll() {
  const q = $("#query");
  let n = 0;
  $("#total").textContent = "counting…";
  const it = new T.TableClient(store, table).listEntities({ queryOptions: { filter: q.filter.value.trim(), select: ["RowKey"] } });
  for await (const page of it.byPage({ maxPageSize: 1000 })) n += page.length;
  $("#total").textContent = `${n} in all`;
}

async function showPage(i) {
  $("#total").textContent = "Count all";
  if (i === 0) pageTokens = [undefined];
  const q = $("#query");
  const select = q.select.value.split(",").map((s) => s.trim()).filter(Boolean);
  const it = new T.TableClient(store, table).listEntities({ queryOptions: { filter: q.filter.value.trim(), select: select.length ? select : undefined }, disableTypeConversion: true });
  const t0 = performance.now();
  const { value: page } = await it.byPage({ maxPageSize: Number(q.top.value), continuationToken: pageTokens[i] }).next();
  pageIndex = i;
  pageTokens[i + 1] = page.continuationToken;
  $("#count").textContent = `${table} · page ${i + 1} · ${page.length} entities · ${page.plan ?? "read"} · ${(performance.now() - t0).toFixed(1)} ms`;
  $("#prev").disabled = i === 0;
  $("#next").disabled = !page.continuationToken;
  renderResults(page);
  if (examplesTable !== table && !q.filter.value.trim()) renderExamples(page);
}

/** renderExamples offers filters for the table shown, from the properties of its first
 * entities: each example matches something in this table. */
function renderExamples(rows) {
  examplesTable = table;
  const examples = [];
  const first = rows[0];
  if (first) examples.push(`PartitionKey eq ${literal(first.partitionKey, "String")}`);
  const seen = new Set();
  for (const r of rows.slice(0, 20)) {
    for (const [k, v] of Object.entries(r)) {
      if (["etag", "partitionKey", "rowKey", "timestamp"].includes(k) || seen.has(k) || v == null) continue;
      const type = v.type ?? "String";
      const lit = literal(v.value ?? v, type);
      if (!lit) continue;
      seen.add(k);
      const op = ["Int32", "Int64", "Double", "DateTime"].includes(type) ? "ge" : "eq";
      examples.push(`${k} ${op} ${lit}`);
    }
  }
  if (first) examples.push(`RowKey ge ${literal(first.rowKey, "String")}`);
  examples.splice(6);
  $("#examples").innerHTML = examples.length ? "Try: " + examples.map((f) => `<a>${escapeHTML(f)}</a>`).join("") : "";
}

/** literal writes value of an EDM type as a $filter literal, or "" for Binary. */
function literal(value, type) {
  const s = String(value);
  switch (type) {
    case "String": return `'${s.replaceAll("'", "''")}'`;
    case "Int64": return `${s}L`;
    case "Int32": case "Boolean": return s;
    case "Double": return /^-?\d+$/.test(s) ? `${s}.0` : /^-?[\d.eE+-]+$/.test(s) ? s : "";
    case "DateTime": return `datetime'${s}'`;
    case "Guid": return `guid'${s}'`;
  }
  return "";
}

/**
 * renderResults shows a page of entities as a grid, ordered by the column the user sorts
 * on (a click on its header; a second click reverses it): the page as read otherwise,
 * which is the table's key order.
 */
function renderResults(rows) {
  const all = [];
  for (const r of rows) for (const k of Object.keys(r)) if (k !== "etag" && !all.includes(k)) all.push(k);
  const hide = hidden.get(table) ?? new Set();
  chooser(all, hide, rows);
  const cols = all.filter((c) => !hide.has(c));
  const shown = sort.col && cols.includes(sort.col) ? [...rows].sort((a, b) => sort.dir * compareCells(a[sort.col], b[sort.col])) : rows;
  const order = (c) => (c !== sort.col ? "none" : sort.dir > 0 ? "ascending" : "descending");
  const head = `<th class="pick"><input type="checkbox" aria-label="select every row"></th>` +
    cols.map((c) => `<th data-col="${escapeHTML(c)}"${columnStyle(table, c)} aria-sort="${order(c)}" title="sort by ${escapeHTML(c)}">${escapeHTML(c)} <small>${typeOf(rows.find((r) => r[c]?.type)?.[c])}</small>${grip(escapeHTML(c))}</th>`).join("");
  const body = shown.map((r) => `<tr data-i="${rows.indexOf(r)}"><td class="pick"><input type="checkbox" aria-label="select row"></td>` + cols.map((c) => cell(r[c]).replace("<td", `<td tabindex="-1" data-col="${escapeHTML(c)}"${columnStyle(table, c)}`)).join("") + "</tr>").join("");
  $("#results").innerHTML = `<thead><tr>${head}</tr></thead><tbody>${body}</tbody>`;
  builderProperties(cols, rows);
  showIndexes($("#indexes"), new T.TableClient(store, table), cols.filter((c) => !SYSTEM.includes(c)), act, () => runQuery(pageIndex)).catch((e) => showError(e));
  picked(rows);
  $("#results").onchange = (ev) => {
    if (ev.target.closest("thead")) for (const box of $("#results").querySelectorAll("tbody .pick input")) box.checked = ev.target.checked;
    picked(rows);
  };
  $("#results").onclick = (ev) => {
    if (ev.target.closest(".pick")) return;
    const th = ev.target.closest("th");
    if (th) {
      sort = { col: th.dataset.col, dir: sort.col === th.dataset.col ? -sort.dir : 1 };
      return renderResults(rows);
    }
    const tr = ev.target.closest("tbody tr");
    if (tr && !ev.target.closest("input")) loadEntity(rows[tr.dataset.i]);
  };
  $("#results").ondblclick = (ev) => {
    const td = ev.target.closest("tbody td");
    if (td && !SYSTEM.includes(td.dataset.col)) editCell(td, rows[td.closest("tr").dataset.i]);
  };
  $("#results").onkeydown = (ev) => navigate(ev, rows);
  $("#results").querySelector("tbody td[data-col]")?.setAttribute("tabindex", "0");
}

/**
 * navigate moves the focused cell with the arrow keys (Home and End to a row's ends) and
 * edits it with Enter or F2, as a spreadsheet does.
 */
function navigate(ev, rows) {
  const td = ev.target.closest?.("tbody td[data-col]");
  if (!td || ev.target.tagName === "INPUT") return;
  const tr = td.parentElement;
  const cells = [...tr.querySelectorAll("td[data-col]")];
  const i = cells.indexOf(td);
  const row = (dr) => (dr < 0 ? tr.previousElementSibling : tr.nextElementSibling)?.querySelectorAll("td[data-col]")[i];
  const to = { ArrowLeft: cells[i - 1], ArrowRight: cells[i + 1], ArrowUp: row(-1), ArrowDown: row(1), Home: cells[0], End: cells.at(-1) }[ev.key];
  if (to) {
    ev.preventDefault();
    td.tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
  } else if ((ev.key === "Enter" || ev.key === "F2") && !SYSTEM.includes(td.dataset.col)) {
    ev.preventDefault();
    editCell(td, rows[tr.dataset.i]);
  }
}

/** chooser offers the table's columns to show or hide, and shows the grid again on a change. */
function chooser(all, hide, rows) {
  $("#columns").innerHTML = all.map((c) => `<label><input type="checkbox" value="${escapeHTML(c)}" ${hide.has(c) ? "" : "checked"}> ${escapeHTML(c)}</label>`).join("");
  $("#columns").onchange = (ev) => {
    const set = hidden.get(table) ?? new Set();
    if (ev.target.checked) set.delete(ev.target.value);
    else set.add(ev.target.value);
    hidden.set(table, set);
    renderResults(rows);
  };
}

/** picked shows how many rows are selected on the delete button, and wires it to delete them. */
function picked(rows) {
  const chosen = [...$("#results").querySelectorAll("tbody .pick input:checked")].map((box) => rows[box.closest("tr").dataset.i]);
  const button = $("#delete-picked");
  button.hidden = chosen.length === 0;
  button.textContent = `Delete ${chosen.length} selected`;
  button.onclick = () => act(null, async () => {
    if (!confirm(`Delete ${chosen.length} entities from ${table}?`)) return;
    await deleteAll(chosen);
    await runQuery(pageIndex);
  });
}

/**
 * deleteAll deletes entities of the table shown, each only if unchanged since it was read
 * (If-Match on its ETag): a transaction per partition, of up to 100.
 */
async function deleteAll(entities) {
  const c = new T.TableClient(store, table);
  const byPK = Map.groupBy ? Map.groupBy(entities, (e) => e.partitionKey) : group(entities);
  for (const list of byPK.values()) {
    for (let i = 0; i < list.length; i += 100) {
      await c.submitTransaction(list.slice(i, i + 100).map((e) => ["delete", { partitionKey: e.partitionKey, rowKey: e.rowKey }, { etag: e.etag }]));
    }
  }
}

/** SYSTEM are the columns an entity's keys and metadata fill, which a cell edit cannot change. */
const SYSTEM = ["partitionKey", "rowKey", "timestamp", "etag"];

/**
 * editCell edits one property of an entity in place: an input with the value, kept in
 * its EDM type; Enter saves it (a merge, if the entity is unchanged since it was read:
 * If-Match on its ETag), Escape or leaving the cell gives up.
 */
function editCell(td, row) {
  const name = td.dataset.col;
  const old = row[name];
  const type = old?.type ?? "String";
  const input = Object.assign(document.createElement("input"), { value: String(old?.value ?? old ?? ""), className: "cell-edit" });
  input.setAttribute("aria-label", `${name} (${type})`);
  td.replaceChildren(input);
  input.focus();
  input.select();
  let done = false;
  const finish = (save) => {
    if (done) return;
    done = true;
    const value = type === "String" ? input.value : { value: input.value, type };
    const entity = { partitionKey: row.partitionKey, rowKey: row.rowKey, [name]: value };
    act(null, async () => {
      try {
        if (save) await new T.TableClient(store, table).updateEntity(entity, "Merge", { etag: row.etag });
      } finally {
        await runQuery(pageIndex); // the grid as stored; a refused edit's error stays shown
      }
    });
  };
  input.onkeydown = (ev) => (ev.key === "Enter" ? finish(true) : ev.key === "Escape" ? finish(false) : undefined);
  input.onblur = () => finish(false);
}

/** builderProperties offers the page's columns, with their types, to the filter builder. */
function builderProperties(cols, rows) {
  const name = (c) => ({ partitionKey: "PartitionKey", rowKey: "RowKey", timestamp: "Timestamp" })[c] ?? c;
  const type = (c) => (c === "timestamp" ? "DateTime" : rows.find((r) => r[c]?.type)?.[c]?.type ?? "String");
  const keep = $("#builder").prop.value;
  $("#builder").prop.innerHTML = cols.map((c) => `<option value="${escapeHTML(name(c))}" data-type="${type(c)}">${escapeHTML(name(c))} (${type(c)})</option>`).join("");
  if (keep) $("#builder").prop.value = keep;
}

/** compareCells orders two cells of a column: absent first, numbers as numbers, the rest as text. */
function compareCells(a, b) {
  if (a == null || b == null) return (b == null) - (a == null); // absent before present
  const va = a.value ?? a, vb = b.value ?? b;
  const type = a.type ?? typeof va;
  if (type === "Int64") return BigInt(va) < BigInt(vb) ? -1 : BigInt(va) > BigInt(vb) ? 1 : 0;
  if (typeof va === "number" && typeof vb === "number") return va - vb;
  return String(va).localeCompare(String(vb));
}

const typeOf = (v) => (v?.type && v.type !== "String" ? v.type : "");
const cell = (v) => (v == null ? `<td class="null">null</td>` : `<td title="${escapeHTML(String(v.value ?? v))}">${escapeHTML(String(v.value ?? v))}</td>`);

/** showWinner shows, in the editor, the version a sync conflict kept, if the editor shows that entity. */
async function showWinner({ table: t, partitionKey, rowKey }) {
  const f = $("#editor");
  if (t !== table || f.pk.value !== partitionKey || f.rk.value !== rowKey) return;
  await act(null, () => loadEntity({ partitionKey, rowKey }), "#editor-error");
}

async function loadEntity(row) {
  const e = await new T.TableClient(store, table).getEntity(row.partitionKey ?? row.PartitionKey, row.rowKey, { disableTypeConversion: true });
  const f = $("#editor");
  f.pk.value = e.partitionKey;
  f.rk.value = e.rowKey;
  $("#props").innerHTML = "";
  for (const [k, v] of Object.entries(e)) if (!["etag", "partitionKey", "rowKey", "timestamp"].includes(k)) addProp(k, v.type, v.value);
  f.dataset.etag = e.etag;
  $("#etag").textContent = `etag ${e.etag} · timestamp ${e.timestamp}`;
}

function addProp(name = "", type = "String", value = "") {
  const div = document.createElement("div");
  div.className = "prop";
  div.innerHTML = `<input placeholder="Name" value="${escapeHTML(name)}"><select>${TYPES.map((t) => `<option ${t === type ? "selected" : ""}>${t}</option>`).join("")}</select><input placeholder="value" value="${escapeHTML(String(value))}"><button type="button" title="Remove">✕</button>`;
  div.querySelector("button").onclick = () => div.remove();
  $("#props").append(div);
}

/** editedEntity reads the editor: every property as { value, type }, exact for every type. */
function editedEntity() {
  const f = $("#editor");
  const e = { partitionKey: f.pk.value, rowKey: f.rk.value };
  for (const div of $("#props").children) {
    const [name, type, value] = [...div.querySelectorAll("input,select")].map((x) => x.value);
    if (name) e[name] = { value: type === "Boolean" ? value === "true" : value, type };
  }
  return e;
}

async function saveEntity(op) {
  const c = new T.TableClient(store, table);
  const e = editedEntity();
  const f = $("#editor");
  let res;
  if (op === "create") res = await c.createEntity(e);
  if (op === "merge") res = await c.upsertEntity(e, "Merge");
  if (op === "replace") res = await c.updateEntity(e, "Replace", { etag: f.dataset.etag || "*" });
  if (op === "delete") await c.deleteEntity(e.partitionKey, e.rowKey, { etag: f.dataset.etag || "*" });
  f.dataset.etag = res?.etag ?? "";
  $("#etag").textContent = res ? `saved · etag ${res.etag}` : "deleted";
  await act(null, () => runQuery(pageIndex)); // a failing query reports as the query's
}

async function submitBatch() {
  $("#batch-result").textContent = "";
  const actions = JSON.parse($("#batch").actions.value);
  const res = await new T.TableClient(store, table).submitTransaction(actions);
  $("#batch-result").textContent = `transaction applied to ${table}: ${res.subResponses.length} actions`;
  await act(null, () => runQuery(0)); // a failing query reports as the query's
}

async function exportTable() {
  const entities = [];
  for await (const e of new T.TableClient(store, table).listEntities({ disableTypeConversion: true })) {
    const { etag, timestamp, ...rest } = e;
    entities.push(rest);
  }
  download(new Blob([JSON.stringify({ table, entities }, null, 1)], { type: "application/json" }), `${table}.json`);
}

/** exportCSV downloads the table shown as {table}.csv, with its types (csv.js). */
async function exportCSV() {
  const entities = [];
  for await (const e of new T.TableClient(store, table).listEntities({ disableTypeConversion: true })) entities.push(e);
  download(new Blob([toCSV(entities)], { type: "text/csv" }), `${table}.csv`);
}

/** importCSV upserts a CSV's entities into the table its file is named after, created if missing. */
async function importCSV(file) {
  const name = file.name.replace(/\.csv$/i, "").replace(/[^A-Za-z0-9]/g, "");
  await upsertAll(name, fromCSV(await file.text()));
  $("#import-csv").value = "";
  await refreshTables(name);
}

/** download offers blob to the user as a file named name. */
function download(blob, name) {
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 0);
}

/** upsertAll creates table name if missing and upserts entities into it, a batch per 100 of a partition. */
async function upsertAll(name, entities) {
  const c = new T.TableClient(store, name);
  await c.createTable();
  const byPK = Map.groupBy ? Map.groupBy(entities, (e) => e.partitionKey) : group(entities);
  for (const list of byPK.values()) {
    for (let i = 0; i < list.length; i += 100) await c.submitTransaction(list.slice(i, i + 100).map((e) => ["upsert", e, "Replace"]));
  }
}

async function importTable(file) {
  const { table: name, entities } = JSON.parse(await file.text());
  await upsertAll(name, entities);
  $("#import").value = "";
  await refreshTables(name);
}

function group(list) {
  const m = new Map();
  for (const e of list) m.set(e.partitionKey, [...(m.get(e.partitionKey) ?? []), e]);
  return m;
}

async function loadSample() {
  const people = new T.TableClient(store, "People");
  await people.createTable();
  const cities = ["Oslo", "Lisbon", "Kyoto", "Austin", "Nairobi"];
  const names = ["Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Radia", "Edsger", "Frances", "Alan", "Katherine"];
  for (const [d, dept] of ["engineering", "research", "sales"].entries()) {
    const actions = names.map((n, i) => ["create", {
      partitionKey: dept, rowKey: String(d * 100 + i).padStart(4, "0"),
      Name: n, Age: 24 + ((i * 7 + d * 5) % 40), City: cities[(i + d) % 5], Active: i % 3 !== 0,
      Joined: new Date(Date.UTC(2015 + (i % 9), (i * 5) % 12, 1 + i)),
      Salary: BigInt(60000 + i * 9000 + d * 15000), Rating: { value: 3 + (i % 5) / 2, type: "Double" },
      Badge: { value: crypto.randomUUID(), type: "Guid" },
    }]);
    await people.submitTransaction(actions);
  }
  const notes = new T.TableClient(store, "Notes");
  await notes.createTable();
  await notes.createEntity({ partitionKey: "welcome", rowKey: "1", Text: "Everything here lives in IndexedDB: reload the page and it is still here.", Avatar: new Uint8Array([137, 80, 78, 71]) });
}

function sampleBatch() {
  return JSON.stringify([
    ["create", { partitionKey: "welcome", rowKey: "2", Text: "created in a batch" }],
    ["upsert", { partitionKey: "welcome", rowKey: "3", Text: "upserted", Big: { value: "9007199254740993", type: "Int64" } }, "Merge"],
  ], null, 1);
}

function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
