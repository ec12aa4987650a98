// Event-loop delay of the process it is loaded into, for the stress rows (scripts/stress.ts starts
// the server with `node --import ./test/load/loop-probe.mjs`): every second one JSON line appended
// to LOOP_PROBE_FILE with the delay's p99 and max (ms, the 1 ms timer resolution taken off) over that second and since the
// totals were last restarted: the stress script creates LOOP_PROBE_FILE.reset when its soak starts
// (a signal would not do: close-with-grace shuts the server down on SIGUSR2). Harness only: the
// server does not load it.
import { appendFileSync, existsSync, rmSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import process from 'node:process'
import { setInterval } from 'node:timers'

const file = process.env.LOOP_PROBE_FILE
if (file) {
  // A sample is the time between two timer ticks 1 ms apart: the delay is that minus the 1 ms.
  const second = monitorEventLoopDelay({ resolution: 1 })
  const total = monitorEventLoopDelay({ resolution: 1 })
  second.enable()
  total.enable()
  const ms = (ns) => Math.max(0, Math.round((ns - 1e6) / 1e4) / 100)
  setInterval(() => {
    if (existsSync(`${file}.reset`)) {
      rmSync(`${file}.reset`, { force: true })
      total.reset()
    }
    const line = { at: Date.now(), p99: ms(second.percentile(99)), max: ms(second.max), totalP99: ms(total.percentile(99)), totalMax: ms(total.max) }
    appendFileSync(file, `${JSON.stringify(line)}\n`)
    second.reset()
  }, 1000).unref()
}
