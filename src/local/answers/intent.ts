// Small, honest helpers around a query: its language, its intent as the service names it, and a follow-up
// question built from a passage the answer did not use (its heading, else its document).
import { isHeadingLine } from './extractive';

/** The service's values (docs/api.md): a client may branch on them, so no other value is sent. */
export type Intent = 'SEARCH' | 'END_OF_CONVERSATION';
export type Lang = 'en' | 'ja';

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

export function languageOf(text: string): Lang {
  return JAPANESE.test(text) ? 'ja' : 'en';
}

// A whole query that only closes the conversation (thanks, goodbye, "that's all"); anything more is a search.
const CLOSING =
  /^((ok(ay)?|great|perfect|got it|understood)[\s,!.]*)?(thanks( a lot)?|thank you( very much)?|thx|bye|goodbye|see you|that'?s all|that is all|no more questions|ありがとう(ございます|ございました)?|どうも(ありがとう(ございます|ございました)?)?|さようなら|お疲れ(様|さま)(です|でした)?|以上です|解決しました|大丈夫です)[\s!！.。、,]*$/iu;

/** END_OF_CONVERSATION when the query only closes the conversation, otherwise SEARCH. */
export function classifyIntent(query: string): Intent {
  return CLOSING.test(query.trim()) ? 'END_OF_CONVERSATION' : 'SEARCH';
}

/**
 * A follow-up question in the query's language from a passage the answer left out: its first heading turned
 * into a question (a heading that is already a question stays as it is), else a question about its document.
 */
export function followUpQuestion(passageText: string, documentTitle: string, lang: Lang): string {
  const heading = firstHeading(passageText);
  if (heading && /[?？]$/.test(heading)) return heading;
  if (heading) return lang === 'ja' ? `${heading}について教えてください。` : `What about ${lowerFirst(heading)}?`;
  return lang === 'ja' ? `「${documentTitle}」には他に何が書かれていますか？` : `What else does "${documentTitle}" cover?`;
}

function firstHeading(text: string): string | undefined {
  for (const line of text.split('\n').slice(0, 8)) {
    const t = line.trim();
    if (!t || !isHeadingLine(t)) continue;
    // "## 2. Remote work" → "Remote work"; "第3章 休日および休暇" keeps its words.
    const clean = t
      .replace(/^#{1,6}\s+/, '')
      .replace(/^\d+(\.\d+)*[.)]?\s+/, '')
      .trim();
    if (clean.length >= 2) return clean;
  }
  return undefined;
}

/** "Remote work" → "remote work"; headings in title case ("VPN Setup Guide", "Aozora Systems") keep their capitals. */
function lowerFirst(text: string): string {
  const words = text.split(/\s+/);
  const sentenceCase = /^\p{Lu}\p{Ll}/u.test(words[0] ?? '') && words.slice(1).every((w) => !/^\p{Lu}/u.test(w));
  return sentenceCase ? text[0].toLowerCase() + text.slice(1) : text;
}
