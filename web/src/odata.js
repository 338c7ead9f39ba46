// The odata tagged template: it writes interpolated values as OData literals, so that
// odata`PartitionKey eq ${pk} and Age gt ${age}` is safe whatever pk holds.

/**
 * odata builds a $filter from a template. Strings become quoted literals with single
 * quotes doubled (if the template already wrote the opening quote, only the doubling is
 * done, as the SDK does); Dates become datetime'…'; bigints Int64 literals (5L); numbers,
 * booleans as written; { value, type } objects the literal of their type (Int64 → 5L,
 * Guid → guid'…', DateTime → datetime'…', Binary → X'…', Double → 5.0).
 */
export function odata(strings, ...values) {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) {
    out += literal(values[i], strings[i]) + strings[i + 1];
  }
  return out;
}

function literal(v, before) {
  if (typeof v === "string") {
    const escaped = v.replace(/'/g, "''");
    return before.trimEnd().endsWith("'") ? escaped : `'${escaped}'`;
  }
  if (v instanceof Date) return `datetime'${v.toISOString()}'`;
  if (typeof v === "bigint") return `${v}L`;
  if (v instanceof Uint8Array) return `X'${hex(v)}'`;
  if (v && typeof v === "object" && "type" in v && "value" in v) return typedLiteral(v);
  return String(v);
}

function typedLiteral({ value, type }) {
  switch (type) {
    case "Int64": return `${value}L`;
    case "Guid": return `guid'${value}'`;
    case "DateTime": return `datetime'${value instanceof Date ? value.toISOString() : value}'`;
    case "Binary": return `X'${hex(value instanceof Uint8Array ? value : fromBase64(value))}'`;
    case "Double": return /^-?\d+$/.test(String(value)) ? `${value}.0` : String(value);
    case "String": return `'${String(value).replace(/'/g, "''")}'`;
    default: return String(value);
  }
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromBase64(s) {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}
