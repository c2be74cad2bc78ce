// What the PDF view reports of a page's text: the start of it, and which pdfjs warnings are font problems.

/**
 * pdfjs warnings that mean text or glyphs are wrong: character maps or standard fonts that did not load,
 * fonts that failed to parse. "Cannot load system font" is not one: a non-embedded font (HeiseiKakuGo-W5…)
 * is not installed, and pdfjs draws with the fallback font instead (the text is still right).
 */
export function isFontProblem(warning: string): boolean {
  if (/^Cannot load system font/i.test(warning)) return false;
  return /font|cmap|glyph|unicode|encoding/i.test(warning);
}

/** The start of the page's text: runs joined, a space only between two non-CJK characters. */
export function sampleText(strs: readonly string[], max = 300): string {
  let out = '';
  for (const s of strs) {
    const t = s.trim();
    if (!t) continue;
    const cjk = /[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]/;
    out += out && !(cjk.test(out.slice(-1)) || cjk.test(t[0])) ? ` ${t}` : t;
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}
