// The entity recognizer's built-in tags: what the local service recognizes without teaching, and what
// Teach Phrase offers before any tag was taught (docs/api.md#entity-recognition).
export const BUILTIN_TAGS = ['PERSON', 'ORGANIZATION', 'LOCATION', 'DATE', 'EMAIL', 'PHONE', 'URL', 'MONEY'] as const;
