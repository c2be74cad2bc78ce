// The Knowledge Base row as other features read it (platform/tree/kbNodeElement.ts): the answers feature's
// Open Document and Ask About receive the tree's own rows, so the shape has one definition and one reader.
import assert from 'node:assert/strict';
import type { KbNode } from '../../../src/api/schemas/kbNodes';
import { parseOpenDocument } from '../../../src/features/answers/citations/citationArgs';
import { kbNodeOf, type KbNodeElement } from '../../../src/platform/tree/kbNodeElement';

const file = { id: 'doc-1', name: 'handbook.pdf', nodeType: 'file' } as KbNode;
const folder = { id: 'folder-1', name: 'Policies', nodeType: 'folder' } as KbNode;
const row = (node: KbNode): KbNodeElement => ({ kind: 'node', node, parentKey: '#root' });

describe('A Knowledge Base row passed to another feature', () => {
  it('kbNodeOf gives the node of a tree row and nothing for other arguments', () => {
    assert.equal(kbNodeOf(row(file)), file);
    for (const other of [undefined, null, 'doc-1', { kbId: 'doc-1' }, { kind: 'loadMore', parentKey: '#root' }, { kind: 'node' }]) {
      assert.equal(kbNodeOf(other), undefined, JSON.stringify(other));
    }
  });

  it('Open Document opens a document row at page 1 and refuses a folder row (folders have nodeType "folder")', () => {
    assert.deepEqual(parseOpenDocument(row(file)), { kbId: 'doc-1', title: 'handbook.pdf', pageNo: 1 });
    assert.throws(() => parseOpenDocument(row(folder)), /folder has no pages/);
  });
});
