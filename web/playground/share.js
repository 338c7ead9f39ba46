// Links that carry a table: a table's entities, with their types, packed into the page's
// address (#table=Name&rows=…, with #sample= beside it), so that documentation and issue
// reports can point at a runnable example with its data. The rows are the JSON the
// playground's export writes, deflated (CompressionStream) and in base64url.

/** MAX_LINK is the most characters of packed rows a link carries; export larger tables. */
export const MAX_LINK = 100_000;

/** packRows packs entities (as listEntities gives them without type conversion) for a link. */
export async function packRows(entities) {
  const stream = new Blob([JSON.stringify(entities)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** unpackRows reads back what packRows packed; a damaged link is InvalidInput. */
export async function unpackRows(packed) {
  try {
    const bin = atob(packed.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    const rows = JSON.parse(await new Response(stream).text());
    if (!Array.isArray(rows)) throw new Error("not a list of entities");
    return rows;
  } catch (e) {
    throw Object.assign(new Error(`the link's table contents cannot be read: ${e.message}`), { code: "InvalidInput", statusCode: 400 });
  }
}
