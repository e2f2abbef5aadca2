/** The command line: declares commands and options, runs them, and turns results into exit codes. */
import { Command, CommanderError } from 'commander'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CHECKS, type CheckName } from './check/names.ts'
import { allowedHostName } from './serve/host-names.ts'
import { packageDir } from './util/package.ts'
import { formatDiagnostic, formatInternalError, UsageError } from './errors.ts'

const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }

async function runBuild({ profile, ...options }: { out: string; root: string; profile?: boolean }): Promise<number> {
  // Loaded here, like the other commands: `--version` and `--help` load none of them.
  const [{ build }, { formatProfile, formatSummary }] = await Promise.all([import('./build/build.ts'), import('./build/summary.ts')])
  const progress = progressPrinter()
  const result = await build({ ...options, onProgress: progress })
  for (const d of result.diagnostics) console.error(formatDiagnostic(d))
  if (!result.ok) {
    const n = result.diagnostics.filter((d) => d.severity === 'error').length
    console.error(`\n${n} error${n === 1 ? '' : 's'}: the site was not built and ${options.out} was left as it was.`)
    return 1
  }
  const { reused, rendered } = result.pages!
  if (result.upToDate) console.log(`Nothing changed since the last build, and ${options.out} holds its ${reused} pages as it left them.\n`)
  else if (result.patched) console.log(`Only Markdown bodies changed: ${rendered} page${rendered === 1 ? '' : 's'} rendered and replaced in ${options.out}, the other ${reused} as the last build left them.\n`)
  else if (rendered === 0) console.log(`Nothing changed since the last build: all ${reused} pages were re-used from .clinic/cache.\n`)
  else if (reused > 0) console.log(`${rendered} page${rendered === 1 ? '' : 's'} rendered, ${reused} unchanged ones re-used from .clinic/cache.\n`)
  console.log(formatSummary(result.summary!, result.timings))
  if (profile) console.log(formatProfile(result))
  return 0
}

/** Prints render progress when a build has more than a few hundred pages. */
function progressPrinter() {
  let lastShown = 0
  return (done: number, total: number) => {
    if (total < 300) return
    const percent = Math.floor((done / total) * 100)
    if (percent < lastShown + 10 && done !== total) return
    lastShown = percent
    process.stderr.write(`rendering ${done}/${total} pages (${percent}%)\n`)
  }
}

function program(): Command {
  const cli = new Command('clinic-build')
    .description('Builds the clinic website from Markdown, locale files and templates.')
    .version(version, '-v, --version')
    .option('--debug', 'after an internal error (a bug in clinic-build), print its stack trace')
    .exitOverride()
    .configureOutput({ writeErr: () => {} })
  const buildCommand = cli.command('build', { isDefault: true })
    .description('build the site (the default command)')
    .option('-o, --out <dir>', 'output folder', 'dist')
    .option('-r, --root <dir>', 'site folder holding content/, locales/ and static/', '.')
    .option('--profile', 'print the time spent parsing, rendering, minifying and writing')
    .action(async (options) => { process.exitCode = await runBuild(options) })
  // Building is what `clinic-build` alone does, so its options belong on the first help page too.
  cli.addHelpText('after', () => `\nOptions of build, the default command (clinic-build --out dist):\n${optionList(buildCommand)}`)
  cli.command('dev')
    .description('build, serve and rebuild on every save, updating open browser tabs')
    .option('-r, --root <dir>', 'site folder holding content/, locales/ and static/', '.')
    .option('-p, --port <number>', 'port; a taken port moves on to the next free one', parsePort, 4321)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--allowed-host <name>', ALLOWED_HOST_HELP, collectHostName)
    .option('--open', 'open the site in the default browser')
    .action(async ({ allowedHost, ...options }) => { const { dev } = await import('./serve/dev/dev.ts'); await dev({ ...options, allowedHosts: allowedHost }) })
  cli.command('serve')
    .description('serve a built folder the way the CDN will (redirects, 404 pages, caching, compression, _headers)')
    .option('-o, --out <dir>', 'the built folder', 'dist')
    .option('-r, --root <dir>', 'site folder (for the local contact endpoint)', '.')
    .option('-p, --port <number>', 'port; a taken port moves on to the next free one', parsePort, 8080)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--allowed-host <name>', ALLOWED_HOST_HELP, collectHostName)
    .action(async ({ allowedHost, ...options }) => { const { serve } = await import('./serve/serve.ts'); await serve({ ...options, allowedHosts: allowedHost }) })
  cli.command('check')
    .description(`check the built site: ${CHECKS.join(', ')}; exit 1 on any error`)
    .option('-o, --out <dir>', 'the built folder', 'dist')
    .option('-r, --root <dir>', 'site folder holding content/, locales/ and static/', '.')
    .option('--only <checks>', `comma-separated checks to run (${CHECKS.join(', ')})`, parseChecks)
    .option('--all', 'ignore the check cache and open every page in the browser (before a release)')
    .action(async (options) => { process.exitCode = await runCheck(options) })
  return cli
}

/** A command's options, laid out as commander lays out its own help. */
function optionList(command: Command): string {
  const help = command.createHelp()
  const options = help.visibleOptions(command).filter((o) => o.long !== '--help')
  const width = Math.max(...options.map((o) => help.optionTerm(o).length))
  return options.map((o) => `  ${help.optionTerm(o).padEnd(width)}  ${help.optionDescription(o)}`).join('\n')
}

function parseChecks(value: string): CheckName[] {
  const names = value.split(',').map((n) => n.trim()).filter(Boolean)
  const unknown = names.filter((n) => !(CHECKS as readonly string[]).includes(n))
  if (unknown.length) throw new UsageError(`--only takes ${CHECKS.join(', ')}; got "${unknown.join(', ')}".`)
  return names as CheckName[]
}

async function runCheck(options: { out: string; root: string; only?: CheckName[]; all?: boolean }): Promise<number> {
  const { check, formatCounts } = await import('./check/index.ts')
  const report = await check({
    ...options,
    onProgress: ({ check, done, total }) => {
      if (done === undefined) process.stderr.write(`checking ${check}\n`)
      else if (done % 10 === 0 || done === total) process.stderr.write(`  ${done}/${total} pages in the browser\n`)
    },
  })
  for (const d of report.findings) console.log(formatDiagnostic(d))
  if (report.external.length) {
    console.log(`\nLinks to other sites (listed, not fetched): ${report.external.length}`)
    for (const { url, from } of report.external) console.log(`  ${url}  (first in ${from})`)
  }
  const errors = report.findings.filter((d) => d.severity === 'error').length
  const warnings = report.findings.length - errors
  console.log(`\n${formatCounts(report.counts)}`)
  if (report.browser) console.log(`\nPages opened in ${report.browser.path}.${report.browser.hint ? ` ${report.browser.hint}.` : ''}`)
  const ran = Object.entries(report.counts).map(([name, c]) => `${name} ${(c.ms / 1000).toFixed(1)} s`).join(', ')
  console.log(`\n${report.pages} pages checked (${ran}): ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`)
  return errors > 0 ? 1 : 0
}

const ALLOWED_HOST_HELP = 'also answer requests for this host name (IP addresses and localhost always are); repeat for more; .example.test allows its subdomains too'

function collectHostName(value: string, names: string[] = []): string[] {
  const name = allowedHostName(value)
  if (!name) throw new UsageError(`--allowed-host takes a host name such as laptop.local or .example.test, got "${value}".`)
  return [...names, name]
}

function parsePort(value: string): number {
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got "${value}".`)
  return port
}

/** A usage mistake is one line naming it plus a pointer to --help; exit 2. */
function usageLine(error: CommanderError, cli: Command, argv: string[]): string {
  const quoted = /'([^']+)'/.exec(error.message)?.[1]
  const what = error.code === 'commander.unknownOption' ? `unknown option ${quoted}`
    : error.code === 'commander.excessArguments' ? `unknown command ${firstPositional(cli, argv.slice(2))}`
      : error.message.replace(/^error: /, '').replace(/\.$/, '')
  return `clinic-build: ${what}. Run \`clinic-build --help\` for usage.`
}

/** The first word that is neither an option, an option's value, nor a command's name. */
function firstPositional(cli: Command, args: string[]): string | undefined {
  const options = cli.commands.flatMap((c) => c.options)
  const takesValue = new Set(options.filter((o) => o.required).flatMap((o) => [o.short, o.long]).filter(Boolean))
  const commands = new Set(cli.commands.map((c) => c.name()))
  return args.find((arg, i) => !arg.startsWith('-') && !takesValue.has(args[i - 1]) && !commands.has(arg))
}

export async function main(argv: string[]): Promise<void> {
  const cli = program()
  try {
    await cli.parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return
      console.error(usageLine(error, cli, argv))
      process.exitCode = 2
    } else if (error instanceof UsageError) {
      console.error(`clinic-build: ${error.message}`)
      process.exitCode = 1
    } else {
      console.error(formatInternalError(error, argv.includes('--debug')))
      process.exitCode = 70
    }
  }
}
