import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/** Pages whose styles use the theme's colours only (Light, Dark and High Contrast alike). */
const THEMED = ['media/chat.css', 'media/citation.css'];
const NAMED = /\b(white|black|red|green|blue|yellow|orange|gray|grey|silver|purple|pink|brown)\b/i;

/** Colours written into a stylesheet instead of taken from the theme (--vscode-*): hex, rgb()/hsl(), named. */
export function hardCodedColours(css: string): string[] {
  const found: string[] = [];
  const body = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of body.matchAll(/([\w-]+)\s*:\s*([^;{}]+)/g)) {
    const [, property, value] = m;
    if (property.startsWith('--') && !property.startsWith('--vscode')) continue; // our own variables are checked where used
    if (
      /#[0-9a-f]{3,8}\b|\b(rgba?|hsla?)\(/i.test(value) ||
      (/color|background|border|outline|shadow|fill|stroke/i.test(property) && NAMED.test(value))
    )
      found.push(`${property}: ${value.trim()}`);
  }
  return found;
}

describe('Theme colours (media/*.css)', () => {
  it('the check finds hex, rgb(), hsl() and named colours, and passes theme variables', () => {
    assert.deepEqual(hardCodedColours('.a { background: #fff; color: rgba(0, 0, 0, 0.5); border: 1px solid orange; }'), [
      'background: #fff',
      'color: rgba(0, 0, 0, 0.5)',
      'border: 1px solid orange',
    ]);
    assert.deepEqual(hardCodedColours('.a { color: var(--vscode-foreground); white-space: pre; /* #fff */ }'), []);
  });

  for (const file of THEMED)
    it(`${file} uses theme colours only`, () => {
      assert.deepEqual(hardCodedColours(readFileSync(file, 'utf8')), []);
    });
});
