// The history in words: a test item's description and tooltip, a file's pass rate, and the "Show History"
// report. Pure (no vscode; @vscode/l10n), unit-tested in Node; times are formatted by the caller.
import * as l10n from '@vscode/l10n';
import { fileOf, filesInHistory, passRate, type HistoryState, type Status } from './testHistory';

export type TimeText = (ms: number) => string;

const statusWord = (s: Status): string => (s === 'passed' ? l10n.t('passed') : s === 'failed' ? l10n.t('failed') : l10n.t('errored'));

/** A test item's description: its last outcome, and since when it fails when it flipped from passing. */
export function testDescription(state: HistoryState, id: string, time: TimeText): string | undefined {
  const last = state.last[id];
  if (!last) return undefined;
  const flip = state.flips[id];
  if (last.status !== 'passed' && flip) return l10n.t('failing since run {0} ({1})', flip.seq, time(flip.time));
  return l10n.t('{0} in run {1}', statusWord(last.status), last.seq);
}

/** A file item's description: the pass rate over the kept runs. */
export function fileDescription(state: HistoryState, fileId: string): string | undefined {
  const rate = passRate(state, fileId);
  if (!rate.total) return undefined;
  return l10n.t('{0}% passed over {1} runs', Math.round((100 * rate.passed) / rate.total), rate.runs);
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** The "Show History" report: per file the pass rate, per test its last outcome and last pass → fail flip. */
export function historyMarkdown(state: HistoryState, time: TimeText): string {
  const out: string[] = [`# ${l10n.t('Knowledge test history')}`, ''];
  if (!state.runs.length) {
    out.push(l10n.t('No knowledge tests have run in this workspace yet.'));
    return out.join('\n');
  }
  const first = state.runs[0];
  const latest = state.runs[state.runs.length - 1];
  out.push(
    l10n.t(
      'The last {0} runs: run {1} ({2}) to run {3} ({4}).',
      state.runs.length,
      first.seq,
      time(first.time),
      latest.seq,
      time(latest.time),
    ),
    '',
  );
  for (const file of filesInHistory(state)) {
    const rate = passRate(state, file);
    out.push(`## ${file}`, '');
    if (rate.total) {
      out.push(
        l10n.t(
          'Pass rate: {0}% ({1} of {2} results over {3} runs)',
          Math.round((100 * rate.passed) / rate.total),
          rate.passed,
          rate.total,
          rate.runs,
        ),
        '',
      );
    }
    out.push(`| ${l10n.t('Test')} | ${l10n.t('Last outcome')} | ${l10n.t('Last pass → fail')} |`, '|---|---|---|');
    for (const [id, last] of Object.entries(state.last)
      .filter(([id]) => fileOf(id) === file)
      .sort(([a], [b]) => a.localeCompare(b))) {
      const flip = state.flips[id];
      const name = id.slice(file.length + 2);
      const outcome = `${statusWord(last.status)}, ${l10n.t('run {0}', last.seq)} (${time(last.time)})`;
      const flipped = flip ? `${l10n.t('run {0}', flip.seq)} (${time(flip.time)})` : '—';
      out.push(`| ${cell(name)} | ${cell(outcome)} | ${cell(flipped)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
