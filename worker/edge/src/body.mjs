// Reading a request's body at the entry Worker, which holds it whole: it routes by it (an
// insert's or a batch's PartitionKey is inside) and hands it to an object in one call. So
// a body is refused before it is held whole, with the answer the Go handler gives the same
// body natively: one that announces more than MAX_BODY_BYTES in its Content-Length at once,
// one that sends more as soon as it passes them (413 RequestBodyTooLarge); one that ends
// before its Content-Length or whose chunked framing breaks (400 InvalidInput).

/**
 * MAX_BODY_BYTES is the largest body the Go handler reads, Go's rest.MaxBodyBytes (a
 * test of worker/edge checks that they agree): each operation's own limit, no larger,
 * is the handler's to apply.
 */
export const MAX_BODY_BYTES = 4 << 20;

/** BodyRefused is what readBody throws for a body it refuses: the status, code and message to answer. */
export class BodyRefused extends Error {
  constructor(status, code, message) {
    super(message);
    Object.assign(this, { status, code });
  }
}

const tooLarge = () => new BodyRefused(413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit.");
const malformed = () => new BodyRefused(400, "InvalidInput", "One of the request inputs is not valid. request body is malformed");

/**
 * readBody reads request's body, at most MAX_BODY_BYTES of it: its bytes, or null for
 * none. After it throws BodyRefused, dropRest reads what is left.
 */
export async function readBody(request) {
  if (request.body === null) return null;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const reader = request.body.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw malformed(); // the runtime could not read the body's framing, or it ended early
    });
    if (done) break;
    n += value.byteLength;
    if (n > MAX_BODY_BYTES) {
      reader.releaseLock(); // dropRest reads the rest
      throw tooLarge();
    }
    chunks.push(value);
  }
  return n === 0 ? null : join(chunks, n);
}

/** LINGER_MS is how long dropRest reads a refused body: as long as the native server lingers. */
export const LINGER_MS = 500;

/**
 * dropRest reads and drops what is left of a refused request's body, holding none of it,
 * until it ends or for LINGER_MS at most; the answer goes after it. The runtime closes a
 * connection whose request body is left unread as soon as the answer is written, which
 * resets it, and a client still sending its body then loses the answer before it reads
 * it: natively the server reads on after the answer instead, which a Worker cannot.
 */
export async function dropRest(request) {
  if (request.body === null || request.body.locked) return;
  const reader = request.body.getReader();
  const stop = setTimeout(() => reader.cancel().catch(() => {}), LINGER_MS);
  try {
    while (!(await reader.read()).done);
  } catch {
    // cancelled, or the framing broke: nothing more to drop
  } finally {
    clearTimeout(stop);
  }
}

/** join is chunks, n bytes in all, as one array. */
function join(chunks, n) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(n);
  let off = 0;
  for (const c of chunks) out.set(c, off), (off += c.byteLength);
  return out;
}
