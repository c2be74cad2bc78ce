// Request targets that start with `//` are paths, not an authority (issue 23): `new URL('//webapi/…', base)`
// reads `webapi` as the host and would route what follows it.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestService, type TestService } from '../../support/localService';

/** One raw HTTP/1.1 request, exactly as written (no client normalises the target); the status and body. */
function rawGet(port: number, target: string, apiKey: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (data += d));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: rest.join('\r\n\r\n') });
    });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAPI-KEY: ${apiKey}\r\nConnection: close\r\n\r\n`);
  });
}

describe('Local service: request targets starting with //', () => {
  let t: TestService;
  before(async () => (t = await startTestService()));
  after(() => t.stop());

  it('parses //webapi/… as a path: the normal 404 naming that path, never the route after a "host"', async () => {
    const plain = await rawGet(t.service.port, '/webapi/v2/projects', t.service.apiKey);
    assert.equal(plain.status, 200, plain.body);
    // Read as a URL, `//x/webapi/v2/projects` would be host x and the projects route.
    const hosted = await rawGet(t.service.port, '//x/webapi/v2/projects', t.service.apiKey);
    assert.equal(hosted.status, 404, hosted.body);
    assert.match(hosted.body, /No operation at \/\/x\/webapi\/v2\/projects\./);
    const doubled = await rawGet(t.service.port, '//webapi/v2/projects', t.service.apiKey);
    assert.equal(doubled.status, 404, doubled.body);
    assert.match(doubled.body, /No operation at \/\/webapi\/v2\/projects\./);
  });
});
