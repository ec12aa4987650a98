import type { Config } from '../config.ts'
import { openRuntime } from '../bootstrap.ts'
import type { Deps } from '../deps.ts'

export interface Command {
  summary: string
  options: Record<string, { type: 'string' | 'boolean'; description?: string; required?: boolean }>
  /** One positional argument, when the command takes one (e.g. FILE). */
  positional?: { name: string; description: string }
  run(config: Config, values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<{ text: string; json: unknown }>
}

/** Opens the database (migrating it) for the length of one command. */
export async function withRuntime<T>(config: Config, work: (deps: Deps) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(config)
  try {
    return await work(runtime)
  } finally {
    await runtime.close()
  }
}
