// The local service holds arrays as long as its data (130,000 Q&As in one upload): spreading one into the
// arguments of a call (push(...ids), Math.max(...xs), String.fromCharCode(...codes)) throws "Maximum call
// stack size exceeded" past some ten thousand items, which once left a data folder that could not start.
// Every such call in src/local is found through the TypeScript syntax tree, whatever the array's size today.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Calls whose arguments are each pushed on the stack: `obj.push(...)`, `Math.max(...)`, `String.fromCharCode(...)`. */
const SPREAD_SENSITIVE = new Set(['push', 'unshift', 'splice', 'max', 'min', 'fromCharCode', 'fromCodePoint']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** `file:line: text` of each call of SPREAD_SENSITIVE (also through .apply / .call) with a spread argument. */
function argumentSpreads(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const nameOf = (callee: ts.Expression): string | undefined => {
    if (!ts.isPropertyAccessExpression(callee)) return ts.isIdentifier(callee) ? callee.text : undefined;
    const name = callee.name.text;
    // Math.max.apply(null, xs) spreads just the same.
    return (name === 'apply' || name === 'call') && ts.isPropertyAccessExpression(callee.expression) ? callee.expression.name.text : name;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = nameOf(node.expression);
      const isApply = ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'apply';
      if (name && SPREAD_SENSITIVE.has(name) && (isApply || node.arguments.some(ts.isSpreadElement))) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${fileName}:${line + 1}: ${node.getText(source).split('\n')[0].slice(0, 100)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('Local service: no array spread into call arguments', () => {
  it('finds the forms it forbids (the check itself works)', () => {
    const sample = [
      'ids.push(...all);',
      'pending.push(\n  ...[...ids].reverse(),\n);',
      'const m = Math.max(...xs);',
      'const n = Math.min.apply(null, xs);',
      'const s = String.fromCharCode(...codes);',
      'list.splice(0, 0, ...more);',
      'const ok = a.concat(b); f(...args); const copy = [...xs]; out.push(x, y);',
    ].join('\n');
    assert.deepEqual(
      argumentSpreads('sample.ts', sample).map((f) => f.split(': ')[0]),
      ['sample.ts:1', 'sample.ts:2', 'sample.ts:5', 'sample.ts:6', 'sample.ts:7', 'sample.ts:8'],
    );
  });

  it('src/local has none (an array from the data can hold more items than a call takes arguments)', () => {
    const offenders = files('src/local').flatMap((f) => argumentSpreads(f, readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
