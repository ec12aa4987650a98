// Shard 6 of 6 of the CI fuzz: see test/security/fuzz-ci.ts.
process.env.FUZZ_SHARD ??= '6/6'
await import('./fuzz-ci.ts')
