// The `commerce` process: bin/commerce.js runs this file's bundle (dist/cli/commerce.js).
import { main } from './index.ts'

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env })
