import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ApiClient } from '../../../src/api/client';
import { ApiConnectionError, ApiValidationError, LocalServiceStoppedError } from '../../../src/api/errors';
import { OperationNotOfferedError } from '../../../src/api/errors';
import { toUserFacing } from '../../../src/platform/errorMessages';
import { startTestService, type TestService } from '../support/localService';

/** A loopback port nothing listens on: taken from the OS, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// An operation id ("projects.current", "kbNodes.search") at the start of a message or before a colon.
const OPERATION_ID = /\b[a-z]+\.[a-z][A-Za-z]*\b(?=:| failed)/;

describe('User-facing error messages', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.stop());

  it('an unreachable service: names the host and the reason in words, says what to check, no operation id', async () => {
    const port = await closedPort();
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', retry: { maxRetries: 0 } });
    const error = await client.projects.checkKey({ maxRetries: 0 }).then(
      () => assert.fail('the check should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiConnectionError, String(error));
    assert.equal(error.host, `127.0.0.1:${port}`);
    assert.equal(error.reason, 'ECONNREFUSED');
    const { message, actions } = toUserFacing(error);
    assert.match(message, new RegExp(`^Cannot reach 127\\.0\\.0\\.1:${port}: the connection was refused\\. `));
    assert.match(message, /network connection/);
    assert.match(message, /proxy settings \(http\.proxy\)/);
    assert.match(message, /region/);
    assert.doesNotMatch(message, /ECONNREFUSED|projects\.|cannot reach the service/);
    assert.deepEqual(
      actions.map((a) => a.command),
      ['knowledgeDesk.selectRegion'],
    );
  });

  it('no message names an operation: service errors, unexpected responses, operations not offered', async () => {
    const client = t.client();
    const serviceError = await client.kbNodes.get('no-such-node').then(
      () => assert.fail('a missing node should fail'),
      (e: unknown) => e,
    );
    const errors: unknown[] = [
      serviceError,
      new ApiValidationError('kbNodes.search', 'result.nodes.3.id', 'is missing'),
      new OperationNotOfferedError('folders.create'),
    ];
    for (const error of errors) {
      const { message } = toUserFacing(error);
      assert.doesNotMatch(message, OPERATION_ID, message);
      assert.doesNotMatch(message, /kbNodes|folders\.create/, message);
    }
    assert.match(toUserFacing(errors[1]).message, /result\.nodes\.3\.id/, 'the field stays: it is what support asks for');
  });

  it('a local service that stopped: says it is restarting, or offers Restart Local Service when it was given up', () => {
    const restarting = toUserFacing(
      new LocalServiceStoppedError('GET /x', 'The local service stopped (it was stopped by SIGKILL); it is restarting', true),
    );
    assert.equal(restarting.message, 'The local service stopped and is being restarted. Try again in a moment.');
    assert.deepEqual(restarting.actions, []);
    const gaveUp = toUserFacing(new LocalServiceStoppedError('GET /x', 'The local service stopped and is not restarted', false));
    assert.equal(gaveUp.message, 'The local service stopped and was not started again.');
    assert.deepEqual(gaveUp.actions, [{ label: 'Restart Local Service', command: 'knowledgeDesk.restartLocalService' }]);
  });
});
