// `*.kdtest.yaml`: the file's text to its tests and problems, with the line and column of each. The yaml
// library keeps the source range of every node, so a problem points at the value (or key) it is about, and a
// syntax error spoils only the tests it falls in.
import { LineCounter, isMap, isSeq, parseDocument, type Node as YamlNode, type YAMLMap } from 'yaml';
import type { Diagnostic, KnowledgeTest, ParsedTestFile, Position } from './testSchema';
import { validateTest, type Locator, type Span } from './validateTest';

export function parseTestYaml(text: string): ParsedTestFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const pos = (offset: number): Position => {
    const { line, col } = lines.linePos(Math.min(offset, text.length));
    return { line, column: col };
  };
  const span = (range: readonly number[] | null | undefined, fallback: Span): Span =>
    range ? { start: pos(range[0]), end: pos(range[1]) } : fallback;
  const diagnostics: Diagnostic[] = [];
  const errorOffsets: number[] = [];
  for (const e of [...doc.errors, ...doc.warnings]) {
    const severity = doc.errors.includes(e as never) ? 'error' : 'warning';
    if (severity === 'error') errorOffsets.push(e.pos[0]);
    diagnostics.push({ severity, message: `YAML: ${e.message.split('\n')[0]}`, start: pos(e.pos[0]), end: pos(e.pos[1]) });
  }
  const fileSpan: Span = { start: pos(0), end: pos(text.length) };
  const root = doc.contents;
  const testsNode = isMap(root) ? root.get('tests', true) : undefined;
  if (!isMap(root) || !isSeq(testsNode)) {
    if (!errorOffsets.length) {
      diagnostics.push({
        severity: 'error',
        message: 'A knowledge test file is a mapping with a "tests" list.',
        ...span((testsNode as YamlNode | undefined)?.range ?? root?.range, fileSpan),
      });
    }
    return { tests: [], diagnostics };
  }
  for (const pair of root.items) {
    const key = String((pair.key as { value?: unknown } | null)?.value ?? pair.key);
    if (key !== 'tests' && key !== 'description') {
      diagnostics.push({
        severity: 'error',
        message: `Unknown field "${key}" (a file has "tests" and an optional "description").`,
        ...span((pair.key as YamlNode | null)?.range, fileSpan),
      });
    }
  }
  const tests: KnowledgeTest[] = [];
  for (const item of testsNode.items) {
    const node = item as YamlNode;
    const whole = span(node.range, fileSpan);
    // A syntax error inside this test: what the library recovered may not be what was written.
    if (node.range && errorOffsets.some((o) => o >= node.range![0] && o <= node.range![2])) continue;
    const locator: Locator = {
      whole,
      value: (path) => span(nodeAt(node, path)?.range, whole),
      key: (path, key) => {
        const parent = nodeAt(node, path);
        const entry = isMap(parent)
          ? (parent as YAMLMap).items.find((p) => String((p.key as { value?: unknown })?.value) === key)
          : undefined;
        return span((entry?.key as YamlNode | undefined)?.range, span(parent?.range, whole));
      },
    };
    const result = validateTest(isMap(node) || isSeq(node) ? node.toJSON() : (node as { toJSON?: () => unknown }).toJSON?.(), locator);
    diagnostics.push(...result.diagnostics);
    if (result.test) tests.push(result.test);
  }
  return { tests, diagnostics };
}

function nodeAt(node: YamlNode, path: ReadonlyArray<string | number>): YamlNode | undefined {
  let current: unknown = node;
  for (const step of path) {
    if (isMap(current) || isSeq(current)) current = current.get(step, true);
    else return undefined;
  }
  return current as YamlNode | undefined;
}
