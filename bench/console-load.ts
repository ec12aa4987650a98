// `npm run bench:console`: the back-office console's first load (issue #26 targets: under 1 MB of
// compressed JavaScript, under 1.5 s to interactive on this machine). Builds the service and the
// console as `npm start` does, starts the server from dist/ on a throwaway DATA_DIR, and loads
// /admin cold (a new browser context each time: empty cache) in Debian's Chromium, RUNS times:
// the time is the page's own clock from the start of its navigation until the sign-in form takes
// typing. Prints the JavaScript the page loads (raw, and the compressed bytes actually sent) and
// the median and worst load; record them in docs/benchmarks.md.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'

const RUNS = Number(process.env.RUNS ?? 7)
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number }
    probe.close(() => resolve(port))
  })
})
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' })
const dataDir = mkdtempSync(join(tmpdir(), 'console-bench-'))
const server = spawn(process.execPath, ['dist/server.js'], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdio: 'ignore' })
const base = `http://127.0.0.1:${port}`
try {
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error('the server did not start within 60 s')
    if (await fetch(`${base}/api/v1/health/live`).then((r) => r.ok, () => false)) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const times: number[] = []
  let scripts = { raw: 0, sent: 0 }
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const loaded: { url: string; sent: number; raw: number }[] = []
    page.on('requestfinished', async (request) => {
      if (request.resourceType() !== 'script') return
      const sizes = await request.sizes()
      const body = await (await request.response())?.body()
      loaded.push({ url: request.url(), sent: sizes.responseBodySize, raw: body?.length ?? 0 })
    })
    await page.goto('about:blank')
    await page.goto(`${base}/admin`, { waitUntil: 'commit' })
    await page.locator('input[name="username"]').fill('x')
    times.push(await page.evaluate(() => performance.now()))
    await page.waitForLoadState('networkidle')
    scripts = { raw: loaded.reduce((n, s) => n + s.raw, 0), sent: loaded.reduce((n, s) => n + s.sent, 0) }
    await context.close()
  }
  await browser.close()
  times.sort((a, b) => a - b)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
  console.log(`console first load, ${RUNS} cold loads: median ${Math.round(times[Math.floor(times.length / 2)]!)} ms, worst ${Math.round(times.at(-1)!)} ms (target 1500 ms)`)
  console.log(`JavaScript loaded: ${kb(scripts.raw)} raw, ${kb(scripts.sent)} sent compressed (target 1 MB)`)
} finally {
  server.kill()
  rmSync(dataDir, { recursive: true, force: true })
}
