// What a command is, where it writes, and how it reaches the database. Kept light: `commerce --help`
// loads this file and the command files only; the database, Fastify and the modules load when a
// command runs (dynamic imports), so help and usage errors answer at once.
import type { Config } from '../config.ts'
import type { Deps } from '../deps.ts'

/** Where a command writes (the process's streams, or strings a test captures) and what it reads. */
export interface CliContext {
  stdout: { write(text: string): unknown }
  /** `isTTY`: a terminal, where long commands draw their progress. */
  stderr: { write(text: string): unknown; isTTY?: boolean }
  env: Record<string, string | undefined>
  /**
   * An open database (and Redis) for the commands to use, left open after them: tests run many
   * commands in one process on one test database. Without it each command opens and migrates the
   * database of `env` and closes it at the end, as the `commerce` process does.
   */
  runtime?: Deps
  /**
   * The database of `env` being opened for this command (runCommandLine starts it as soon as the
   * command line is parsed): the command's modules load meanwhile. withRuntime takes it over.
   */
  opening?: Opening
}

/** A runtime being opened, once: whoever takes it closes it. */
export interface Opening {
  take(): Promise<Deps & { close(): Promise<void> }>
  /** Closes it if no command took it (the command failed before it needed the database). */
  closeUntaken(): Promise<void>
}

/**
 * Starts opening the database of `config` now. PGlite's start (~0.5 s, partly waiting on its
 * WebAssembly compiling) and the command's own imports then overlap.
 */
export function openEarly(config: Config): Opening {
  const runtime = import('../bootstrap.ts').then(({ openRuntime }) => openRuntime(config))
  runtime.catch(() => {}) // the error is the command's, when it takes the runtime
  let taken = false
  return {
    take() {
      taken = true
      return runtime
    },
    async closeUntaken() {
      if (taken) return
      taken = true
      await runtime.then((r) => r.close(), () => {})
    },
  }
}

export interface Command {
  summary: string
  options: Record<string, { type: 'string' | 'boolean'; description?: string; required?: boolean }>
  /** One positional argument, when the command takes one (e.g. FILE). */
  positional?: { name: string; description: string }
  /**
   * The command keeps the database busy for long (minutes on a large catalog): the `commerce` process
   * then lets V8 optimise PGlite's WebAssembly, which every other command skips (decision 0040).
   * A function decides from the command line (e.g. the size of the file it reads).
   */
  long?: true | ((values: Record<string, string | boolean | undefined>, positionals: string[]) => boolean)
  /** Lines the command's help ends with (e.g. the columns of a file it reads). */
  notes?: string[]
  /** A combination of options that cannot run, as a usage error's message (exit 2); undefined if it can. */
  usage?(values: Record<string, string | boolean | undefined>, positionals: string[]): string | undefined
  /** The result, printed on stdout; `exitCode` 1 for a result that is a failure (a dry run that found problems). */
  run(config: Config, values: Record<string, string | boolean | undefined>, positionals: string[], context: CliContext): Promise<{ text: string; json: unknown; exitCode?: number }>
}

/** A command line that cannot be run as written (unknown command or option, missing option): exit 2. */
export class UsageError extends Error {
  /** The help to print after the message (not under --json). */
  readonly help: string

  constructor(message: string, help: string) {
    super(message)
    this.help = help
    this.name = 'UsageError'
  }
}

/** Opens the database (migrating it) for the length of one command, unless the context holds one open. */
export async function withRuntime<T>(config: Config, context: CliContext, work: (deps: Deps) => Promise<T>): Promise<T> {
  if (context.runtime) return work(context.runtime)
  const runtime = await (context.opening ?? openEarly(config)).take()
  try {
    return await work(runtime)
  } finally {
    await runtime.close()
  }
}
