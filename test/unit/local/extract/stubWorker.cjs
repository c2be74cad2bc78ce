// A stand-in extraction worker for ExtractorPool tests: the file name picks the behaviour.
const { parentPort, threadId } = require('node:worker_threads');

parentPort.on('message', ({ id, fileName }) => {
  if (fileName === 'hang.txt') for (;;);
  if (fileName === 'crash.txt') process.exit(3); // in a worker this ends the thread only
  if (fileName === 'throw.txt')
    setImmediate(() => {
      throw new Error('boom in worker');
    });
  if (fileName === 'oom.txt') {
    const hog = [];
    for (;;) hog.push(new Array(1e5).fill({ x: hog.length }));
  }
  const delay = Number(/^slow(\d+)/.exec(fileName)?.[1] ?? 0);
  const reply =
    fileName === 'fail.txt'
      ? { id, ok: false, reason: 'empty', message: 'nothing here' }
      : { id, ok: true, extraction: { kind: 'text', pages: [{ pageNo: 1, text: `${fileName} by ${threadId}` }] } };
  setTimeout(() => parentPort.postMessage(reply), delay);
});
parentPort.postMessage({ ready: true });
