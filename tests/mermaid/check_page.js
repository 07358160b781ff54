// Loads an `sqsguard audit --format html` page in headless Chromium
// (Debian's, as puppeteer.json says), offline: every request that is not
// the page's own file or a data: URL is refused and recorded. Prints one
// JSON object of what the page shows, for tests/ext/audit_html.rs to compare
// with the audit's JSON:
//
//   node tests/mermaid/check_page.js PAGE.html [--filter TEXT] [--screenshot OUT.png]
//
// {errors: [console errors and page errors], requests: [refused URLs],
//  counts: {queues, errors, ...}, pagers: {queues: {page, pages, rows, shown}, ...},
//  graph: {nodes, scopes}, sorted: [[errors, warnings, infos] of the first rows
//  after a click on the Findings heading], filtered: {rows, names, findings}
//  (with --filter), unaudited: rows of the not-audited table, next: the
//  queues pager after a click on Next, load_ms and filter_ms: how long
//  loading and filtering took, for benches/html.sh; with_errors: the queues
//  left by the severity filter `error`}
'use strict';
const path = require('path');
const puppeteer = require('puppeteer');
const config = require('./puppeteer.json');

function option(name) {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

async function main() {
  const page_file = path.resolve(process.argv[2]);
  const browser = await puppeteer.launch({ headless: true, executablePath: config.executablePath, args: config.args });
  const result = { errors: [], requests: [] };
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const url = request.url();
      if (url.startsWith('file:') || url.startsWith('data:')) {
        request.continue();
      } else {
        result.requests.push(url);
        request.abort();
      }
    });
    page.on('console', (message) => {
      if (message.type() === 'error') result.errors.push('console: ' + message.text());
    });
    page.on('pageerror', (error) => result.errors.push('pageerror: ' + error.message));
    page.on('requestfailed', (request) => {
      if (!result.requests.includes(request.url())) result.errors.push('request failed: ' + request.url());
    });
    const started = Date.now();
    await page.goto('file://' + page_file, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
    // For benches/html.sh; no test reads a time.
    result.load_ms = Date.now() - started;
    const read = () => page.evaluate(() => {
      const pager = (id) => {
        const p = document.getElementById(id + '-pager');
        return {
          page: Number(p.getAttribute('data-page')),
          pages: Number(p.getAttribute('data-pages')),
          rows: Number(p.getAttribute('data-rows')),
          shown: document.querySelectorAll('#' + id + '-table tbody tr').length,
        };
      };
      const count = (id) => Number(document.getElementById('count-' + id).getAttribute('data-count'));
      return {
        counts: {
          queues: count('queues'), account_regions: count('account-regions'), errors: count('errors'),
          warnings: count('warnings'), infos: count('infos'), findings: count('findings'), unaudited: count('unaudited'),
        },
        pagers: { pairs: pager('pairs'), queues: pager('queues'), findings: pager('findings') },
        graph: {
          nodes: document.querySelectorAll('#graph svg g.node').length,
          scopes: document.querySelectorAll('#graph-scope option').length,
          text: (document.querySelector('#graph svg') || {}).textContent || '',
        },
        unaudited: Array.from(document.querySelectorAll('#unaudited-table tbody tr')).map((tr) =>
          Array.from(tr.cells).map((c) => c.textContent)),
        names: Array.from(document.querySelectorAll('#queues-table tbody tr td.queue')).map((td) => td.textContent),
        resources: Array.from(document.querySelectorAll('#findings-table tbody tr')).map((tr) => tr.cells[2].textContent),
      };
    });
    Object.assign(result, await read());
    const shot = option('--screenshot');
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    // Sort by findings: a click on the heading puts the worst first.
    await page.click('#queues-table th[data-key="worst"]');
    result.sorted = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#queues-table tbody tr')).slice(0, 100).map((tr) =>
        [7, 8, 9].map((i) => Number(tr.cells[i].textContent))));
    await page.click('#queues-pager button.next');
    result.next = (await read()).pagers.queues;
    const text = option('--filter');
    if (text !== undefined) {
      const typed = Date.now();
      await page.evaluate((value) => {
        const box = document.getElementById('filter-text');
        box.value = value;
        box.dispatchEvent(new Event('input'));
      }, text);
      result.filter_ms = Date.now() - typed;
      const after = await read();
      result.filtered = {
        rows: after.pagers.queues.rows, names: after.names, findings: after.pagers.findings.rows,
        graph: after.graph.nodes,
      };
      await page.click('#filter-clear');
    }
    // A severity filter: the queues with an error.
    await page.select('#filter-severity', 'error');
    result.with_errors = (await read()).pagers.queues.rows;
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + '\n');
  process.exit(1);
});
