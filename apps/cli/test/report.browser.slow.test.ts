import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, SMALL_AUDIT, tempDir, xtrustAsync, XSS_TEXTS } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');

/** Debian's chromium, installed by this set-up when missing (CI runs as root on Debian); never a browser download. */
function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  execSync('apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium', { stdio: 'inherit' });
}

let server: Server;
let context: BrowserContext;
let page: Page;
let summary: any;
const pageErrors: string[] = [];

beforeAll(async () => {
  ensureChromium();
  const fx = await buildFixture();
  const out = join(fx.dir, 'run');
  const r = await xtrustAsync([
    'audit',
    '--model',
    fx.model,
    '--train',
    fx.train,
    '--test',
    fx.test,
    '--trust-column',
    'trust',
    '--out',
    out,
    '--json',
    ...SMALL_AUDIT,
  ]);
  expect(r.code).toBe(0);
  summary = JSON.parse(r.stdout).summary;
  const html = readFileSync(join(out, 'report.html'));
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A fresh profile each time; these flags keep Chromium from opening connections of its own.
  context = await chromium.launchPersistentContext(tempDir('xtrust-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 1800 },
  });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const port = (server.address() as AddressInfo).port;
  await page.goto(`http://127.0.0.1:${port}/report.html`, { waitUntil: 'load' });
}, 900_000);

afterAll(async () => {
  await context?.close();
  server?.close();
});

/** Predictions visible in the list now. */
const visible = () => page.locator('#prediction-list .pred:visible').count();

describe('the HTML report in Chromium', () => {
  it('renders the summary and its charts (ROC only when scored) without a script error', async () => {
    expect(await page.title()).toContain('xtrust audit');
    expect(await page.locator('#untrustworthy-share').textContent()).toMatch(/%$/);
    // the ROC chart is drawn only when the ground truth decides enough cases per side; otherwise the report says why
    const scored = summary.comparison && !summary.comparison.tooSmall;
    expect(await page.evaluate(() => (window as unknown as { xtrustCharts?: unknown[] }).xtrustCharts?.length)).toBe(
      scored ? 2 : 1,
    );
    if (!scored) expect(await page.locator('#comparison .too-small').textContent()).toMatch(/\S/);
    const box = await page.locator('#chart-confidence').boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    expect(pageErrors).toEqual([]);
  });

  it('shows hostile texts as text and never runs them', async () => {
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    const first = await page.locator('#prediction-list .pred .text').nth(0).textContent();
    const second = await page.locator('#prediction-list .pred .text').nth(1).textContent();
    expect(first).toBe(XSS_TEXTS[0]);
    expect(second).toBe(XSS_TEXTS[1]);
    expect(await page.locator('#prediction-list img').count()).toBe(0);
  });

  it('filters predictions by verdict', async () => {
    const total = summary.data.auditedTestRows;
    expect(await visible()).toBe(total);
    for (const verdict of ['untrustworthy', 'trustworthy', 'incorrect']) {
      await page.click(`button.filter[data-filter="${verdict}"]`);
      expect(await visible()).toBe(summary.verdicts[verdict]);
      expect(await page.locator('#shown-count').textContent()).toBe(String(summary.verdicts[verdict]));
      for (const v of await page
        .locator('#prediction-list .pred:visible')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.verdict)))
        expect(v).toBe(verdict);
    }
    await page.click('button.filter[data-filter="all"]');
    expect(await visible()).toBe(total);
  });

  it('keeps screenshots as test artifacts (the top of the report, and the untrustworthy predictions)', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = join(ARTIFACTS, 'report.png');
    await page.screenshot({ path: top });
    await page.click('button.filter[data-filter="untrustworthy"]');
    const filtered = join(ARTIFACTS, 'report-untrustworthy.png');
    await page.screenshot({ path: filtered });
    for (const file of [top, filtered]) expect(readFileSync(file).length).toBeGreaterThan(10_000);
  });
});
