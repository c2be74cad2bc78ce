// Screenshot of a running workbench (e.g. `npm start`): node test/host/shoot.mjs URL OUT.png [waitMs] [click-selector...]
import { chromium } from 'playwright-core';
const [url, out, wait = '8000', ...clicks] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: node test/host/shoot.mjs URL OUT.png [waitMs] [selector...]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.goto(url);
  await page.waitForTimeout(Number(wait));
  for (const selector of clicks) {
    await page.click(selector, { timeout: 10_000 });
    await page.waitForTimeout(1500);
  }
  await page.screenshot({ path: out });
  console.log(`saved ${out}`);
} finally {
  await browser.close();
}
