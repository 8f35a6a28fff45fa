// trace-screenshot.mjs opens a trace written by `lintel bench -trace` in
// the Performance panel of the DevTools that ship with Chromium, zooms to a
// few graph runs, selects the longest node run among them, and saves a
// screenshot. It needs no network: it starts a headless Chromium, opens
// the DevTools front end that Chromium serves on its debugging port and
// loads the file through the panel's "Load profile" file input.
//
// It is a manual check of the trace format, not part of the tests:
//
//	lintel bench model.onnx -profile -trace trace.json
//	node --experimental-websocket docs/tools/trace-screenshot.mjs trace.json trace.png [FIRST_RUN [RUNS]]
//
// FIRST_RUN (default 200) is the first graph run shown and RUNS (default
// 2) how many are shown. It needs Node 20 (Node 22 has WebSocket without
// the flag) and a `chromium` (or $CHROMIUM) on PATH. The panel's layout
// changes between Chromium versions; the clicks that expand the tracks
// and select a span were placed for Chromium 156.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [tracePath, outPath, firstArg = '200', runsArg = '2'] = process.argv.slice(2);
if (!tracePath || !outPath) {
  console.error('usage: node --experimental-websocket trace-screenshot.mjs TRACE.json OUT.png [FIRST_RUN [RUNS]]');
  process.exit(2);
}
const width = 1600, height = 900;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The graph runs to show, from the trace itself.
const spans = JSON.parse(fs.readFileSync(tracePath, 'utf8')).traceEvents.filter((e) => e.ph === 'X');
const first = Number(firstArg), runs = Number(runsArg);
const shown = spans.filter((e) => e.args.graph_run >= first && e.args.graph_run < first + runs);
if (shown.length === 0) {
  console.error(`the trace has no graph runs ${first} to ${first + runs - 1}`);
  process.exit(1);
}
const end = shown.at(-1).ts + shown.at(-1).dur;
const pad = (end - shown[0].ts) * 0.01;
const lo = shown[0].ts - pad, hi = end + pad;
const longest = shown.reduce((a, b) => (b.dur > a.dur ? b : a));

// Start Chromium on a free port and read the port from its log.
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'trace-screenshot-'));
const chromium = spawn(process.env.CHROMIUM || 'chromium',
  ['--headless=new', '--remote-debugging-port=0', '--no-sandbox', `--user-data-dir=${profile}`,
    `--window-size=${width},${height}`, 'about:blank'],
  { stdio: ['ignore', 'ignore', 'pipe'] });
const port = await new Promise((resolve, reject) => {
  let log = '';
  chromium.stderr.on('data', (d) => {
    log += d;
    const m = log.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//);
    if (m) resolve(m[1]);
  });
  chromium.on('exit', (code) => reject(new Error(`chromium exited (${code}):\n${log}`)));
});

// connect opens a DevTools protocol session with a page target.
async function connect(target) {
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  let id = 0;
  const pending = new Map();
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`${p.method}: ${m.error.message}`));
    else p.resolve(m.result);
  };
  const send = (method, params = {}) => new Promise((resolve, reject) => {
    pending.set(++id, { method, resolve, reject });
    ws.send(JSON.stringify({ id, method, params }));
  });
  const evaluate = async (expression) => {
    const r = await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description || r.exceptionDetails.text);
    return r.result.value;
  };
  return { send, evaluate, close: () => ws.close() };
}

// deepAll finds elements in the page and its shadow roots.
const deepAll = `((sel) => { const out = []; const walk = (root) => {
  root.querySelectorAll(sel).forEach((e) => out.push(e));
  root.querySelectorAll('*').forEach((e) => e.shadowRoot && walk(e.shadowRoot)); };
  walk(document); return out; })`;

async function until(what, f, ms = 30000) {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(200)) {
    if (await f()) return;
  }
  throw new Error(`timed out waiting for ${what}`);
}

let session;
try {
  const base = `http://127.0.0.1:${port}`;
  const page = (await (await fetch(`${base}/json/list`)).json()).find((t) => t.type === 'page');
  const front = `${base}/devtools/devtools_app.html?ws=127.0.0.1:${port}/devtools/page/${page.id}&panel=timeline`;
  const target = await (await fetch(`${base}/json/new?${encodeURIComponent(front)}`, { method: 'PUT' })).json();
  session = await connect(target);
  const { send, evaluate } = session;
  await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  await send('DOM.enable');

  // Load the file as "Load profile" does.
  await until('the Performance panel', () => evaluate(`${deepAll}('input[type=file]').length > 0`));
  const input = await send('Runtime.evaluate', { expression: `${deepAll}('input[type=file]')[0]` });
  await send('DOM.setFileInputFiles', { files: [path.resolve(tracePath)], objectId: input.result.objectId });
  const bounds = `(await import('./services/trace_bounds/trace_bounds.js')).TraceBounds.BoundsManager.instance()`;
  await until('the trace to load', () => evaluate(`(async () => (${bounds}).state()?.micro.entireTraceBounds.range > 0)()`));
  await sleep(1000);

  // Close the first-run shortcuts dialog and the sidebar, then zoom.
  await evaluate(`${deepAll}('button[aria-label="Close"], button[aria-label="Hide sidebar"]')
    .forEach((b) => b.offsetParent !== null && b.click())`);
  await sleep(300);
  await evaluate(`(async () => (${bounds}).setTimelineVisibleWindow({min: ${lo}, max: ${hi}, range: ${hi - lo}}))()`);
  await sleep(1000);

  // Expand the process track, then its thread, and select the longest
  // node run: its name, op and graph run show in the Summary tab.
  const chart = await evaluate(`(() => { const c = ${deepAll}('canvas').map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > ${width / 2} && r.height > 100).sort((a, b) => a.top - b.top)[0];
    return c && {left: c.left, top: c.top, width: c.width}; })()`);
  if (!chart) throw new Error('no flame chart found');
  const click = async (x, y) => {
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased']) {
      await send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
    }
    await sleep(500);
  };
  await click(chart.left + 60, chart.top + 26);
  await click(chart.left + 40, chart.top + 42);
  await click(chart.left + ((longest.ts + longest.dur / 2 - lo) / (hi - lo)) * chart.width, chart.top + 60);
  await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: width - 5, y: height - 5 });
  await sleep(1000);

  const shot = await send('Page.captureScreenshot', { format: 'png' });
  fs.writeFileSync(outPath, Buffer.from(shot.data, 'base64'));
  console.log(`wrote ${outPath}: graph runs ${first} to ${first + runs - 1}, ${shown.length} node runs; selected ${longest.name} (${longest.cat}, ${longest.dur} µs)`);
} finally {
  session?.close();
  chromium.kill();
  await new Promise((r) => (chromium.exitCode !== null ? r() : chromium.on('exit', r)));
  fs.rmSync(profile, { recursive: true, force: true });
}
