// Small, honest helpers around a query: its language, a rule-based intent, and a follow-up question built
// from a passage the answer did not use (its heading, else its document).
import { isHeadingLine } from './extractive';

export type Intent = 'greeting' | 'question' | 'instruction' | 'other';
export type Lang = 'en' | 'ja';

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

export function languageOf(text: string): Lang {
  return JAPANESE.test(text) ? 'ja' : 'en';
}

const GREETING =
  /^(hi|hello|hey|good (morning|afternoon|evening)|thanks|thank you|bye|goodbye|こんにちは|こんばんは|おはよう(ございます)?|ありがとう(ございます)?|よろしく(お願いします)?|さようなら|お疲れ(様|さま)(です)?)[\s!！.。、,]*$/iu;
const QUESTION_START =
  /^(what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|should|would|will|may|shall|have|has)\b/i;
const QUESTION_JA = /(ですか|ますか|でしょうか|のか|か)[?？。]?$|(何|なに|なん|いつ|どこ|だれ|誰|どう|どの|どれ|なぜ|いくら|いくつ)/u;
const INSTRUCTION_START = /^(please|tell|show|list|explain|describe|give|find|summari[sz]e|help|send|write|compare)\b/i;
const INSTRUCTION_JA = /(ください|下さい|教えて|してほしい|して欲しい|お願い(します)?)[。!！]?$/u;

/** greeting, question, instruction (a request phrased as an order), or other. */
export function classifyIntent(query: string): Intent {
  const q = query.trim();
  if (GREETING.test(q)) return 'greeting';
  if (/[?？]\s*$/.test(q) || QUESTION_START.test(q)) return 'question';
  if (INSTRUCTION_START.test(q) || INSTRUCTION_JA.test(q)) return 'instruction';
  if (QUESTION_JA.test(q)) return 'question';
  return 'other';
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
