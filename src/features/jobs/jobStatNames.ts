// The service reports a job's stats and progress as free-form objects (docs/api.md#answer-generation-jobs-rare):
// "chunks: 1658, documents: 9", "step: collecting chunks". The names this extension knows (the local service's,
// and those the hosted service is seen to send) are shown in the display language; any other name is shown as
// the service sent it, since it may mean anything.
import * as l10n from '@vscode/l10n';
import type { JOB_STATES } from '../../api/schemas/jobs';

/** A count in the Jobs view's descriptions: "1,658 chunks", one text for one and one for more. */
const COUNTS: Record<string, (n: string, one: boolean) => string> = {
  chunks: (n, one) => (one ? l10n.t('{0} chunk', n) : l10n.t('{0} chunks', n)),
  documents: (n, one) => (one ? l10n.t('{0} document', n) : l10n.t('{0} documents', n)),
  pairs: (n, one) => (one ? l10n.t('{0} related pair', n) : l10n.t('{0} related pairs', n)),
  samples: (n, one) => (one ? l10n.t('{0} sample', n) : l10n.t('{0} samples', n)),
  questions: (n, one) => (one ? l10n.t('{0} question', n) : l10n.t('{0} questions', n)),
};

/** `n` (already formatted) of the stat `key`: "1,658 chunks"; an unknown key as "1,658 key name". */
export function statCountText(key: string, n: string, value: number): string {
  const text = COUNTS[key.toLowerCase()];
  return text ? text(n, value === 1) : `${n} ${key.replace(/_/g, ' ')}`;
}

/** Names of stats, progress fields and run details in a job's tooltip ("duration ms: 1,234"). */
const FIELD_NAMES: Record<string, () => string> = {
  chunks: () => l10n.t('chunks'),
  documents: () => l10n.t('documents'),
  pairs: () => l10n.t('related pairs'),
  samples: () => l10n.t('samples'),
  questions: () => l10n.t('questions'),
  duration_ms: () => l10n.t('duration (ms)'),
  generator: () => l10n.t('generator'),
  done: () => l10n.t('done'),
  total: () => l10n.t('total'),
  percent: () => l10n.t('percent'),
  step: () => l10n.t('step'),
  run: () => l10n.t('run'),
  folders: () => l10n.t('folders'),
  model: () => l10n.t('model'),
};

/** The tooltip name of a field: known names translated, others with "_" as spaces. */
export function fieldName(key: string): string {
  return FIELD_NAMES[key.toLowerCase()]?.() ?? key.replace(/_/g, ' ');
}

/** Steps the local service reports (src/local/jobs/rareJobs.ts) that are not also job states. */
const STEPS: Record<string, () => string> = {
  'collecting chunks': () => l10n.t('collecting chunks'),
  saving: () => l10n.t('saving'),
  'reading the build': () => l10n.t('reading the build'),
  interrupted: () => l10n.t('interrupted'),
};
/** Steps named after a job state: the state's own label. */
const STATE_STEPS: ReadonlySet<string> = new Set(['queued', 'completed', 'cancelled', 'failed']);

/** A progress step in the display language when it is one the extension knows; other services' steps are shown as sent. */
export function stepText(step: string): string {
  const key = step.trim().toLowerCase();
  return STEPS[key]?.() ?? (STATE_STEPS.has(key) ? jobStateLabel(key) : step);
}

/**
 * A job state in the display language. The service's states stay the values the code compares; an
 * undocumented one is shown as the service spelt it.
 */
export function jobStateLabel(state: string): string {
  return Object.hasOwn(JOB_STATE_LABEL, state) ? JOB_STATE_LABEL[state as keyof typeof JOB_STATE_LABEL]() : state;
}

// Typed by the documented states: a state added to JOB_STATES does not compile until it has its label.
// Functions: the text is looked up in the display language when shown, not when this module loads.
const JOB_STATE_LABEL: Record<(typeof JOB_STATES)[number] | 'unknown', () => string> = {
  idle: () => l10n.t('idle'),
  queued: () => l10n.t('queued'),
  running: () => l10n.t('running'),
  completed: () => l10n.t('completed'),
  failed: () => l10n.t('failed'),
  cancelled: () => l10n.t('cancelled'),
  unknown: () => l10n.t('unknown'),
};
