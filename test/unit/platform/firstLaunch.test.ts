// The walkthrough opens once per installation (src/platform/firstLaunch.ts), whatever the number of windows:
// the flag is the extension's globalState, shared by every window, here a Map-backed store with its contract.
import assert from 'node:assert/strict';
import { openOnce, WALKTHROUGH_SHOWN_KEY, type FlagStore } from '../../../src/platform/firstLaunch';

/** globalState as every window of a profile sees it: one store; update() resolves once written. */
class SharedState implements FlagStore {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

describe('First launch: the walkthrough opens once (src/platform/firstLaunch.ts)', () => {
  it('opens on the first activation after the install, then never again, not in a second window', async () => {
    const state = new SharedState();
    const opened: string[] = [];
    const open = (window: string) => async () => void opened.push(window);
    assert.equal(await openOnce(state, WALKTHROUGH_SHOWN_KEY, open('first window')), true);
    assert.equal(state.get(WALKTHROUGH_SHOWN_KEY), true);
    assert.equal(await openOnce(state, WALKTHROUGH_SHOWN_KEY, open('second window')), false);
    assert.equal(await openOnce(state, WALKTHROUGH_SHOWN_KEY, open('first window, reloaded')), false);
    assert.deepEqual(opened, ['first window']);
  });

  it('writes the flag before opening: a second window starting meanwhile does not open it too', async () => {
    const state = new SharedState();
    let second: Promise<boolean> | undefined;
    const first = openOnce(state, WALKTHROUGH_SHOWN_KEY, async () => {
      second = openOnce(state, WALKTHROUGH_SHOWN_KEY, () => assert.fail('opened twice'));
    });
    assert.equal(await first, true);
    assert.equal(await second, false);
  });

  it('a failing open is not retried in later windows (the flag stays written), and the failure reaches the caller', async () => {
    const state = new SharedState();
    await assert.rejects(
      openOnce(state, WALKTHROUGH_SHOWN_KEY, () => Promise.reject(new Error('no walkthrough service'))),
      /no walkthrough service/,
    );
    assert.equal(await openOnce(state, WALKTHROUGH_SHOWN_KEY, () => assert.fail('retried')), false);
  });
});
