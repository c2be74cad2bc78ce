// The Test Explorer's "Connection: <name>" profiles follow the connection list (src/features/knowledgeTests/profilePlan.ts).
import assert from 'node:assert/strict';
import { planProfiles } from '../../../src/features/knowledgeTests/profilePlan';

describe('Knowledge tests in VS Code: a run profile per connection', () => {
  it('adds a profile for a new connection, relabels a renamed one, removes a removed one, leaves the rest', () => {
    const current = new Map([
      ['local', 'Connection: Local'],
      ['c-1', 'Connection: Second'],
      ['c-2', 'Connection: Gone'],
    ]);
    const plan = planProfiles(current, [
      { id: 'local', label: 'Connection: Local' },
      { id: 'c-1', label: 'Connection: Second project' },
      { id: 'c-3', label: 'Connection: Third' },
    ]);
    assert.deepEqual(plan, {
      add: [{ id: 'c-3', label: 'Connection: Third' }],
      relabel: [{ id: 'c-1', label: 'Connection: Second project' }],
      remove: ['c-2'],
    });
  });

  it('changes nothing when the list is the same (a switch of the active connection fires the same event)', () => {
    const wanted = [{ id: 'local', label: 'Connection: Local' }];
    assert.deepEqual(planProfiles(new Map([['local', 'Connection: Local']]), wanted), { add: [], relabel: [], remove: [] });
    assert.deepEqual(planProfiles(new Map(), wanted).add, wanted, 'the first sync adds every connection');
  });
});
