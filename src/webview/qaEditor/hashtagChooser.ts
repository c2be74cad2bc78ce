// "Choose…" beside the hashtags: the host shows the shared hashtag picker (hashtags in use with their counts)
// with the field's hashtags ticked; the chosen list replaces them, cancel keeps them. Not a busy action: the
// rest of the form stays usable meanwhile, only the button waits (one picker at a time).
import type { QaEditorProtocol } from '../../features/qna/editor/protocol';
import type { QaEditorStrings } from '../../features/qna/editor/qaEditorStrings';
import { normalizeHashtags } from '../../core/hashtags';
import type { Messenger } from '../shared/messenger';
import { format, formatNumber } from '../shared/strings';
import type { QaForm } from './form';
import type { EditorLayout } from './layout';

export class HashtagChooser {
  /** The host's picker is open for this page. */
  open = false;

  constructor(
    private readonly doc: Document,
    private readonly messenger: Messenger<QaEditorProtocol>,
    private readonly form: QaForm,
    private readonly layout: EditorLayout,
    private readonly s: QaEditorStrings,
    /** The form changed (dirty state, preview, webview state). */
    private readonly onEdit: () => void,
  ) {}

  /** `enabled`: whether the form may be edited now (a Q&A is loaded). */
  async run(enabled: () => boolean): Promise<void> {
    if (this.open || !enabled()) return;
    this.open = true;
    const button = this.form.chooseHashtags;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    this.layout.showError(null);
    try {
      const { hashtags } = await this.messenger.request('chooseHashtags', { current: this.form.hashtagValues });
      if (hashtags) {
        this.form.setHashtags(hashtags);
        this.onEdit();
        this.layout.showNotice(this.chosen(normalizeHashtags(hashtags).length));
      }
    } catch (error) {
      const e = error as { message?: string; code?: string };
      if (e.code !== 'cancelled') this.layout.showError(e.message ?? String(error));
    } finally {
      this.open = false;
      button.removeAttribute('aria-busy');
      button.disabled = !enabled();
    }
  }

  private chosen(n: number): string {
    if (n === 0) return this.s.hashtagsChosenNone;
    if (n === 1) return this.s.hashtagsChosenOne;
    return format(this.s.hashtagsChosenMany, formatNumber(n, undefined, this.doc));
  }
}
