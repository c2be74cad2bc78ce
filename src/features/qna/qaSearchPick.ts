import * as vscode from 'vscode';
import type { FaqSearchItem } from '../../api/schemas/faq';
import type { CommandServices, SettingsSource } from '../../platform/commandServices';
import { SettingKeys } from '../../platform/settings';
import { formatNumber } from '../../platform/l10n';
import { feedbackText } from './qnaTreeProvider';

interface ResultItem extends vscode.QuickPickItem {
  result?: FaqSearchItem;
}

export interface SearchPickState {
  quickPick: vscode.QuickPick<ResultItem>;
  /** Resolves when the search for the current text has been shown (tests). */
  settled(): Promise<void>;
  lastHashId?: string;
  requests: number;
  cancelled: number;
}

const DEBOUNCE_MS = 250;

/**
 * Search Q&A as an end user would: searches as you type (debounced; a new keystroke cancels the
 * request in flight), showing confidence and effective confidence. Searches made here do not
 * register candidates unless knowledgeDesk.qna.autoRegisterCandidates says so.
 */
export function showQaSearch(c: CommandServices & SettingsSource, open: (id: string) => unknown): SearchPickState {
  const qp = vscode.window.createQuickPick<ResultItem>();
  qp.title = vscode.l10n.t('Search Q&A');
  qp.placeholder = vscode.l10n.t('Ask a question as a user would, e.g. "{0}"', vscode.l10n.t('How do I reset my VPN password?'));
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: AbortController | undefined;
  let settling: Promise<void> = Promise.resolve();
  const state: SearchPickState = { quickPick: qp, settled: () => settling, requests: 0, cancelled: 0 };

  const run = async (query: string): Promise<void> => {
    if (inFlight) {
      inFlight.abort();
      state.cancelled++;
    }
    if (!query.trim()) {
      qp.items = [];
      qp.busy = false;
      return;
    }
    const controller = (inFlight = new AbortController());
    qp.busy = true;
    try {
      const client = await c.connection.getClient();
      state.requests++;
      const res = await client.faq.search(
        {
          query,
          maxResults: 20,
          format: 'text',
          autoRegisterCandidates: c.settings.get<boolean>(SettingKeys.qnaAutoRegisterCandidates, false),
        },
        { signal: controller.signal },
      );
      if (controller.signal.aborted) return;
      state.lastHashId = res.hashId;
      qp.items = res.result.length
        ? res.result.map((r) => ({
            label: r.question,
            // Service ranking is kept: VS Code's own fuzzy filter would hide paraphrased matches.
            alwaysShow: true,
            description: [
              vscode.l10n.t('confidence {0} · effective {1}', confidence(r.confidence), confidence(r.effectiveConfidence)),
              feedbackText(r),
            ]
              .filter(Boolean)
              .join(' · '),
            detail: r.answer.replace(/\s+/g, ' ').slice(0, 200),
            result: r,
          }))
        : [
            {
              label: `$(info) ${vscode.l10n.t('No Q&A matches')}`,
              description: vscode.l10n.t('Try other words, or add this as a candidate from the Candidates view'),
              alwaysShow: true,
            },
          ];
    } catch (error) {
      if (controller.signal.aborted) return;
      qp.items = [
        {
          label: `$(error) ${vscode.l10n.t('Search failed')}`,
          detail: error instanceof Error ? error.message : String(error),
          alwaysShow: true,
        },
      ];
    } finally {
      if (inFlight === controller) {
        inFlight = undefined;
        qp.busy = false;
      }
    }
  };

  qp.onDidChangeValue((value) => {
    clearTimeout(timer);
    settling = new Promise((resolve) => {
      timer = setTimeout(() => void run(value).finally(resolve), DEBOUNCE_MS);
    });
  });
  qp.onDidAccept(async () => {
    const picked = qp.selectedItems[0]?.result;
    if (!picked) return;
    qp.hide();
    if (state.lastHashId && c.settings.get<boolean>(SettingKeys.qnaRecordSelections, false)) {
      const client = await c.connection.getClient();
      await client.faq.selectAnswer({ hashId: state.lastHashId, id: picked.id }).catch((e) => c.log('qna').warn(`select answer: ${e}`));
    }
    await open(picked.id);
  });
  qp.onDidHide(() => {
    clearTimeout(timer);
    inFlight?.abort();
    qp.dispose();
  });
  qp.show();
  return state;
}

/** 0.87 as "0.87" (two decimals, in the display language). */
function confidence(value: number): string {
  return formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
