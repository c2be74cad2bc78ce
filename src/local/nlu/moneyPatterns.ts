// MONEY: an amount with a currency sign, code, word or unit — $1,200, US$30, ¥12,000, €5, USD 30,
// 30 USD, 100 dollars, 12,000円, 1.5万円, 3億5000万円, 五千円, 30ドル. A bare number is never money.
import { regexCandidates, type Candidate } from './entity';

const D = '[0-9０-９]';
// 1,200 / 1200 / 1.5 / １２，０００ (grouped thousands must be exact).
const NUM = `(?:${D}{1,3}(?:[,，]${D}{3})+(?:[.．]${D}+)?|${D}+(?:[.．]${D}+)?)`;
const SCALE = '(?:\\s?(?:thousand|million|billion|trillion|bn|[kKMB])(?![A-Za-z])|万|億|兆)';
const CODES = 'USD|EUR|JPY|GBP|CNY|RMB|KRW|AUD|CAD|CHF|HKD|SGD|INR|TWD';
const WORDS = 'dollars?|euros?|yen|pounds?|yuan|won|cents?';
// Not glued to a preceding digit, letter or decimal point.
const START = '(?<![\\w.,，．０-９])';

const MONEY: RegExp[] = [
  // Sign first: $1,200  US$30  ¥12,000  ￥500  €5  £3.50  $1.2 million
  new RegExp(`(?<![A-Za-z])(?:US|A|C|HK|NZ|S)?[$＄€£¥￥₩₹]\\s?${NUM}${SCALE}?`, 'g'),
  // Code first or last: USD 30, JPY 12,000, 30 USD, 1.5M EUR
  new RegExp(`(?<![A-Za-z])(?:${CODES})\\s?${NUM}${SCALE}?(?![\\w])`, 'g'),
  new RegExp(`${START}${NUM}${SCALE}?\\s?(?:${CODES})(?![A-Za-z])`, 'g'),
  // Currency words: 100 dollars, 5 euros, 3 million yen
  new RegExp(`${START}${NUM}${SCALE}?\\s(?:${WORDS})(?![A-Za-z])`, 'gi'),
  // Japanese units, Arabic digits with 万/億/兆/千 steps: 12,000円, 1.5万円, 3億5000万円, 30ドル, 100元
  // (every step but the last ends in its unit, so nothing backtracks exponentially over long digit runs)
  new RegExp(`${START}(?=${D})(?:${NUM}[兆億万千])*${NUM}?(?:円|ドル|ユーロ|ポンド|ウォン|元)`, 'g'),
  // Kanji numerals: 五千円, 三万円, 百円 (not 何千円 or 数万円, which name no amount)
  new RegExp('(?<![何数幾])[〇一二三四五六七八九十百千][〇一二三四五六七八九十百千万億兆]*円', 'g'),
];

export function moneyCandidates(text: string): Candidate[] {
  return MONEY.flatMap((re) => regexCandidates(re, text, 'MONEY', 2));
}
