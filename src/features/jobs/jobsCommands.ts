import * as vscode from 'vscode';
import type { TaskAck, BulkRun, RareStatus } from '../../api/schemas/jobs';
import type { CommandServices } from '../../platform/commandServices';
import { formatDate, isActiveState, rareJobName, rareJobState, rareStatusBarPart } from './jobModel';
import { checkBulkCsv, displayCsv, escapeResultCsv, resultFileName } from './jobParams';
import { promptBuildParams, promptBulkType, promptGenerateParams } from './jobPrompts';
import type { Poller } from './jobPoller';
import type { JobsStore } from './jobsStore';
import { JOBS_VIEW, type JobsElement, type JobsTreeProvider, type ResultElement } from './jobsTree';
import type { ResultDocuments } from './resultDocuments';
import { loadMoreInView } from '../../platform/tree/pagingItems';

/** What the commands use of the feature (JobsFeature); declared here so the two files do not import each other. */
export interface JobsHost {
  readonly store: JobsStore;
  readonly tree: JobsTreeProvider;
  readonly view: vscode.TreeView<JobsElement>;
  readonly poller: Poller;
  readonly resultDocuments: ResultDocuments;
  render(): void;
  expectRare(job: 'build' | 'generate', current?: RareStatus): void;
  expectBulk(id: string): void;
}

/** The Jobs view's commands; the feature owns polling, the tree and notifications. */
export class JobsCommands {
  constructor(
    private readonly c: CommandServices,
    private readonly f: JobsHost,
  ) {}

  private progress<T>(title: string, task: () => Promise<T>): Thenable<T> {
    return vscode.window.withProgress({ location: { viewId: JOBS_VIEW }, title }, task);
  }

  /** The current status, fetched now (a job started elsewhere must not be missed). */
  private async freshStatus() {
    const client = await this.c.connection.getClient();
    const status = await this.f.store.fetchStatus(client);
    if (!status) throw new Error(this.f.store.rareError ?? vscode.l10n.t('Could not read the answer-generation status.'));
    return { client, status };
  }

  private refuseWhileRunning(status: Parameters<typeof rareJobState>[0]): void {
    const running = rareStatusBarPart(status, 'build') ?? rareStatusBarPart(status, 'generate');
    if (running)
      throw new Error(vscode.l10n.t('An answer-generation job is already running ({0}). Cancel it or wait until it finishes.', running));
  }

  async startBuild(): Promise<TaskAck | undefined> {
    const { client, status } = await this.freshStatus();
    this.refuseWhileRunning(status);
    const params = await promptBuildParams(this.c.ui, client);
    const ack = await this.progress(vscode.l10n.t('Starting the build'), () => client.rare.build(params));
    return this.started('build', params, ack, status);
  }

  /** The service refuses a generate before a completed build: its message is shown as it is. */
  async startGenerate(): Promise<TaskAck | undefined> {
    const { client, status } = await this.freshStatus();
    this.refuseWhileRunning(status);
    const built = status.build_status ? status.build_status === 'completed' : undefined;
    const params = await promptGenerateParams(this.c.ui, built);
    const ack = await this.progress(vscode.l10n.t('Starting generate'), () => client.rare.generate(params));
    return this.started('generate', params, ack, status);
  }

  /** Logs and announces a job the service accepted, then follows it. */
  private async started(job: 'build' | 'generate', params: object, ack: TaskAck, status: RareStatus): Promise<TaskAck> {
    this.c
      .log('jobs')
      .info(`${job} started: ${JSON.stringify(params)} → ${ack.message || 'ok'}${ack.task_id ? ` (task ${ack.task_id})` : ''}`);
    this.f.expectRare(job, status);
    vscode.window.setStatusBarMessage(
      job === 'build' ? vscode.l10n.t('Knowledge Desk: build started') : vscode.l10n.t('Knowledge Desk: generate started'),
      4000,
    );
    await this.f.poller.pollNow();
    return ack;
  }

  /** Asks the running job to stop; it stops between steps, so the state turns cancelled a little later. */
  async cancel(): Promise<TaskAck | undefined> {
    const { client, status } = await this.freshStatus();
    const job = (['build', 'generate'] as const).find((j) => isActiveState(rareJobState(status, j)));
    if (!job) {
      await this.f.poller.pollNow();
      throw new Error(vscode.l10n.t('No answer-generation job is running.'));
    }
    const ack = await this.progress(vscode.l10n.t('Cancelling the {0}', rareJobName(job)), () => client.rare.cancel());
    this.c.log('jobs').info(`cancel requested (${job}): ${ack.message || 'ok'}`);
    this.f.expectRare(job, status);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Knowledge Desk: cancelling the {0}…', rareJobName(job)), 4000);
    await this.f.poller.pollNow();
    return ack;
  }

  private target(element: JobsElement | undefined): ResultElement {
    const e = element ?? this.f.view.selection[0];
    if (e?.kind === 'rareResult' || e?.kind === 'bulkResult') return e;
    throw new Error(vscode.l10n.t('Choose a result in the Jobs view first.'));
  }

  /** The result CSV as the service sent it. */
  private async download(e: ResultElement): Promise<string> {
    const client = await this.c.connection.getClient();
    if (e.kind === 'rareResult')
      return this.progress(vscode.l10n.t('Downloading the result'), () => client.rare.csv(e.result.result_file_url ?? undefined));
    if (!e.result.file_url)
      throw new Error(vscode.l10n.t('This run has no result file yet ({0}).', e.result.status ?? vscode.l10n.t('unknown status')));
    const fileUrl = e.result.file_url;
    return this.progress(vscode.l10n.t('Downloading the result'), () => client.bulk.download(fileUrl));
  }

  /**
   * Opens the result CSV read-only, unchanged: it is text in an editor, where an `=cell` does
   * nothing. Save Result As… writes the CSV-injection-escaped version for spreadsheets.
   */
  async openResult(element?: JobsElement): Promise<vscode.TextDocument> {
    const e = this.target(element);
    const text = displayCsv(await this.download(e));
    const kind = e.kind === 'rareResult' ? 'rare' : 'bulk';
    return this.f.resultDocuments.open(kind, e.result.id, fileNameOf(e), text);
  }

  /** Writes the result CSV with cells starting with =, +, -, @, tab or CR escaped, and a BOM for Excel. */
  async saveResult(element?: JobsElement, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const e = this.target(element);
    const name = fileNameOf(e);
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Save Result As (spreadsheet-safe CSV)'),
        defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(process.cwd()), name),
        filters: { CSV: ['csv'] },
      }));
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(escapeResultCsv(await this.download(e)), 'utf8'));
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Saved {0}.', uri.path.split('/').pop() ?? ''), vscode.l10n.t('Open'))
      .then((c) => (c ? vscode.window.showTextDocument(uri) : undefined));
    return uri;
  }

  async deleteResult(element?: JobsElement): Promise<boolean> {
    const e = this.target(element);
    const question =
      e.kind === 'rareResult'
        ? vscode.l10n.t('Delete the answer-generation result of {0}? Its CSV is deleted on the service.', formatDate(e.result.created_at))
        : vscode.l10n.t('Delete the bulk processing result of {0}? Its CSV is deleted on the service.', formatDate(e.result.created_at));
    const deleteLabel = vscode.l10n.t('Delete');
    const choice = await this.c.ui.showWarningMessage(question, { modal: true }, deleteLabel);
    if (choice !== deleteLabel) return false;
    const client = await this.c.connection.getClient();
    await this.progress(vscode.l10n.t('Deleting'), () =>
      e.kind === 'rareResult' ? client.rare.deleteResult(e.result.id) : client.bulk.deleteResult(e.result.id),
    );
    await this.f.poller.pollNow();
    return true;
  }

  /** From the Explorer (a .csv), the view title, or the palette (an open dialog). */
  async runBulk(clicked?: unknown, selected?: unknown): Promise<BulkRun | undefined> {
    const picked = Array.isArray(selected) && selected.length ? selected : clicked instanceof vscode.Uri ? [clicked] : [];
    if (picked.length > 1) throw new Error(vscode.l10n.t('Run bulk processing on one CSV file at a time.'));
    let uri = picked[0] as vscode.Uri | undefined;
    if (!uri) {
      const chosen = await this.c.ui.showOpenDialog({
        title: vscode.l10n.t('Run Bulk Processing: choose a CSV of questions (columns {0})', 'question, model, search_type'),
        canSelectMany: false,
        canSelectFiles: true,
        canSelectFolders: false,
        filters: { CSV: ['csv'] },
        openLabel: vscode.l10n.t('Run'),
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      });
      uri = chosen?.[0];
      if (!uri) return undefined;
    }
    const fileName = uri.path.split('/').pop() || 'questions.csv';
    const bytes = await vscode.workspace.fs.readFile(uri);
    const { rows, missing } = checkBulkCsv(new TextDecoder().decode(bytes));
    const bulkType = await promptBulkType(this.c.ui, fileName);
    const client = await this.c.connection.getClient();
    const file =
      uri.scheme === 'file' ? { kind: 'file' as const, path: uri.fsPath, fileName } : { kind: 'buffer' as const, data: bytes, fileName };
    const run = await this.progress(vscode.l10n.t('Sending {0}', fileName), () => client.bulk.run(file, bulkType));
    this.c
      .log('jobs')
      .info(
        `bulk ${bulkType} started on ${fileName} (${rows} rows${missing.length ? `; no ${missing.join(', ')} column: service defaults` : ''}) → ${run.id}`,
      );
    this.f.expectBulk(run.id);
    await this.f.poller.pollNow();
    const result = this.f.store.bulkResult(run.id);
    if (result && this.f.view.visible)
      await this.f.view.reveal(this.f.tree.bulkResult(result), { select: true, focus: false }).then(undefined, () => undefined);
    vscode.window.setStatusBarMessage(
      rows === 1
        ? vscode.l10n.t('Knowledge Desk: bulk processing started on {0} question', rows)
        : vscode.l10n.t('Knowledge Desk: bulk processing started on {0} questions', rows),
      4000,
    );
    return run;
  }

  async loadMoreBulk(): Promise<void> {
    const client = await this.c.connection.getClient();
    await loadMoreInView(
      JOBS_VIEW,
      () => this.f.store.loadMoreBulk(client),
      () => this.f.render(),
    );
  }
}

function fileNameOf(e: ResultElement): string {
  return resultFileName(
    e.kind === 'rareResult' ? 'rare-result' : `bulk-${e.result.bulk_type ?? 'result'}`,
    e.result.created_at,
    e.result.id,
  );
}
