// The schema-driven fuzzer (test/security/fuzz.stress.ts, reliability plan BI-01..BI-06) in CI's
// PostgreSQL + Redis run: 200 runs a route (172 routes and unknown ones: about 35,000 requests),
// each file with its own random seed, so successive runs fuzz different cases. Split into six files
// (fuzz-1..6.test.ts, FUZZ_SHARD) so the test runner's two file slots fuzz in parallel, with the time
// bounds of docs/reliability.md: 1 s for every answer, 2 s for bodies of 16 KiB and more. At 500 a
// route the six files took 777 s of file time on the 2-core box of 2026-11-28, 40 % of a PostgreSQL
// run that must fit in CI's 30 minutes with the embedded one (decision 0036). The nightly run
// (`npm run test:stress`) does 10,000 a route. Where the time goes and what was done about it: the
// header of fuzz.stress.ts. FUZZ_SEED (printed by each shard) with the file replays a failure;
// FUZZ_RUNS overrides the count.
process.env.FUZZ_RUNS ??= '200'
process.env.FUZZ_SLOW_MS ??= '1000'
process.env.FUZZ_LARGE_SLOW_MS ??= '2000'
await import('./fuzz.stress.ts')
