// Errors as @azure/data-tables throws them: a RestError whose code is the Azure error code
// ("TableNotFound", "EntityAlreadyExists", …) and whose statusCode is the HTTP status the
// service would have answered with.

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
    this.details = { odataError: { code, message: { lang: "en-US", value: message } } };
  }
}

/** isRestError reports whether e is a RestError, as the SDK's helper does. */
export function isRestError(e) {
  return e instanceof Error && e.name === "RestError";
}

/**
 * fromEngine turns the plain {code, statusCode, message, index} object the engine rejects
 * with into a RestError. A failing transaction action prefixes the message with its
 * 0-based index, as Azure does ("2:The specified entity already exists.").
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
