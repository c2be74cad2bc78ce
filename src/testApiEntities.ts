// The test facade's entity recognition (src/testApi.ts, the test build only): what the editor shows (decorations,
// the status bar item) and what recognition and Teach Phrase told or sent, rather than the feature's own objects.
import type * as vscode from 'vscode';
import type { EntitiesFeature } from './features/entities/entitiesFeature';
import type { DecoratedEntity } from './features/entities/entityDecorations';
import type { TaughtPhrase } from './features/entities/teachPhrase';
import { ProbeKeys, type Ring, type TestProbe } from './testProbe';

export interface EntitiesTestView {
  /** What is decorated in `uri` now: tag, token and range of each entity. */
  decorated(uri: vscode.Uri): readonly DecoratedEntity[];
  /** The entities status bar item, as shown. */
  statusBar: Readonly<vscode.StatusBarItem>;
  /** Whether Recognize Next Part has a part to send. */
  readonly hasNextPart: boolean;
  /** Phrases Teach Phrase sent, with the service's answers (onDidTeach). */
  taught: Ring<TaughtPhrase>;
  /** Recognition's notices about a text longer than one request; undefined when a run starts (onDidNotice). */
  notices: Ring<string | undefined>;
}

export function entitiesTestView(feature: EntitiesFeature, probe: TestProbe): EntitiesTestView {
  const { teacher, recognizer } = feature;
  const taught = probe.ring<TaughtPhrase>(teacher, ProbeKeys.taughtPhrases);
  const notices = probe.ring<string | undefined>(recognizer, ProbeKeys.notices);
  return {
    decorated: (uri) => feature.decorations.entities(uri),
    statusBar: feature.statusBar.item,
    get hasNextPart() {
      return recognizer.hasNextPart;
    },
    taught,
    notices,
  };
}
