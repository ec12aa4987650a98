#!/usr/bin/env node
// The `commerce` command line. The service runs TypeScript directly through tsx (see docs/decisions).
import { register } from 'tsx/esm/api'

register()
await import('../src/cli/main.ts')
