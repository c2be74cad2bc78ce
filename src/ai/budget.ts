// Tool results are read by a model with a limited context: every result fits a character budget, and
// says so when it was cut, so the model knows there is more and how to ask for less.

export const OUTPUT_BUDGET = 8_000;

/** The first `max` characters of `text` on one paragraph boundary or word when possible, with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text
    .replace(/\r\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, Math.max(0, max - 1));
  const space = head.search(/\s\S*$/);
  return `${space > max * 0.8 ? head.slice(0, space) : head}…`;
}

/**
 * `header`, then as many whole `items` as fit in `budget` characters (separated by blank lines), then a
 * note naming how many were left out. The first item is clipped rather than dropped, so a result is never empty.
 */
export function fitToBudget(header: string, items: string[], options: { budget?: number; noun: string; hint: string }): string {
  const budget = options.budget ?? OUTPUT_BUDGET;
  const parts = [header];
  let used = header.length;
  let shown = 0;
  let clipped = false;
  // Room kept for the note itself.
  const reserve = 240;
  for (const item of items) {
    const cost = item.length + 2;
    if (used + cost > budget - reserve) {
      if (shown === 0) {
        parts.push(clip(item, Math.max(200, budget - reserve - used - 2)));
        shown++;
        clipped = true;
      }
      break;
    }
    parts.push(item);
    used += cost;
    shown++;
  }
  if (shown < items.length || clipped) {
    const what = clipped && shown === items.length ? `the ${options.noun} shortened` : `${shown} of ${items.length} ${options.noun} shown`;
    parts.push(`[Cut to stay within ${budget.toLocaleString('en-US')} characters: ${what}. ${options.hint}]`);
  }
  return parts.join('\n\n');
}
