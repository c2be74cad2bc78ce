// Concurrent model test of the local service (issue 11): several clients issue a seeded random mix of
// knowledge-base and Q&A operations over loopback while documents are processed; the final state must equal
// what the sequential model computes from the acknowledged operations in commit order (the service, started
// with its exposeCommitSeq test option, tells each response's commit sequence number).
// Replay a failure with KD_MODEL_SEED=<seed>; run more seeds with KD_MODEL_SEEDS=20; KD_MODEL_OPS sets the size.
import { startTestService } from '../../support/localService';
import { KbModel } from './kbModel';
import { prng, randomOperation, type Acked, type ClientCtx, type Pools } from './modelOps';
import { identityOf, MODEL_CLIENTS, MODEL_OPS, modelSeeds, replay, tokenFactory } from './modelSupport';
import { SeqAgent } from './seqAgent';
import { verifyAgainstModel } from './verify';

describe('Local service: concurrent model test', function () {
  this.timeout(300_000);

  for (const seed of modelSeeds()) {
    it(`${MODEL_OPS} operations from ${MODEL_CLIENTS} clients end in the state the model computes (seed ${seed})`, async () => {
      console.log(`      model seed=${seed} (KD_MODEL_SEED to replay)`);
      const started = Date.now();
      const svc = await startTestService({ exposeCommitSeq: true, fsync: process.env.KD_MODEL_FSYNC !== '0' });
      const agents: SeqAgent[] = [];
      try {
        const pools: Pools = { folders: [], files: [], faqs: [] };
        const token = tokenFactory('zq');
        const clients: ClientCtx[] = Array.from({ length: MODEL_CLIENTS }, (_, i) => {
          const agent = new SeqAgent();
          agents.push(agent);
          const { identity, voter } = identityOf(i);
          return {
            api: svc.client({ identity, dispatcher: agent.dispatcher, retry: { maxRetries: 0 } }),
            agent,
            voter,
            random: prng(seed * 31 + i),
            pools,
            token,
          };
        });
        const acked: Acked[] = [];
        const tally: Record<string, number> = {};
        let issued = 0;
        await Promise.all(
          clients.map(async (c) => {
            while (issued < MODEL_OPS) {
              issued++;
              const o = await randomOperation(c);
              tally[`${o.kind}:${o.result}`] = (tally[`${o.kind}:${o.result}`] ?? 0) + 1;
              if (o.result === 'lost') throw new Error(`${o.kind}: no answer from the service`);
              if (o.acked) acked.push(o.acked);
            }
          }),
        );
        const opsMs = Date.now() - started;
        await svc.service.processingIdle();
        const context = `seed=${seed}`;
        const model = new KbModel();
        replay(acked, model, context);
        await verifyAgainstModel(clients[0].api, model, await svc.admin('GET', '/_local/info'), context);
        console.log(
          `      ${issued} ops (${acked.length} committed), ${MODEL_CLIENTS} clients, ops ${opsMs} ms, total ${Date.now() - started} ms; ` +
            `${model.nodes.size} nodes, ${model.faqs.size} Q&As\n      ${Object.entries(tally)
              .sort()
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`,
        );
      } finally {
        await svc.stop();
        await Promise.all(agents.map((a) => a.close()));
      }
    });
  }
});
