// A stand-in extraction worker for ExtractorPool tests: the file name picks the behaviour.
const fs = require('node:fs');
const path = require('node:path');
const { parentPort, threadId } = require('node:worker_threads');

parentPort.on('message', ({ id, filePath, fileName }) => {
  if (fileName === 'hang.txt') for (;;);
  if (fileName === 'crash.txt') process.exit(3); // in a worker this ends the thread only
  if (fileName === 'throw.txt')
    setImmediate(() => {
      throw new Error('boom in worker');
    });
  // Memory outside the V8 heap, where resourceLimits do not reach, then no reply.
  if (fileName === 'hog.txt') {
    globalThis.hog = new Uint8Array(256 * 1024 * 1024).fill(1);
    for (;;);
  }
  if (fileName === 'oom.txt') {
    const hog = [];
    for (;;) hog.push(new Array(1e5).fill({ x: hog.length }));
  }
  // meet-<self>-<other>: leaves a mark in the folder `filePath`, then replies only once the other job left its own
  // (or fails after 10 s). Two such jobs can both succeed only if they run at the same time.
  const meet = /^meet-(\w+)-(\w+)$/.exec(fileName);
  if (meet) {
    fs.writeFileSync(path.join(filePath, meet[1]), '');
    const deadline = Date.now() + 10_000;
    const poll = () => {
      if (fs.existsSync(path.join(filePath, meet[2])))
        parentPort.postMessage({ id, ok: true, extraction: { kind: 'text', pages: [{ pageNo: 1, text: `${fileName} by ${threadId}` }] } });
      else if (Date.now() > deadline)
        parentPort.postMessage({ id, ok: false, reason: 'timeout', message: `${meet[2]} never ran beside ${meet[1]}` });
      else setTimeout(poll, 5);
    };
    return poll();
  }
  const delay = Number(/^slow(\d+)/.exec(fileName)?.[1] ?? 0);
  const reply =
    fileName === 'fail.txt'
      ? { id, ok: false, reason: 'empty', message: 'nothing here' }
      : { id, ok: true, extraction: { kind: 'text', pages: [{ pageNo: 1, text: `${fileName} by ${threadId}` }] } };
  setTimeout(() => parentPort.postMessage(reply), delay);
});
parentPort.postMessage({ ready: true });
