// The walkthrough's first step speaks of connections (issue 27 replaced regions with named connections): its buttons
// run Add Connection and Switch Connection, and neither its text nor its page names regions, in English and Japanese.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const json = (file: string): Record<string, string> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;

describe('Walkthrough: the first step is about connections', () => {
  for (const [nls, region] of [
    ['package.nls.json', /region/i],
    ['package.nls.ja.json', /リージョン/],
  ] as const) {
    it(`${nls}: buttons Add Connection and Switch Connection, no Select Region`, () => {
      const strings = json(nls);
      const description = strings['walkthroughs.gettingStarted.connect.description'];
      const commands = [...description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
      assert.deepEqual(commands, ['knowledgeDesk.addConnection', 'knowledgeDesk.switchConnection']);
      // The buttons read as the commands are titled in the palette.
      assert.ok(description.includes(`[${strings['commands.addConnection.title']}](`), description);
      assert.ok(description.includes(`[${strings['commands.switchConnection.title']}](`), description);
      assert.doesNotMatch(description, region);
      const page = readFileSync(strings['walkthroughs.gettingStarted.connect.markdown'], 'utf8');
      assert.doesNotMatch(page, region, `${strings['walkthroughs.gettingStarted.connect.markdown']} names regions`);
    });
  }
});
