import { readFileSync } from 'node:fs';

/** package.json as VS Code shows it in English: every %key% replaced by its text from package.nls.json. */
export function readManifest(): any {
  const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const key = /^%([^%\s]+)%$/.exec(value)?.[1];
      return key !== undefined && key in nls ? nls[key] : value;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  return resolve(JSON.parse(readFileSync('package.json', 'utf8')));
}
