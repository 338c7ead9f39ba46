// A pulled page cut into parts, so that applying it never holds the page's main thread
// for long: the engine applies a page of 1,000 entities in one call, which took 70 to 120
// ms in Chromium. Each part is a page body of its own, cut from the page's text (never
// parsed and written again, so every value stays exactly as the server wrote it).

/** PART_ITEMS is how many entities and deletions one part holds: a few milliseconds of the engine's. */
export const PART_ITEMS = 200;

const VALUE = "value";
const DELETED = "tabletop.deleted";

/**
 * pageParts cuts the page body text into bodies of at most most items each, its entities
 * ("value") first and then its deletions ("tabletop.deleted"), in the page's order, as the
 * engine applies them. Only the last part keeps the page's other members (its checkpoint,
 * whether there is more), so that a pull stores a page's checkpoint with its last part. A
 * page of at most most items, or a text that is not a JSON object, is its own one part:
 * the engine reports what is wrong with it.
 */
export function pageParts(text, most = PART_ITEMS) {
  let members;
  try {
    members = topMembers(text);
  } catch {
    return [text];
  }
  const items = [...(members.get(VALUE)?.items ?? []).map((s) => [VALUE, s]), ...(members.get(DELETED)?.items ?? []).map((s) => [DELETED, s])];
  if (items.length <= most) return [text];
  const parts = [];
  for (let i = 0; i < items.length; i += most) {
    const chunk = items.slice(i, i + most);
    const arrays = [VALUE, DELETED].map((name) => `${JSON.stringify(name)}:[${chunk.filter(([n]) => n === name).map(([, [a, b]]) => text.slice(a, b)).join(",")}]`);
    const others = i + most >= items.length ? [...members].filter(([name]) => name !== VALUE && name !== DELETED).map(([, m]) => text.slice(m.start, m.end)) : [];
    parts.push(`{${[...arrays, ...others].join(",")}}`);
  }
  return parts;
}

/**
 * topMembers reads the members of the JSON object text: name → { start, end } (the
 * member's text, name included), and for an array value, items: the [start, end) of each
 * element. It throws on text that is not one object.
 */
function topMembers(text) {
  const members = new Map();
  let i = space(text, 0);
  expect(text, i++, "{");
  i = space(text, i);
  if (text[i] === "}") return members;
  for (;;) {
    const start = i;
    const nameEnd = skipString(text, i);
    const name = JSON.parse(text.slice(i, nameEnd));
    i = space(text, nameEnd);
    expect(text, i++, ":");
    i = space(text, i);
    const m = { start };
    if (text[i] === "[") {
      m.items = [];
      i = space(text, i + 1);
      if (text[i] === "]") i++;
      else {
        for (;;) {
          const end = skipValue(text, i);
          m.items.push([i, end]);
          i = space(text, end);
          if (text[i++] === "]") break;
          expect(text, i - 1, ",");
          i = space(text, i);
        }
      }
    } else {
      i = skipValue(text, i);
    }
    m.end = i;
    members.set(name, m);
    i = space(text, i);
    if (text[i] === "}") break;
    expect(text, i++, ",");
    i = space(text, i);
  }
  if (space(text, i + 1) !== text.length) throw new SyntaxError("text after the object");
  return members;
}

function expect(text, i, c) {
  if (text[i] !== c) throw new SyntaxError(`expected ${c} at ${i}`);
}

/** space returns the index of the first character at or after i that is not JSON white space. */
function space(text, i) {
  for (let c; i < text.length && ((c = text.charCodeAt(i)) === 0x20 || c === 0x0a || c === 0x0d || c === 0x09); i++);
  return i;
}

/** skipString returns the index just past the JSON string starting at i. */
function skipString(text, i) {
  expect(text, i, '"');
  for (let j = i + 1; ; ) {
    const q = text.indexOf('"', j);
    if (q < 0) throw new SyntaxError("unterminated string");
    let slashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** skipValue returns the index just past the JSON value starting at i. */
function skipValue(text, i) {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c !== "{" && c !== "[") {
    let j = i;
    while (j < text.length && !",]} \n\r\t".includes(text[j])) j++;
    if (j === i) throw new SyntaxError(`no value at ${i}`);
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; ) {
    const d = text[j];
    if (d === '"') {
      j = skipString(text, j);
      continue;
    }
    if (d === "{" || d === "[") depth++;
    else if (d === "}" || d === "]") {
      if (--depth === 0) return j + 1;
    }
    j++;
  }
  throw new SyntaxError("unterminated value");
}
