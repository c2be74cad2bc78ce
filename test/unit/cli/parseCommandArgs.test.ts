import assert from 'node:assert/strict';
import { parseCommandArgs } from '../../../src/cli/connect';
import { ConfigError } from '../../../src/mcp/mcpConfig';

// Every command that connects reads its arguments through this one place (qna, sync, test).
describe('CLI: a command reads its own options beside the connection options', () => {
  it('takes positionals, its own options and the shared ones; an unknown option is a usage error', () => {
    const { values, positionals } = parseCommandArgs(['plan', 'qa.csv', '--json', '--region', 'us', '--concurrency', '3'], {
      json: { type: 'boolean' },
    });
    assert.deepEqual(positionals, ['plan', 'qa.csv']);
    assert.equal(values.json, true);
    assert.equal(values.region, 'us');
    assert.equal(values.concurrency, '3');
    assert.equal(parseCommandArgs(['-h'], {}).values.help, true);
    assert.throws(() => parseCommandArgs(['--remove'], { json: { type: 'boolean' } }), ConfigError);
  });
});
