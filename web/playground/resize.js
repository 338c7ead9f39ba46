// Column widths of the playground's grid: a column is resized by dragging the grip at the
// right edge of its header, or with the arrow keys on the grip, and keeps its width for
// the table's next pages.

const widths = new Map(); // table → Map(column → width in px)
const MIN = 40; // the narrowest a column gets, in px
const STEP = 16; // an arrow key's change, in px

/** columnStyle is the style attribute of column c's cells in table's grid ("" by default). */
export function columnStyle(table, c) {
  const w = widths.get(table)?.get(c);
  return w ? ` style="${css(w)}"` : "";
}

/** grip is the header's resize handle for column c. */
export function grip(c) {
  return `<span class="grip" role="separator" aria-orientation="vertical" aria-label="resize ${c}" tabindex="0"></span>`;
}

/**
 * wireResize makes the grips of grid resize their columns, in the table that current()
 * names: a pointer drag, or ArrowLeft and ArrowRight on a focused grip. A grip's click
 * does not reach the header (no sort).
 */
export function wireResize(grid, current) {
  grid.addEventListener("pointerdown", (ev) => {
    const g = ev.target.closest(".grip");
    if (!g) return;
    ev.preventDefault();
    const c = g.parentElement.dataset.col;
    const x0 = ev.clientX, w0 = g.parentElement.getBoundingClientRect().width;
    g.setPointerCapture(ev.pointerId);
    g.onpointermove = (e) => resize(grid, current(), c, w0 + e.clientX - x0);
    g.onpointerup = g.onpointercancel = () => (g.onpointermove = g.onpointerup = g.onpointercancel = null);
  });
  grid.addEventListener("click", (ev) => ev.target.closest(".grip") && ev.stopImmediatePropagation(), true);
  grid.addEventListener("keydown", (ev) => {
    const g = ev.target.closest?.(".grip");
    const d = { ArrowLeft: -STEP, ArrowRight: STEP }[ev.key];
    if (!g || !d) return;
    ev.preventDefault();
    resize(grid, current(), g.parentElement.dataset.col, g.parentElement.getBoundingClientRect().width + d);
  });
}

/** resize gives column c of table the width w (at least MIN) in grid now and on its next pages. */
function resize(grid, table, c, w) {
  w = Math.max(MIN, Math.round(w));
  if (!widths.has(table)) widths.set(table, new Map());
  widths.get(table).set(c, w);
  for (const el of grid.querySelectorAll(`[data-col="${CSS.escape(c)}"]`)) el.style.cssText = css(w);
}

const css = (w) => `width:${w}px;min-width:${w}px;max-width:${w}px`;
