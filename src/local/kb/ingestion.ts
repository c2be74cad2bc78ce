// `GET /webapi/v2/ingestion_status/{id}` of the local service (docs/api.md#processing-steps): the processing
// of a document as three steps, from what its record holds. Times are epoch ms, `elapsed` seconds (so far,
// while it runs). Step status: `pending`, `running`, `completed`, `failed`.
import type { NodeRecord } from './nodeRecord';

type StepStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface IngestionStep {
  name: 'upload' | 'parsing' | 'indexing';
  subLabel: string;
  startedAt: number | null;
  endedAt: number | null;
  status: StepStatus;
}

export function ingestionStatus(node: NodeRecord, now: number) {
  const state = node.processState ?? 'initializing';
  const queued = node.ingestQueuedAt ?? node.createdAt;
  const started = node.ingestStartedAt ?? null;
  const ended = state === 'completed' || state === 'parsing_fail' ? (node.ingestEndedAt ?? null) : null;
  const failed = state === 'parsing_fail' || state === 'post_parsing_fail';
  const parsing: StepStatus = failed ? 'failed' : state === 'completed' ? 'completed' : state === 'parsing' ? 'running' : 'pending';
  const steps: IngestionStep[] = [
    { name: 'upload', subLabel: 'File received', startedAt: queued, endedAt: queued, status: 'completed' },
    { name: 'parsing', subLabel: 'Text extraction', startedAt: started, endedAt: ended, status: parsing },
    {
      name: 'indexing',
      subLabel: 'Retrieval index (local-lexical)',
      startedAt: state === 'completed' ? ended : null,
      endedAt: state === 'completed' ? ended : null,
      status: state === 'completed' ? 'completed' : failed ? 'failed' : 'pending',
    },
  ];
  return {
    status: state,
    startedAt: queued,
    endedAt: ended,
    elapsed: Math.max(0, ((ended ?? now) - queued) / 1000),
    steps,
  };
}
