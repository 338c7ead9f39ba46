// Export and import in the Tabletop dump format, version 1: newline-delimited JSON, a
// section per table whose first line is {"format":"tabletop-dump","version":1,"table":"…"}
// and whose other lines are its entities in Azure's wire form with every type annotated
// (Int32, Int64, Double, DateTime, Guid, Binary; strings and booleans plain), so that a
// dump re-imports exactly: a Double 5.0 stays a Double, Int64 extremes and DateTime's
// 100 ns survive. A whole store is the concatenation of its tables' sections. Gzip is
// detected on import (bytes 1f 8b) and written on export with { gzip: true }.

import { invalidInput } from "./errors.js";

/**
 * exportDump returns the dump of tables (every table if empty) of store, as one
 * consistent view: a string, or gzip bytes with options.gzip.
 */
export async function exportDump(store, tables, options = {}) {
  const text = await store._read("export", ...tables);
  return options.gzip ? gzip(text) : text;
}

/**
 * importDump writes a dump (string, Uint8Array, ArrayBuffer or Blob; gzip or not) into
 * store atomically: tables are created if missing, entities inserted or replaced. With
 * intoTable, every section goes into that table. A line that is not valid (a value that
 * does not parse as its annotated type, a version above 1) fails the whole import with a
 * RestError naming the line. It resolves with { tables, entities }.
 */
export async function importDump(store, dump, intoTable) {
  let text = await dumpText(dump);
  if (intoTable !== undefined) text = retarget(text, intoTable);
  const json = await store._write("import", [text], (j) => JSON.parse(j).tables.map((table) => ({ table, kind: "import" })));
  return JSON.parse(json);
}

async function dumpText(dump) {
  if (typeof dump === "string") return dump;
  let bytes;
  if (dump instanceof Uint8Array) bytes = dump;
  else if (dump instanceof ArrayBuffer) bytes = new Uint8Array(dump);
  else if (typeof Blob !== "undefined" && dump instanceof Blob) bytes = new Uint8Array(await dump.arrayBuffer());
  else throw invalidInput("a dump must be a string, Uint8Array, ArrayBuffer or Blob");
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await gunzip(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidInput("a dump must be UTF-8 text");
  }
}

/** retarget rewrites every section header to name table. */
function retarget(text, table) {
  const header = JSON.stringify({ format: "tabletop-dump", version: 1, table });
  return text
    .split("\n")
    .map((line) => {
      if (!line.includes('"tabletop-dump"')) return line;
      try {
        const h = JSON.parse(line);
        return h?.format === "tabletop-dump" ? JSON.stringify({ ...h, table }) : line;
      } catch {
        return line; // the engine names the line
      }
    })
    .join("\n")
    .replace(/^$/, header);
}

async function gzip(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  try {
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    throw invalidInput("a dump with gzip's magic bytes is not valid gzip");
  }
}
