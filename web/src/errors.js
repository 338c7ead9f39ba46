// Errors as @azure/data-tables throws them: a RestError whose code is the Azure error code
// ("TableNotFound", "EntityAlreadyExists", …), whose statusCode is the HTTP status the
// service would have answered with, with the SDK's details.errorCode and a response that
// holds the body Azure would have sent.

/** RestError is thrown by every failing call, like the SDK's RestError. */
export class RestError extends Error {
  /**
   * @param {string} message
   * @param {{code?: string, statusCode?: number, index?: number}} [options]
   */
  constructor(message, { code, statusCode, index } = {}) {
    super(message);
    this.name = "RestError";
    this.code = code;
    this.statusCode = statusCode;
    if (index !== undefined && index >= 0) this.index = index;
    const odataError = { code, message: { lang: "en-US", value: message } };
    this.details = { errorCode: code, odataError };
    const requestId = globalThis.crypto?.randomUUID?.() ?? "";
    this.response = {
      status: statusCode,
      headers: responseHeaders({ "x-ms-error-code": code, "x-ms-request-id": requestId, "content-type": "application/json;odata=minimalmetadata" }),
      bodyAsText: JSON.stringify({ "odata.error": odataError }),
    };
  }
}

/** responseHeaders is a read-only header collection like the SDK's HttpHeaders. */
function responseHeaders(values) {
  const map = new Map(Object.entries(values).filter(([, v]) => v !== undefined));
  return {
    get: (name) => map.get(name.toLowerCase()),
    has: (name) => map.has(name.toLowerCase()),
    toJSON: () => Object.fromEntries(map),
    [Symbol.iterator]: () => map.entries(),
  };
}

/** isRestError reports whether e is a RestError, as the SDK's helper does. */
export function isRestError(e) {
  return e instanceof Error && e.name === "RestError";
}

/**
 * fromEngine turns the plain {code, statusCode, message, index} object the engine throws
 * into a RestError. A failing transaction action prefixes the message with its 0-based
 * index, as Azure does ("2:The specified entity already exists.").
 */
export function fromEngine(e) {
  if (e instanceof Error) return e;
  const prefix = e.index >= 0 ? `${e.index}:` : "";
  return new RestError(prefix + e.message, e);
}

/** invalidInput is the RestError of a value the module rejects before the engine sees it. */
export function invalidInput(message) {
  return new RestError(message, { code: "InvalidInput", statusCode: 400 });
}

/**
 * checkAbort throws the SDK's AbortError (name "AbortError") if options.abortSignal has
 * been aborted.
 */
export function checkAbort(options) {
  if (options?.abortSignal?.aborted) {
    const e = new Error("The operation was aborted.");
    e.name = "AbortError";
    throw e;
  }
}

/**
 * dataCorrupted is the RestError of a stored value of a persistent store that does not
 * read back as the module wrote it (damaged outside the module): key names the IndexedDB
 * record ("head", "log/…", "pages/…") and problem what was wrong. The call that met it
 * fails and the record is left as it is: nothing reads around it, rewrites or deletes it.
 */
export function dataCorrupted(key, problem) {
  const e = new RestError(`The stored store is damaged at ${key}: ${problem}. Nothing was changed; restore it from a copy (a dump, or a server it syncs with) or delete it.`, { code: "DataCorrupted", statusCode: 500 });
  return Object.assign(e, { key, problem });
}
