// A one-line progress bar on stderr (only when stderr is a terminal, so logs and --json stay clean).
export function progressBar(label: string): (done: number, total: number) => void {
  if (!process.stderr.isTTY) return () => {}
  let last = -1
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100)
    if (percent === last && done !== total) return
    last = percent
    const width = 30
    const filled = Math.round((percent / 100) * width)
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% (${done}/${total})`)
    if (done === total) process.stderr.write('\n')
  }
}
