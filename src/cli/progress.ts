// Progress of a long command (catalog import, bench-data, seed), on stderr so that stdout holds only
// the result (and stays valid JSON under --json). On a terminal: a live line (a bar when the work
// has a count, the elapsed seconds otherwise), replaced by the summary at the end. Piped or in a
// log: no live line, only the summary, once.
import type { CliContext } from './command.ts'

export interface Progress {
  /** A new phase ("Opening the database"): shown with its elapsed time until the next one. */
  step(label: string): void
  /** Counted work of the current phase. */
  update(done: number, total: number): void
  /** Ends the progress: the summary line on a terminal and when piped; without one (a failure) the live line is cleared. */
  end(summary?: string): void
}

const BAR_WIDTH = 30

export function startProgress(context: CliContext, label: string): Progress {
  const started = Date.now()
  const live = context.stderr.isTTY === true
  let current = label
  let stepStarted = started
  let lastPercent = -1
  let ticker: NodeJS.Timeout | undefined
  const draw = (text: string) => context.stderr.write(`\r\x1b[2K${text}`)
  const drawStep = () => draw(`${current}… ${((Date.now() - stepStarted) / 1000).toFixed(1)} s`)
  const stopTicker = () => {
    if (ticker) clearInterval(ticker)
    ticker = undefined
  }
  const progress: Progress = {
    step(next) {
      current = next
      stepStarted = Date.now()
      lastPercent = -1
      if (!live) return
      drawStep()
      stopTicker()
      ticker = setInterval(drawStep, 250)
      ticker.unref()
    },
    update(done, total) {
      if (!live) return
      stopTicker()
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100)
      if (percent === lastPercent && done !== total) return
      lastPercent = percent
      const filled = Math.round((percent / 100) * BAR_WIDTH)
      draw(`${current} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${percent}% (${done}/${total})`)
    },
    end(summary) {
      stopTicker()
      if (summary !== undefined) context.stderr.write(live ? `\r\x1b[2K${summary}\n` : `${summary}\n`)
      else if (live) context.stderr.write('\r\x1b[2K')
    },
  }
  progress.step(label)
  return progress
}

/** Seconds since `started`, as the summaries print them: "1.2". */
export const secondsSince = (started: number) => ((Date.now() - started) / 1000).toFixed(1)

/** Runs `work` with a progress display that ends with `summary` (or is cleared if the work fails). */
export async function withProgress<T>(context: CliContext, label: string, work: (progress: Progress) => Promise<T>, summary: (result: T, seconds: string) => string): Promise<T> {
  const started = Date.now()
  const progress = startProgress(context, label)
  let result: T
  try {
    result = await work(progress)
  } catch (err) {
    progress.end()
    throw err
  }
  progress.end(summary(result, secondsSince(started)))
  return result
}
