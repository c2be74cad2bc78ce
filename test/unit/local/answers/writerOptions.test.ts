// How the standalone service and the MCP server are told about a writer (docs/local-service.md#writer): from the
// environment (KD_LOCAL_WRITER_*) or --writer-url / --writer-model, the key from the environment only.
import assert from 'node:assert/strict';
import { main } from '../../../../src/local/entry';
import { writerFromEnv } from '../../../../src/local/answers/writerConfig';

describe('Local writer options', () => {
  it('reads KD_LOCAL_WRITER_* (none when the URL is unset); options override the URL and model, not the key', () => {
    assert.equal(writerFromEnv({ KD_LOCAL_WRITER_MODEL: 'm' }), undefined);
    const env = {
      KD_LOCAL_WRITER_URL: 'http://127.0.0.1:11434/v1',
      KD_LOCAL_WRITER_MODEL: 'llama3.2',
      KD_LOCAL_WRITER_KEY: 'sk-x',
      KD_LOCAL_WRITER_TIMEOUT_S: '5',
    };
    assert.deepEqual(writerFromEnv(env), { url: env.KD_LOCAL_WRITER_URL, model: 'llama3.2', apiKey: 'sk-x', timeoutMs: 5000 });
    assert.equal(writerFromEnv(env, { model: 'qwen' })?.model, 'qwen');
  });

  it('refuses a URL that is not http(s), a key inside the URL, a missing model and a bad timeout', () => {
    assert.throws(() => writerFromEnv({ KD_LOCAL_WRITER_URL: 'file:///etc', KD_LOCAL_WRITER_MODEL: 'm' }), /http or https/);
    assert.throws(
      () => writerFromEnv({ KD_LOCAL_WRITER_URL: 'http://u:secret@127.0.0.1/v1', KD_LOCAL_WRITER_MODEL: 'm' }),
      /KD_LOCAL_WRITER_KEY/,
    );
    assert.throws(() => writerFromEnv({ KD_LOCAL_WRITER_URL: 'http://127.0.0.1/v1' }), /model name/);
    assert.throws(
      () => writerFromEnv({ KD_LOCAL_WRITER_URL: 'http://127.0.0.1/v1', KD_LOCAL_WRITER_MODEL: 'm', KD_LOCAL_WRITER_TIMEOUT_S: 'x' }),
      /timeout/,
    );
  });

  it('dist/local.js has no option for the key (a command line is visible to other processes), and stops on a bad writer', async () => {
    const saved = process.exitCode;
    const errors: string[] = [];
    const error = console.error;
    console.error = (m: unknown) => errors.push(String(m));
    try {
      assert.equal(await main(['--data', '/nonexistent-kd', '--writer-url', 'http://127.0.0.1:1/v1', '--writer-key', 'sk']), undefined);
      assert.equal(process.exitCode, 2);
      assert.match(errors.join('\n'), /writer-key/);
      process.exitCode = saved;
      assert.equal(await main(['--data', '/nonexistent-kd', '--writer-url', 'ftp://127.0.0.1/v1', '--writer-model', 'm']), undefined);
      assert.equal(process.exitCode, 2);
      assert.match(errors.join('\n'), /http or https/);
    } finally {
      console.error = error;
      process.exitCode = saved;
    }
  });
});
