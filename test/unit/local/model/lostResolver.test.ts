// How the crash model test judges an operation whose answer was lost (issue 11, seed 1341823777): a status-only
// update may or may not have happened, and only the Q&A's status tells. The request goes to a closed port, so
// it is lost before any service could apply it; the restarted service (the probe) still shows the old status.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ApiClient } from '../../../../src/api/client';
import { KbModel } from './kbModel';
import { lostStats, randomOperation, type ClientCtx, type Probe } from './modelOps';
import { SeqAgent } from './seqAgent';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A client whose next operation is an update of Q&A `q1` with the given choices (see randomOperation). */
async function lostUpdate(choices: { answer: boolean; status?: 'on' | 'off' }): Promise<ReturnType<typeof randomOperation>> {
  // roll (update), Q&A pick, question? (no), answer?, hashtags? (no), status?, on/off
  const script = [0.7, 0, 0.9, choices.answer ? 0.1 : 0.9, 0.9, choices.status ? 0.1 : 0.9, choices.status === 'off' ? 0.9 : 0.1];
  const agent = new SeqAgent();
  const c: ClientCtx = {
    api: new ApiClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      apiKey: 'k',
      dispatcher: agent.dispatcher,
      retry: { maxRetries: 0 },
    }),
    agent,
    voter: 'agent:a@example.com',
    random: () => script.shift() ?? 0.5,
    pools: {
      folders: [],
      files: Array.from({ length: 4 }, (_, i) => ({ id: `d${i}`, parentId: 'home', name: 'a.txt', content: '' })),
      faqs: ['q1'],
    },
    token: () => 'zzfresh',
    home: 'home',
  };
  try {
    return await randomOperation(c);
  } finally {
    await agent.close();
  }
}

function modelWith(status: 'on' | 'off'): KbModel {
  const model = new KbModel();
  model.faqs.set('q1', { id: 'q1', question: 'q', answer: 'old', hashtags: [], status, votes: new Map() });
  return model;
}

function probeOf(faq: { answer: string; status: 'on' | 'off' }): Probe {
  return {
    nodes: new Map(),
    faqs: new Map([['q1', { question: 'q', hashtags: [], ...faq }]]),
    votes: () => false,
    holder: async () => undefined,
  };
}

describe('Model test: judging an update whose answer was lost', () => {
  it('a status-only update the service never applied stays out of the model (the on/off filter would miss it)', async () => {
    const o = await lostUpdate({ answer: false, status: 'on' });
    assert.equal(o.kind, 'update');
    assert.equal(o.result, 'lost');
    const before = lostStats.statusChangesNotApplied;
    const apply = await o.lost!(probeOf({ answer: 'old', status: 'off' }), modelWith('off'));
    assert.equal(apply, undefined, 'the Q&A is still off: the update did not happen');
    assert.equal(lostStats.statusChangesNotApplied, before + 1);
  });

  it('a status-only update the service applied goes into the model', async () => {
    const o = await lostUpdate({ answer: false, status: 'on' });
    const model = modelWith('off');
    const apply = await o.lost!(probeOf({ answer: 'old', status: 'on' }), model);
    assert.ok(apply, 'the Q&A is on: the update happened');
    apply(model);
    assert.equal(model.faqs.get('q1')!.status, 'on');
  });

  it('an update seen with its new answer but its old status is half-applied and fails the test', async () => {
    const o = await lostUpdate({ answer: true, status: 'off' });
    await assert.rejects(
      () => o.lost!(probeOf({ answer: 'answer zzfresh', status: 'on' }), modelWith('on')),
      /half-applied: answer changed, status did not/,
    );
  });

  it('an update that would change nothing is not applied whatever the probe shows', async () => {
    const o = await lostUpdate({ answer: false, status: 'on' });
    assert.equal(await o.lost!(probeOf({ answer: 'old', status: 'on' }), modelWith('on')), undefined);
  });
});
