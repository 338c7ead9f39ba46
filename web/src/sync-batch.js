// Entity group transactions ($batch) for the push: up to 100 writes of one partition in
// one request, all or nothing, in the multipart/mixed form of Microsoft's "Performing
// entity group transactions".

/** MAX_BATCH is the most operations one entity group transaction may hold. */
export const MAX_BATCH = 100;

/**
 * batchBody builds the body of a $batch of ops ({ method, path, body?, etag? }, path
 * relative to base) and answers { body, contentType }.
 */
export function batchBody(base, ops) {
  const id = crypto.randomUUID();
  const batch = `batch_${id}`, changeset = `changeset_${id}`;
  const lines = [`--${batch}`, `Content-Type: multipart/mixed; boundary=${changeset}`, ""];
  for (const op of ops) {
    lines.push(`--${changeset}`, "Content-Type: application/http", "Content-Transfer-Encoding: binary", "");
    lines.push(`${op.method} ${base}/${op.path} HTTP/1.1`, "Accept: application/json;odata=minimalmetadata", "DataServiceVersion: 3.0;");
    if (op.etag) lines.push(`If-Match: ${op.etag}`);
    if (op.body !== undefined) lines.push("Content-Type: application/json", "Prefer: return-no-content", "", op.body);
    else lines.push("");
  }
  lines.push(`--${changeset}--`, `--${batch}--`, "");
  return { body: lines.join("\r\n"), contentType: `multipart/mixed; boundary=${batch}` };
}

/**
 * batchResponses parses a $batch answer into the sub-responses, in order:
 * [{ status, etag }]. A failed changeset answers one sub-response, the failure's.
 */
export function batchResponses(text) {
  const out = [];
  for (const m of text.matchAll(/HTTP\/1\.1 (\d{3})[^\r\n]*\r?\n((?:[^\r\n]+\r?\n)*)/g)) {
    const etag = /^ETag:\s*(.+?)\s*$/im.exec(m[2])?.[1];
    out.push({ status: Number(m[1]), etag });
  }
  return out;
}
