// The `commerce` process: bin/commerce.js runs this file's bundle (dist/cli/commerce.js).
import { setFlagsFromString } from 'node:v8'
import { main, runsLong } from './index.ts'

const argv = process.argv.slice(2)
// A command opens the embedded database, runs a few statements and exits. V8 would also compile
// PGlite's 9 MB of WebAssembly a second time, optimised, on background threads, and the process
// waits for that work to finish before it can exit: ~0.3 s of a 1.2 s command. Baseline code only
// (Liftoff) runs such a command in ~0.85 s; a long command keeps the optimising tier (decision 0040).
// Set before the database's module is compiled (it is loaded when the command runs).
if (!runsLong(argv)) setFlagsFromString('--liftoff-only')

process.exitCode = await main(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env })
