// `commerce <command>`: operations on the database from the command line. On the embedded database
// the server must be stopped (it serves one process); on PostgreSQL it can run beside the servers.
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../config.ts'
import { DatabaseLockedError } from '../db/client.ts'
import { AppError } from '../lib/errors.ts'
import { adminCreate } from './admin.ts'
import { apikeyCreate, apikeyList, apikeyRevoke } from './apikey.ts'
import { benchData, catalogImport } from './catalog.ts'
import type { Command } from './command.ts'
import { migrate } from './migrate.ts'
import { partnerCreate, partnerDeactivate, partnerList, partnerReturnOrigins, partnerRotateSecret } from './partner.ts'
import { seed } from './seed.ts'

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
  'bench-data': benchData,
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(16)} ${c.summary}`)
  return ['Usage: commerce <command> [options]', '', 'Commands:', ...lines, '', 'Run `commerce <command> --help` for its options.'].join('\n')
}

function commandHelp(name: string, command: Command): string {
  const options = Object.entries(command.options).map(
    ([flag, o]) => `  --${flag}${o.type === 'string' ? ' <value>' : ''}`.padEnd(26) + (o.description ?? ''),
  )
  const positional = command.positional ? ` ${command.positional.name}` : ''
  return [`Usage: commerce ${name}${positional} [options]`, '', command.summary, ...(command.positional ? ['', `  ${command.positional.name.padEnd(24)}${command.positional.description}`] : []), '', 'Options:', ...options, '  --json'.padEnd(26) + 'Print machine-readable JSON', '  --help'.padEnd(26) + 'Show this help'].join('\n')
}

async function main(argv: string[]): Promise<number> {
  const two = argv.slice(0, 2).join(' ')
  const name = COMMANDS[two] ? two : argv[0]
  const command = name ? COMMANDS[name] : undefined
  if (!command) {
    const wantsHelp = argv.length === 0 || argv.includes('--help') || argv[0] === 'help'
    ;(wantsHelp ? process.stdout : process.stderr).write(`${usage()}\n`)
    return wantsHelp ? 0 : 1
  }
  const rest = argv.slice(name!.split(' ').length)
  let values: Record<string, string | boolean | undefined>
  let positionals: string[]
  try {
    const parsed = parseArgs({
      args: rest,
      options: {
        ...Object.fromEntries(Object.entries(command.options).map(([k, o]) => [k, { type: o.type }])),
        json: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: command.positional !== undefined,
    })
    values = parsed.values as typeof values
    positionals = parsed.positionals
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${commandHelp(name!, command)}\n`)
    return 1
  }
  if (values.help) {
    process.stdout.write(`${commandHelp(name!, command)}\n`)
    return 0
  }
  for (const [flag, o] of Object.entries(command.options)) {
    if (o.required && values[flag] === undefined) {
      process.stderr.write(`Missing --${flag}\n\n${commandHelp(name!, command)}\n`)
      return 1
    }
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' })
  if (command.positional && positionals.length !== 1 && !values.help) {
    process.stderr.write(`Missing ${command.positional.name}\n\n${commandHelp(name!, command)}\n`)
    return 1
  }
  const result = await command.run(config, values, positionals)
  if (values.json) process.stdout.write(`${JSON.stringify(result.json)}\n`)
  else process.stdout.write(`${result.text}\n`)
  return 0
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (err) {
  if (err instanceof ConfigError || err instanceof DatabaseLockedError || err instanceof AppError) {
    const details = err instanceof AppError && err.details ? err.details.map((d) => `  ${d}\n`).join('') : ''
    process.stderr.write(`${err.message}\n${details}`)
    process.exitCode = 1
  } else {
    throw err
  }
}
