// PERSON and ORGANIZATION from their context (tier 1, rank 3: they beat the built-in list on the same span,
// so 千葉さん is a person although 千葉 is a prefecture):
// - a title before a name: Mr./Mrs./Ms./Miss/Mx./Dr./Prof./Sir/Dame + one to three capitalised words;
//   the entity is the name without the title;
// - a Japanese honorific after a name: 〜さん, 〜様, 〜さま, 〜氏, 〜先生, 〜くん, 〜君, 〜ちゃん, 〜殿 after two to
//   eight kanji or katakana (お客様, 皆さん, ご担当者様, ユーザー様 and other roles are not names);
//   the entity is the name without the honorific;
// - a company form: Acme Corp., Example Widgets, Inc., Tokyo Electric Power Co., Ltd., Foo GmbH;
//   株式会社ソニー, トヨタ自動車株式会社, (株)ABC, 有限会社…, 一般社団法人…; the entity includes the form.
import { regexCandidates, type Candidate } from './entity';

// Smith, McDonald, MacArthur, O'Brien, Smith-Jones (one way to read each, so nothing backtracks badly).
const NAME_WORD = "(?:Mc|Mac|O['’])?[A-Z][a-z]+(?:-[A-Z][a-z]+)?";
const TITLED = new RegExp(
  `\\b(?:Mrs|Mr|Ms|Miss|Mx|Dr|Prof|Sir|Dame)\\.?\\s+(${NAME_WORD}(?:\\s+[A-Z]\\.)?(?:\\s+${NAME_WORD}){0,2})`,
  'gd',
);

const NAME_RUN = '[\\p{Script=Han}\\p{Script=Katakana}ー々・]{2,8}';
const HONORIFIC = new RegExp(`(${NAME_RUN})(?:さん|さま|様|氏|先生|くん|君|ちゃん|殿)`, 'gdu');
// Runs that are roles or groups, not names: ご担当者様, 会員様, 部長さん, 取引先様, 学生さん, ユーザー様…
const ROLE_END = /[者員長部課係室班先方家客社店様官士師生]$/u;
const NOT_NAMES = new Set([
  '各位',
  'ユーザー',
  'メンバー',
  'オーナー',
  'ゲスト',
  'スタッフ',
  'パートナー',
  'クライアント',
  'カスタマー',
  'ドライバー',
  'ママ',
  'パパ',
]);

// English company forms after one or more capitalised words (joined by &: Procter & Gamble Co.). Not by
// "of" or "and", which more often join a person to a company ("Dr. Jane Smith of Acme Inc.") than
// belong to the name ("Bank of America Corp." is found as America Corp.: teach such names).
const CAP = "[A-Z0-9][A-Za-z0-9&'’.-]*";
const COMPANY_EN = new RegExp(
  `\\b${CAP}(?:\\s+(?:${CAP}|&))*?,?\\s+(?:Co\\.,?\\s+Ltd\\.?|Inc\\.?|Incorporated|Corp\\.?|Corporation|Co\\.|Ltd\\.?|Limited|LLC|L\\.L\\.C\\.|LLP|PLC|plc|GmbH|AG|K\\.K\\.|Holdings)(?![A-Za-z])`,
  'g',
);
// Capitalised words that start a sentence rather than a name: dropped from the front of a company match.
const LEADING_NOISE =
  /^(?:(?:(?:Mrs|Mr|Ms|Dr|Prof)\.?|The|A|An|At|By|For|From|In|On|To|With|We|Our|Your|Their|This|That|Yesterday|Today|Tomorrow|Contact|Call|Ask|Email|Dear|And|But|Also)\s+)+/;

const JA_FORMS =
  '株式会社|有限会社|合同会社|合資会社|合名会社|一般社団法人|一般財団法人|公益社団法人|公益財団法人|学校法人|医療法人|社会福祉法人|特定非営利活動法人|NPO法人';
const BRACKET_KK = '(?:[（(]株[）)]|㈱|[（(]有[）)]|㈲)';
// Found by its form first, then the name is read after (株式会社ソニー) or before (トヨタ自動車株式会社) it:
// one expression trying a name at every position of a Japanese text was 20 times slower.
const JA_FORM = new RegExp(`(?:${JA_FORMS})|${BRACKET_KK}`, 'g');
const JA_NAME_CHAR = /[\p{Script=Han}\p{Script=Katakana}ー々・A-Za-z0-9Ａ-Ｚａ-ｚ０-９&＆]/u;
const JA_NAME_AFTER = /^\s?[\p{Script=Han}\p{Script=Katakana}ー々・A-Za-z0-9Ａ-Ｚａ-ｚ０-９&＆]{1,20}/u;
const JA_NAME_MAX = 20;

export function personCandidates(text: string): Candidate[] {
  return [
    ...regexCandidates(TITLED, text, 'PERSON', 1, 3, 1),
    ...regexCandidates(HONORIFIC, text, 'PERSON', 1, 3, 1, (m) => !ROLE_END.test(m[1]) && !NOT_NAMES.has(m[1])),
  ];
}

export function organizationCandidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  const org = (start: number, end: number): number => out.push({ start, end, tag: 'ORGANIZATION', tier: 1, rank: 3 });
  JA_FORM.lastIndex = 0;
  for (let m = JA_FORM.exec(text); m; m = JA_FORM.exec(text)) {
    const [start, end] = [m.index, m.index + m[0].length];
    const after = JA_NAME_AFTER.exec(text.slice(end, end + JA_NAME_MAX + 1));
    if (after) org(start, end + after[0].length);
    let before = start;
    while (before > 0 && start - before < JA_NAME_MAX && JA_NAME_CHAR.test(text[before - 1])) before--;
    if (before < start) org(before, end);
  }
  COMPANY_EN.lastIndex = 0;
  for (let m = COMPANY_EN.exec(text); m; m = COMPANY_EN.exec(text)) {
    const noise = LEADING_NOISE.exec(m[0])?.[0].length ?? 0;
    const name = m[0].slice(noise);
    // At least one word of name before the form.
    if (!/^\S+,?\s+\S/.test(name)) continue;
    out.push({ start: m.index + noise, end: m.index + m[0].length, tag: 'ORGANIZATION', tier: 1, rank: 3 });
  }
  return out;
}
