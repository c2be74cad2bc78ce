import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

/**
 * undici, loaded on the first request rather than at activation: its module initialisation is most of
 * what loading the extension used to cost. In the extension bundle it is its own file (dist/undici.js,
 * see esbuild.mjs); everywhere else this is a plain require.
 */
export function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at activation
  return (loaded ??= require('undici') as typeof Undici);
}
