// Screenshot of a running workbench (e.g. `npm start`): node test/host/shoot.mjs URL OUT.png [waitMs] [click-selector...]
// An argument `wait:SELECTOR` waits (at most 10 s) for that element to be visible instead of clicking it.
import { chromium } from 'playwright-core';
const [url, out, wait = '8000', ...clicks] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: node test/host/shoot.mjs URL OUT.png [waitMs] [selector | wait:selector ...]');
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
    if (selector.startsWith('wait:')) {
      await page.locator(selector.slice('wait:'.length)).first().waitFor({ state: 'visible', timeout: 10_000 });
      continue;
    }
    await page.click(selector, { timeout: 10_000 });
    await page.waitForTimeout(1500);
  }
  await page.screenshot({ path: out });
  console.log(`saved ${out}`);
} finally {
  await browser.close();
}
