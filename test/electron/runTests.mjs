// Integration tests in desktop VS Code, for machines that can download it (@vscode/test-electron).
// On machines that cannot, `npm test` runs the same suite in code-server (test/host/).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-ws-'));
fs.cpSync(path.join(root, 'test/fixtures/workspace'), workspace, { recursive: true });
try {
  await runTests({
    version: '1.100.3',
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'out/test/integration/index'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (error) {
  console.error('Integration tests failed:', error);
  process.exitCode = 1;
} finally {
  fs.rmSync(workspace, { recursive: true, force: true });
}
