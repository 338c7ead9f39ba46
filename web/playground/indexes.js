// The playground's index panel: the secondary indexes of the table shown, listed with a
// button to drop each, and a property to create one on. A query's plan (shown above the
// grid) names the index it used.

/**
 * showIndexes lists the indexes of table in el, offers props (the custom properties the
 * grid shows) for a new one, and calls changed after a create or a drop; act runs each
 * action, showing its error.
 */
export async function showIndexes(el, client, props, act, changed) {
  const have = await client.listIndexes();
  const list = el.querySelector(".index-list");
  list.innerHTML = have.length
    ? have.map((p) => `<li>${esc(p)} <button type="button" data-drop="${esc(p)}" aria-label="drop the index on ${esc(p)}">✕</button></li>`).join("")
    : "<li>none: queries on custom properties read the table</li>";
  const form = el.querySelector("form");
  form.prop.innerHTML = props.filter((p) => !have.includes(p)).map((p) => `<option>${esc(p)}</option>`).join("");
  form.onsubmit = (ev) => act(ev, async () => {
    if (!form.prop.value) return;
    await client.createIndex(form.prop.value);
    await changed();
  });
  list.onclick = (ev) => {
    const p = ev.target.dataset?.drop;
    if (p) act(null, async () => (await client.dropIndex(p), await changed()));
  };
}

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
