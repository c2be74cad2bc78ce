// DATE: calendar dates written out, and a fixed list of relative words. What is recognised:
// - numeric: 2026-11-21, 2026/11/21, 2026.11.21 (year first), 11/21/2026 and 21/11/2026 (four-digit year
//   last; either order as long as one of them is a valid month/day) — never 11/21 alone (a fraction?);
// - English: November 21, 2026 · Nov. 21st · 21 Nov · the 21st of November 2026 · November 2026 ·
//   November (full month names except May, which is too often a verb) · Monday, next Friday;
// - Japanese: 2026年11月21日, 11月21日(土), 2026年11月, 2026年, 2026年度, 令和8年, 平成元年5月1日, 月曜日,
//   full-width digits too (１１月２１日);
// - relative words: today, tomorrow, yesterday, tonight, next/last/this week|month|year|weekend,
//   今日, 本日, 明日, 昨日, 明後日, 一昨日, 今週, 来週, 先週, 再来週, 今月, 来月, 先月, 今年, 来年, 去年, 昨年, 再来年, 週末.
// Ranges are not merged (11月21日〜23日 gives 11月21日 only) and times of day are not dates.
import { regexCandidates, type Candidate } from './entity';

const D = '[0-9０-９]';
const FULL_MONTHS = 'January|February|March|April|June|July|August|September|October|November|December';
const MONTH = `(?:${FULL_MONTHS}|May|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)`;
const DAY_SUFFIX = '(?:st|nd|rd|th)?';
const WEEKDAY_JA = `(?:\\s?[（(][月火水木金土日](?:曜日?)?[）)])?`;

const toNumber = (s: string): number => Number(s.replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)));
const validMonthDay = (month: string, day: string): boolean => {
  const m = toNumber(month);
  const d = toNumber(day);
  return m >= 1 && m <= 12 && d >= 1 && d <= 31;
};

interface DateRule {
  re: RegExp;
  accept?: (m: RegExpExecArray) => boolean;
}

const RULES: DateRule[] = [
  // 2026-11-21, 2026/11/21, 2026.11.21
  { re: /(?<![\w./-])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\w/-]|\.\d)/g, accept: (m) => validMonthDay(m[3], m[4]) },
  // 11/21/2026 or 21/11/2026
  { re: /(?<![\w./-])(\d{1,2})\/(\d{1,2})\/(\d{4})(?![\w/-])/g, accept: (m) => validMonthDay(m[1], m[2]) || validMonthDay(m[2], m[1]) },
  // November 21, 2026 · Nov. 21st · Nov 21
  { re: new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})${DAY_SUFFIX}(?:,?\\s+\\d{4})?(?![\\w])`, 'g'), accept: (m) => validMonthDay('1', m[1]) },
  // 21 Nov · 21st of November 2026
  {
    re: new RegExp(`(?<![\\w.,])(\\d{1,2})${DAY_SUFFIX}\\s+(?:of\\s+)?${MONTH}\\b(?:,?\\s+\\d{4}(?![\\w]))?`, 'g'),
    accept: (m) => validMonthDay('1', m[1]),
  },
  // November 2026 · November (full names; May only with a day or year)
  { re: new RegExp(`\\b(?:${FULL_MONTHS}|May(?=\\s+\\d{4}\\b))(?:\\s+\\d{4})?\\b`, 'g') },
  // Monday · next Friday · this Sunday
  { re: /\b(?:(?:[Nn]ext|[Ll]ast|[Tt]his)\s+)?(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/g },
  // today, tomorrow, next week… (any case)
  {
    re: /\b(?:today|tomorrow|yesterday|tonight|the day after tomorrow|the day before yesterday|(?:next|last|this)\s+(?:week|month|year|weekend))\b/gi,
  },
  // 2026年11月21日(土) · 11月21日 · 2026年11月 · 2026年 · 2026年度
  {
    re: new RegExp(
      `(?<!${D})(?:(${D}{4})年(?:度|(${D}{1,2})月(?:(${D}{1,2})日${WEEKDAY_JA})?)?|(${D}{1,2})月(${D}{1,2})日${WEEKDAY_JA})`,
      'g',
    ),
    accept: acceptJapanese,
  },
  // 11月 on its own (not 3ヶ月 or 1か月, which are durations)
  {
    re: new RegExp(`(?<![${D.slice(1, -1)}ヶかカケ箇個])(${D}{1,2})月(?![${D.slice(1, -1)}曜])`, 'g'),
    accept: (m) => validMonthDay(m[1], '1'),
  },
  // 令和8年 · 平成元年5月1日
  {
    re: new RegExp(`(?:令和|平成|昭和|大正|明治)(?:元|${D}{1,2})年(?:(${D}{1,2})月(?:(${D}{1,2})日${WEEKDAY_JA})?)?`, 'g'),
    accept: (m) => !m[1] || validMonthDay(m[1], m[2] ?? '1'),
  },
  // 月曜日 · 金曜
  { re: /[月火水木金土日]曜日?/g },
  { re: /再来週|再来年|明後日|一昨日|今日|本日|明日|昨日|今週|来週|先週|今月|来月|先月|今年|来年|去年|昨年|週末/g },
];

function acceptJapanese(m: RegExpExecArray): boolean {
  if (m[1] !== undefined) return m[2] === undefined || validMonthDay(m[2], m[3] ?? '1');
  return validMonthDay(m[4], m[5]);
}

export function dateCandidates(text: string): Candidate[] {
  return RULES.flatMap(({ re, accept }) => regexCandidates(re, text, 'DATE', 2, 0, 0, accept));
}
