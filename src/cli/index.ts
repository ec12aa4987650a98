// `commerce <command>`: operations on the database from the command line. On the embedded database
// the server must be stopped (it serves one process); on PostgreSQL it can run beside the servers.
//
// `main` runs one command line and answers its exit code: 0 done, 1 the command failed (or its
// result is a failure: a dry run that found problems), 2 the command line is wrong (unknown command
// or option, missing option or FILE, options that do not go together). Results go to stdout;
// errors and progress to stderr. Under --json the result is one JSON document on stdout and an
// error one JSON document on stderr: {"error":{"code","message","details"?}}.
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../config.ts'
import { AppError } from '../lib/errors.ts'
import { adminCreate } from './admin.ts'
import { apikeyCreate, apikeyList, apikeyRevoke } from './apikey.ts'
import { benchData, catalogExport, catalogImport } from './catalog.ts'
import { type CliContext, type Command, openEarly, UsageError } from './command.ts'
import { migrate } from './migrate.ts'
import { partnerCreate, partnerDeactivate, partnerList, partnerReturnOrigins, partnerRotateSecret } from './partner.ts'
import { seed } from './seed.ts'

export type { CliContext } from './command.ts'

const COMMANDS: Record<string, Command> = {
  migrate,
  seed,
  'partner create': partnerCreate,
  'partner return-origins': partnerReturnOrigins,
  'partner list': partnerList,
  'partner rotate-secret': partnerRotateSecret,
  'partner deactivate': partnerDeactivate,
  'apikey create': apikeyCreate,
  'apikey list': apikeyList,
  'apikey revoke': apikeyRevoke,
  'admin create': adminCreate,
  'catalog import': catalogImport,
  'catalog export': catalogExport,
  'bench-data': benchData,
}

/** Two columns, the second starting two spaces after the longest entry of the first. */
function columns(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`.trimEnd())
}

export function usage(): string {
  const lines = columns(Object.entries(COMMANDS).map(([name, c]) => [name, c.summary]))
  return ['Usage: commerce <command> [options]', '', 'Commands:', ...lines, '', 'Run `commerce <command> --help` for its options.'].join('\n')
}

export function commandHelp(name: string, command: Command): string {
  const options = columns([
    ...Object.entries(command.options).map(([flag, o]): [string, string] => [`--${flag}${o.type === 'string' ? ' <value>' : ''}`, o.description ?? '']),
    ['--json', 'Print machine-readable JSON (errors too, on stderr)'],
    ['--help', 'Show this help'],
  ])
  const positional = command.positional ? ` ${command.positional.name}` : ''
  return [
    `Usage: commerce ${name}${positional} [options]`,
    '',
    command.summary,
    ...(command.positional ? ['', ...columns([[command.positional.name, command.positional.description]])] : []),
    '',
    'Options:',
    ...options,
    ...(command.notes ? ['', ...command.notes] : []),
  ].join('\n')
}

/** The command an argument list names: its name, or null (then `unknown` is what was asked for). */
function findCommand(argv: string[]): { name: string; command: Command } | { unknown: string } {
  const two = argv.slice(0, 2).join(' ')
  if (COMMANDS[two]) return { name: two, command: COMMANDS[two] }
  const one = argv[0] ?? ''
  if (COMMANDS[one]) return { name: one, command: COMMANDS[one] }
  // `partner frobnicate`: name the pair, not only the group.
  const isGroup = Object.keys(COMMANDS).some((n) => n.startsWith(`${one} `))
  return { unknown: isGroup && argv[1] && !argv[1].startsWith('-') ? two : one }
}

/** Whether the command line names a command that keeps the database busy for long (`Command.long`). */
export function runsLong(argv: string[]): boolean {
  const found = findCommand(argv)
  if (!('command' in found) || !found.command.long) return false
  const { long } = found.command
  if (long === true) return true
  try {
    const { values, positionals } = parseCommandLine(argv, found.name, found.command)
    return long(values, positionals)
  } catch {
    return false // a usage error: the command will not run
  }
}

function parseCommandLine(argv: string[], name: string, command: Command) {
  const parsed = parseArgs({
    args: argv.slice(name.split(' ').length),
    options: {
      ...Object.fromEntries(Object.entries(command.options).map(([k, o]) => [k, { type: o.type }])),
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: command.positional !== undefined,
  })
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals }
}

async function runCommandLine(argv: string[], context: CliContext): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    context.stdout.write(`${usage()}\n`)
    return 0
  }
  const found = findCommand(argv)
  if ('unknown' in found) {
    if (argv.includes('--help')) {
      context.stdout.write(`${usage()}\n`)
      return 0
    }
    throw new UsageError(`Unknown command: ${found.unknown}`, usage())
  }
  const { name, command } = found
  const help = () => commandHelp(name, command)
  let values: Record<string, string | boolean | undefined>
  let positionals: string[]
  try {
    ;({ values, positionals } = parseCommandLine(argv, name, command))
  } catch (err) {
    throw new UsageError((err as Error).message, help())
  }
  if (values.help) {
    context.stdout.write(`${help()}\n`)
    return 0
  }
  for (const [flag, o] of Object.entries(command.options)) {
    if (o.required && values[flag] === undefined) throw new UsageError(`Missing --${flag}`, help())
  }
  if (command.positional && positionals.length === 0) throw new UsageError(`Missing ${command.positional.name}`, help())
  if (command.positional && positionals.length > 1) throw new UsageError(`Only one ${command.positional.name}, got ${positionals.length}`, help())
  const wrong = command.usage?.(values, positionals)
  if (wrong) throw new UsageError(wrong, help())
  const config = loadConfig({ ...context.env, LOG_LEVEL: context.env.LOG_LEVEL ?? 'warn' })
  // Every command reads or writes the database: it starts opening now, while the command loads.
  const opening = context.runtime ? undefined : openEarly(config)
  try {
    const result = await command.run(config, values, positionals, { ...context, opening })
    context.stdout.write(values.json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`)
    return result.exitCode ?? 0
  } finally {
    await opening?.closeUntaken()
  }
}

/** What an error prints and exits with: expected failures are one message; a bug shows its stack. */
async function describeError(err: unknown): Promise<{ code: string; message: string; details?: string[]; exitCode: number; help?: string; stack?: string }> {
  if (err instanceof UsageError) return { code: 'USAGE', message: err.message, help: err.help, exitCode: 2 }
  if (err instanceof AppError) return { code: err.code, message: err.message, details: err.details, exitCode: 1 }
  if (err instanceof ConfigError) return { code: 'CONFIG', message: err.message, exitCode: 1 }
  // Loaded already if it was thrown (the database opened); loading it here keeps --help light.
  const { DatabaseLockedError } = await import('../db/client.ts')
  if (err instanceof DatabaseLockedError) return { code: 'DATABASE_LOCKED', message: err.message, exitCode: 1 }
  const error = err instanceof Error ? err : new Error(String(err))
  return { code: 'INTERNAL', message: error.message, stack: error.stack, exitCode: 1 }
}

/** Runs one command line (`argv` without `node` and the script) and answers its exit code. */
export async function main(argv: string[], context: CliContext): Promise<number> {
  const json = argv.includes('--json')
  try {
    return await runCommandLine(argv, context)
  } catch (err) {
    const e = await describeError(err)
    if (json) {
      context.stderr.write(`${JSON.stringify({ error: { code: e.code, message: e.message, ...(e.details?.length ? { details: e.details } : {}) } })}\n`)
    } else {
      const details = e.details?.map((d) => `  ${d}\n`).join('') ?? ''
      context.stderr.write(`${e.stack ?? e.message}\n${details}${e.help ? `\n${e.help}\n` : ''}`)
    }
    return e.exitCode
  }
}
