// A table's entities as CSV (RFC 4180) with their types, and back: the first two columns
// are PartitionKey and RowKey; each other column is a property, headed "Name" for a String
// and "Name@Type" for another EDM type, so a CSV read back gives the same entities, typed.
// An empty field is a property the entity lacks; a quoted empty field ("") an empty string.

/** toCSV writes entities (as listEntities gives them with disableTypeConversion) as CSV. */
export function toCSV(entities) {
  const cols = [];
  const key = (name, v) => (typeOf(v) === "String" ? name : `${name}@${typeOf(v)}`);
  for (const e of entities) {
    for (const [name, v] of Object.entries(e)) {
      if (!isKey(name) && !cols.includes(key(name, v))) cols.push(key(name, v));
    }
  }
  const lines = [["PartitionKey", "RowKey", ...cols].map(quote).join(",")];
  for (const e of entities) {
    const cells = [quote(e.partitionKey), quote(e.rowKey)];
    for (const col of cols) {
      const [name] = col.split("@");
      const v = e[name];
      cells.push(v === undefined || key(name, v) !== col ? "" : quote(String(v?.value ?? v)));
    }
    lines.push(cells.join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** fromCSV reads CSV that toCSV wrote (or any with its header) into entities to upsert. */
export function fromCSV(text) {
  const [header, ...rows] = parse(text);
  if (!header || header[0]?.text !== "PartitionKey" || header[1]?.text !== "RowKey") {
    throw Object.assign(new Error("the CSV's first two columns must be PartitionKey and RowKey"), { code: "InvalidInput" });
  }
  return rows.map((cells) => {
    const e = { partitionKey: cells[0]?.text ?? "", rowKey: cells[1]?.text ?? "" };
    header.slice(2).forEach((h, i) => {
      const cell = cells[i + 2];
      if (!cell || (cell.text === "" && !cell.quoted)) return; // absent
      const [name, type = "String"] = h.text.split("@");
      e[name] = type === "String" ? cell.text : { value: cell.text, type };
    });
    return e;
  });
}

const isKey = (name) => ["partitionKey", "rowKey", "etag", "timestamp"].includes(name);
const typeOf = (v) => (typeof v === "object" && v?.type ? v.type : "String");
const quote = (s) => (s === "" || /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** parse splits CSV into rows of fields: { text, quoted }. */
function parse(text) {
  const rows = [];
  let row = [], field = "", quoted = false, inQuotes = false, i = 0;
  const endField = () => (row.push({ text: field, quoted }), (field = ""), (quoted = false));
  for (; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') inQuotes = false;
      else field += c;
    } else if (c === '"') (inQuotes = true), (quoted = true);
    else if (c === ",") endField();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || quoted || row.length > 0) endField(), rows.push(row);
  return rows;
}
