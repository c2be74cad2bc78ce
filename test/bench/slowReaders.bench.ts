// Clients that never read, and the file:// race (issue 23), against a standalone service (dist/local.js):
//  - memory (RSS) of the service with 150 clients reading a 5.6 MB /text answer (baseline), with 150 that never
//    read it, and after those go;
//  - uploads of a file:// path while another process swaps its folder for a symlink to the outside: escapes must be 0.
// Smoke: KD_BENCH_SLOW_CLIENTS=10 KD_BENCH_RACE_ATTEMPTS=100 npm run bench -- slowReaders
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { ApiClient } from '../../src/api/client';
import { startLocalProcess, type LocalProcess } from './localProcess';
import { table } from './support';

const CLIENTS = Number(process.env.KD_BENCH_SLOW_CLIENTS ?? 150);
const ATTEMPTS = Number(process.env.KD_BENCH_RACE_ATTEMPTS ?? 3000);
const MB = 2 ** 20;

const rss = async (pid: number): Promise<number> => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

async function call(svc: LocalProcess, method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown) {
  const res = await request(svc.url + route, {
    method,
    headers: { 'API-KEY': svc.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

async function inFlight(svc: LocalProcess): Promise<number> {
  return (JSON.parse((await call(svc, 'GET', '/_local/info')).text) as { counts: Record<string, number> }).counts['http.inFlight'];
}

function stalled(svc: LocalProcess, target: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(svc.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('connect', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAPI-KEY: ${svc.apiKey}\r\n\r\n`));
    socket.once('readable', () => resolve(socket));
  });
}

async function slowReaders(svc: LocalProcess): Promise<void> {
  const line = '出張旅費の規程は、鉄道、航空機、宿泊のすべてに適用されます。';
  const client = new ApiClient({ baseUrl: svc.url, apiKey: svc.apiKey, nluApiKey: svc.nluApiKey });
  const [{ id }] = await client.kbNodes.upload({
    file: { data: line.repeat(Math.ceil(1_900_000 / line.length)), contentType: 'text/plain' },
    fileName: 'big.txt',
  });
  const target = `/webapi/v2/knowledge_base_nodes/${id}/text`;
  while ((await call(svc, 'GET', target)).status !== 200) await new Promise((r) => setTimeout(r, 500));
  const size = Buffer.byteLength((await call(svc, 'GET', target)).text);
  const idle = await rss(svc.pid);
  await Promise.all(Array.from({ length: CLIENTS }, () => call(svc, 'GET', target)));
  const afterReaders = await rss(svc.pid);
  const sockets = await Promise.all(Array.from({ length: CLIENTS }, () => stalled(svc, target)));
  const withStalled = await rss(svc.pid);
  for (const s of sockets) s.destroy();
  while ((await inFlight(svc)) > 1) await new Promise((r) => setTimeout(r, 100));
  const afterGone = await rss(svc.pid);
  table(
    `${CLIENTS} clients and a ${(size / MB).toFixed(1)} MB /text answer: service RSS (MB; goal: growth under 300, released)`,
    ['', 'RSS', 'growth'],
    [
      ['idle, document loaded', idle / MB, 0],
      [`after ${CLIENTS} clients that read (baseline)`, afterReaders / MB, (afterReaders - idle) / MB],
      [`${CLIENTS} clients that never read, all waiting`, withStalled / MB, (withStalled - idle) / MB],
      ['after those clients went', afterGone / MB, (afterGone - idle) / MB],
    ],
  );
}

async function race(svc: LocalProcess, root: string, outside: string): Promise<void> {
  // A separate process swaps allowed/dir and a symlink to the outside folder as fast as it can.
  const swapper = spawn(process.execPath, [
    '-e',
    `const fs=require('fs'),p=require('path');const r=${JSON.stringify(root)},o=${JSON.stringify(outside)};
     for(;;){try{fs.renameSync(p.join(r,'dir'),p.join(r,'real'));fs.symlinkSync(o,p.join(r,'dir'));fs.unlinkSync(p.join(r,'dir'));fs.renameSync(p.join(r,'real'),p.join(r,'dir'));}catch{}}`,
  ]);
  let escapes = 0;
  let accepted = 0;
  let refused = 0;
  try {
    const url = pathToFileURL(path.join(root, 'dir', 'file.txt')).toString();
    for (let i = 0; i < ATTEMPTS; i++) {
      const res = await call(svc, 'POST', '/webapi/v2/knowledge_base_nodes/upload_from_cloud_store', {
        bucketObjectPath: url,
        fileName: 'race.txt',
      });
      if (res.status !== 200) {
        refused++;
        continue;
      }
      accepted++;
      const id = (JSON.parse(res.text) as { result: { id: string } }).result.id;
      if ((await call(svc, 'GET', `/webapi/v2/knowledge_base_nodes/${id}/download`)).text.includes('SECRET')) escapes++;
      await call(svc, 'DELETE', `/webapi/v2/knowledge_base_nodes/${id}`);
    }
  } finally {
    swapper.kill('SIGKILL');
  }
  table(
    `file:// uploads while the folder is swapped for a symlink to the outside (${ATTEMPTS} attempts)`,
    ['', 'count'],
    [
      ['read the file inside', accepted - escapes],
      ['refused (no such file / outside)', refused],
      ['escapes: read the outside file (must be 0)', escapes],
    ],
  );
}

async function main(): Promise<void> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'kd-bench-race-')));
  const root = path.join(base, 'allowed');
  const outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'dir'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'dir', 'file.txt'), 'inside the allowed folder');
  await writeFile(path.join(outside, 'file.txt'), 'SECRET outside the allowed folder');
  const svc = await startLocalProcess(['--allow', root]);
  try {
    await slowReaders(svc);
    await race(svc, root, outside);
  } finally {
    await svc.stop();
    await rm(base, { recursive: true, force: true });
  }
}

void main();
