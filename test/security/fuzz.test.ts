// The schema-driven fuzzer (test/security/fuzz.stress.ts, reliability plan BI-01..BI-06) in the normal
// suite, sized for CI: 100 runs per route (8,400 requests, about 40 s alone on a loaded 2-core box
// on either backend) and the time bounds of docs/reliability.md: 1 s for every answer, 2 s for
// bodies of 16 KiB and more (deep nesting, 10,000 keys, 1 MiB + 1; measured worst 115 ms under
// load). The nightly run is `npm run test:stress` (2,000 runs per route). FUZZ_SEED replays a failure.
process.env.FUZZ_RUNS ??= '100'
process.env.FUZZ_SLOW_MS ??= '1000'
process.env.FUZZ_LARGE_SLOW_MS ??= '2000'
await import('./fuzz.stress.ts')
