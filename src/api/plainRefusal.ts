// What a person reads when input was refused as not valid, whoever checked it: the service (a 400 whose text
// may be a schema library's, like the local service's zod "String must contain at most 2000 character(s)" or
// FastAPI's "String should have at most 2000 characters"), or a check of our own. Such wording says nothing
// to a person and offers no next step, so it is replaced by plain, translated words; the service's own
// sentences for people pass unchanged. Used by errorMessages.ts (commands, panels, the chat) and by
// src/ai/toolErrors.ts (the @knowledge participant and the tools).
import * as l10n from '@vscode/l10n';

/** The default messages of zod and pydantic (v1 and v2), and the dumps they come in. */
const SCHEMA_WORDING = new RegExp(
  [
    String.raw`\b(String|Number|Array|Set|BigInt|Date) must (contain|be|have)\b`,
    String.raw`\bcharacter\(s\)|\belement\(s\)`,
    String.raw`\bExpected [\w ,'|"]+, received\b`,
    String.raw`^Required$|: Required\b`,
    String.raw`\bInvalid (input|type|enum value|literal value|union|discriminator value|date|email|url|uuid|string|arguments)\b`,
    String.raw`\bUnrecognized key\(?s?\)? in object\b`,
    String.raw`\b(String|Input|Value) should (have|be)\b|\bensure this value\b|\bfield required\b|\bvalue is not a valid\b`,
    String.raw`"code":\s*"(too_big|too_small|invalid_type|invalid_string|custom)"`,
  ].join('|'),
  'i',
);

/** True when `message` is (or contains) a schema library's wording rather than a sentence for people. */
export function isSchemaWording(message: string): boolean {
  return SCHEMA_WORDING.test(message);
}

/** Fields that hold the question of an answer or a retrieval request. */
const QUESTION_FIELD = /^(query|question|body\.query|body\.question)$/;

/**
 * The text of a refusal, `message` without the operation name ("answers.generate failed (400): "). When
 * the message is schema wording: plain words naming what to change (the question's length, or the field).
 */
export function plainRefusal(message: string, field?: string): string {
  const text = message.replace(/^[\w.]+ failed( \(\d+\))?: /, '');
  if (!isSchemaWording(text)) return text;
  const named = field || /^([\w.[\]]+): /.exec(text)?.[1];
  const max = /\bat most (\d[\d,]*)|\bmax(?:imum)?[ _]length[^\d]{0,20}(\d[\d,]*)/i.exec(text);
  const limit = max ? Number((max[1] ?? max[2]).replace(/,/g, '')).toLocaleString('en-US') : undefined;
  if (named && QUESTION_FIELD.test(named))
    return limit
      ? // {0}: the most characters a question may have.
        l10n.t('The question is too long: at most {0} characters can be sent. Shorten it, then send it again.', limit)
      : l10n.t('The service could not take this question. Reword it, then send it again.');
  if (named && limit)
    // {0}: the name of the field, {1}: the most characters it may have.
    return l10n.t('The service refused the request: {0} is too long (at most {1} characters). Shorten it and try again.', named, limit);
  if (named)
    // {0}: the name of the field.
    return l10n.t('The service refused the request: the value of {0} is not valid. Check it and try again.', named);
  return l10n.t('The service refused the request as not valid. Check what was entered and try again; Show Log has the details.');
}

/**
 * For an error of our own code whose message is schema wording (a ZodError escaping a check): a plain
 * sentence that says where the details are; other messages unchanged.
 */
export function plainInternal(message: string): string {
  if (!isSchemaWording(message)) return message;
  return l10n.t('Knowledge Desk met data of a shape it does not expect. Try again; Show Log has the details for a report.');
}
