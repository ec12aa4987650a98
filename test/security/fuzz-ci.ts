// The schema-driven fuzzer (test/security/fuzz.stress.ts, reliability plan BI-01..BI-06) in the normal
// suite: 1,000 runs a route on each backend (84,000 requests each), so every CI run (PGlite, then
// PostgreSQL + Redis, each file with its own random seed) fuzzes the plan's 2,000 cases a route. Split
// into six files (fuzz-1..6.test.ts, FUZZ_SHARD) so the test runner's two file slots fuzz in parallel,
// with the time bounds of docs/reliability.md: 1 s for every answer, 2 s for bodies of 16 KiB and more.
// At 1,500 a route the six files took 3 min 30 s-5 min 19 s a backend; at 1,000, 2 min 23-33 s.
// The nightly run (`npm run test:stress`) does 10,000 a route. Where the time goes and what was done
// about it: the header of fuzz.stress.ts. FUZZ_SEED (printed by each shard) with the file replays a
// failure; FUZZ_RUNS overrides the count.
process.env.FUZZ_RUNS ??= '1000'
process.env.FUZZ_SLOW_MS ??= '1000'
process.env.FUZZ_LARGE_SLOW_MS ??= '2000'
await import('./fuzz.stress.ts')
