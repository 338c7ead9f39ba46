// The playground's Server panel: connect to an Azure Table endpoint (by default the
// server that serves the page, as under `make run`), list its tables, and sync one into
// the browser with TableSync, its status shown. A sync pauses (local edits queue, the
// server's wait) and resumes, or stops. Synced tables are remembered (in localStorage),
// paused or not, and pick up where they were when the page loads again.

const $ = (sel) => document.querySelector(sel);
const DEV_ACCOUNT = "devstoreaccount1";
const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const SAVED = "tabletop-playground-sync";
const PAUSED = "tabletop-playground-sync-paused";

let T, store, onLocalChange;
const syncs = new Map(); // local table name → TableSync

/**
 * startSync wires the panel: T the module, s the store, refresh(table) shows a table
 * after the server changed it. It returns isSynced(table), for the tables list's badges.
 */
export function startSync(module, s, refresh) {
  (T = module), (store = s), (onLocalChange = refresh);
  const form = $("#server");
  form.url.value ||= `${location.origin}/${DEV_ACCOUNT}`;
  form.key.value ||= DEV_KEY;
  form.onsubmit = (ev) => (ev.preventDefault(), connect().catch(showError));
  $("#remote-tables").onclick = (ev) => {
    const name = ev.target.closest("button")?.dataset.sync;
    if (name) syncTable(name).catch(showError);
  };
  $("#sync-status").onclick = (ev) => {
    const { stop, pause, resume } = ev.target.closest("button")?.dataset ?? {};
    if (stop) stopSync(stop).catch(showError);
    if (pause) pauseSync(pause).catch(showError);
    if (resume) resumeSync(resume);
  };
  for (const name of saved()) syncTable(name, true).catch(showError);
  return (name) => syncs.has(name);
}

/**
 * stopSync stops syncing a table and forgets it: the local table and its entities stay,
 * as a local table; Sync on the server's list starts again.
 */
async function stopSync(name) {
  const sync = syncs.get(name);
  if (!sync) return;
  syncs.delete(name);
  forget(name);
  setPaused(name, false);
  await sync.stop();
  renderStatus();
  onLocalChange(name, true);
  if ($("#remote-tables").children.length) await connect();
}

/**
 * pauseSync stops a table's sync from reaching the server, keeping it synced: local edits
 * queue (the pending count follows them) until resumeSync pushes them and pulls the
 * server's changes of the meantime.
 */
async function pauseSync(name) {
  const sync = syncs.get(name);
  if (!sync) return;
  setPaused(name, true);
  await sync.stop();
  await sync.track(); // the pending count, which stop leaves
  renderStatus();
}

/** resumeSync starts a paused table's sync again. */
function resumeSync(name) {
  const sync = syncs.get(name);
  if (!sync) return;
  setPaused(name, false);
  sync.start({ interval: 10_000 });
  renderStatus();
}

function credential() {
  const form = $("#server");
  const key = form.key.value.trim();
  if (!key) return undefined; // a SAS in the URL
  if (key.startsWith("?") || key.includes("sig=")) return new T.AzureSASCredential(key);
  return new T.AzureNamedKeyCredential(form.account.value.trim() || DEV_ACCOUNT, key);
}

/** connect lists the server's tables with a Sync button each. */
async function connect() {
  $("#server-error").hidden = true;
  const names = await T.listRemoteTables($("#server").url.value.trim(), { credential: credential() });
  $("#remote-tables").innerHTML = names.length
    ? names.map((n) => `<li><span>${escapeHTML(n)}</span> <button type="button" data-sync="${escapeHTML(n)}">${syncs.has(n) ? "Syncing" : "Sync"}</button></li>`).join("")
    : "<li>no tables on the server</li>";
}

/**
 * syncTable syncs the server's table into the local table of the same name. A local
 * table of that name that is not synced (the sample People, say) is replaced, after
 * asking: its entities would otherwise be pushed to the server.
 */
async function syncTable(name, resumed = false) {
  if (syncs.has(name)) return syncs.get(name).sync();
  const local = new T.TableClient(store, name);
  const exists = await local.getAccessPolicy().then(() => true, () => false);
  if (exists && !resumed && !confirm(`Replace the local table ${name} with the server's?`)) return;
  if (exists && !resumed) await local.deleteTable();
  const sync = new T.TableSync(local, { url: $("#server").url.value.trim(), table: name, credential: credential() });
  syncs.set(name, sync);
  remember(name);
  sync.on("status", () => renderStatus());
  sync.on("conflict", (c) => conflict(name, c));
  local.on("change", (c) => c.remote && onLocalChange(name));
  await sync.track();
  onLocalChange(name, true);
  if (!paused().includes(name)) sync.start({ interval: 10_000 });
  renderStatus();
}

function renderStatus() {
  $("#sync-status").innerHTML = [...syncs].map(([name, s]) => {
    const st = s.status;
    const held = paused().includes(name);
    const state = held ? "paused" : st.error ? `<b class="bad">${escapeHTML(st.error.code ?? "error")}</b>` : st.syncing ? "syncing…" : st.lastSync ? "synced" : "waiting";
    const toggle = held ? `<button type="button" data-resume="${escapeHTML(name)}">Resume</button>` : `<button type="button" data-pause="${escapeHTML(name)}">Pause</button>`;
    const when = st.lastSync ? ` · last sync ${st.lastSync.toLocaleTimeString()}` : "";
    const online = st.online === false ? " · offline" : "";
    const mode = st.pull ? ` · ${st.pull === "changes" ? "change feed" : "Timestamp pulls"}` : "";
    return `<li data-table="${escapeHTML(name)}"><b>${escapeHTML(name)}</b>: <span class="state">${state}</span> · <span class="pending">${st.pending ?? "?"} pending</span>${online}${when}${mode} ${toggle} <button type="button" data-stop="${escapeHTML(name)}">Stop</button></li>`;
  }).join("");
}

/**
 * conflict lists a sync conflict where the sync is shown, and tells the page
 * (tabletop-conflict), whose editor then shows the version that won.
 */
function conflict(table, c) {
  const li = document.createElement("li");
  li.textContent = `${table} ${c.partitionKey}/${c.rowKey}: ${c.code}, kept the ${c.resolution === "remote" ? "server's" : "local"} version`;
  $("#conflicts").prepend(li);
  document.dispatchEvent(new CustomEvent("tabletop-conflict", { detail: { table, partitionKey: c.partitionKey, rowKey: c.rowKey } }));
}

function showError(e) {
  const el = $("#server-error");
  el.hidden = false;
  el.textContent = e.code ? `${e.code} · HTTP ${e.statusCode}: ${e.message}` : String(e);
}

/** saved lists the tables the page syncs (key SAVED), or those paused (key PAUSED). */
function saved(key = SAVED) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "[]");
  } catch {
    return [];
  }
}

const paused = () => saved(PAUSED);

function setPaused(name, on) {
  const list = paused().filter((n) => n !== name);
  localStorage.setItem(PAUSED, JSON.stringify(on ? [...list, name] : list));
}

function forget(name) {
  localStorage.setItem(SAVED, JSON.stringify(saved().filter((n) => n !== name)));
}

function remember(name) {
  const list = saved();
  if (!list.includes(name)) localStorage.setItem(SAVED, JSON.stringify([...list, name]));
}

function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
