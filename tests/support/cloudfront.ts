/**
 * CloudFront in front of S3, as its documentation describes it, to run the built functions:
 * - a sandbox (node:vm) with only what cloudfront-js-2.0 offers: the language's built-ins, no
 *   require, fetch, timers or process, no code from strings, and `import cf from 'cloudfront'`
 *   as the one module, whose kvs() reads a stand-in KeyValueStore loaded from the import file;
 * - the function code parsed with TypeScript's parser and held to the syntax the runtime
 *   documents (ES5.1, const/let, arrow functions, template literals, async/await, the import);
 * - an S3 REST origin answering from the built files: a key it holds answers 200, any other 403
 *   AccessDenied, as S3 answers when CloudFront may read objects but not list the bucket (docs/deploying.md);
 * - the distribution: viewer request, origin (with the custom error response for 403 that
 *   docs/deploying.md asks for), viewer response, with CloudFront's documented event objects.
 */
import { createContext, runInContext } from 'node:vm'
import ts from 'typescript'

export interface CfHeaders { [name: string]: { value: string; multiValue?: { value: string }[] } }
export interface CfRequest { method: string; uri: string; querystring: CfHeaders; headers: CfHeaders; cookies: CfHeaders }
export interface CfResponse { statusCode: number; statusDescription?: string; headers: CfHeaders; cookies?: CfHeaders; body?: string }
type Handler = (event: unknown) => Promise<CfRequest | CfResponse>

/** A KeyValueStore's pairs from CloudFront's import format, refusing what CloudFront's import refuses. */
export function keyValueStore(importFile: string): Map<string, string> {
  const { data } = JSON.parse(importFile) as { data: { key: string; value: string }[] }
  const store = new Map<string, string>()
  for (const { key, value } of data) {
    if (typeof key !== 'string' || typeof value !== 'string') throw new Error(`not a key-value pair: ${JSON.stringify({ key, value })}`)
    if (store.has(key)) throw new Error(`duplicate key ${key}: CloudFront refuses the file`)
    store.set(key, value)
  }
  return store
}

/**
 * The `cloudfront` module's documented helpers for the one store associated with the function,
 * made inside the sandbox (an object of the test's own realm would lead out of it). get() rejects
 * for a missing key (the documentation says only that it throws), and counts its reads.
 */
const CLOUDFRONT_MODULE = `(function (pairs) {
  var store = new Map(JSON.parse(pairs));
  var reads = [];
  var handle = {
    get: function (key, options) {
      reads.push(key);
      if (!store.has(key)) return Promise.reject(new Error('Key ' + key + ' not found'));
      var value = store.get(key);
      if (options && options.format === 'json') return Promise.resolve(JSON.parse(value));
      if (options && options.format === 'bytes') return Promise.reject(new Error('the stand-in has no bytes format'));
      return Promise.resolve(value);
    },
    exists: function (key) { reads.push(key); return Promise.resolve(store.has(key)); },
    meta: function () { return Promise.resolve({ creationDateTime: '2026-01-01T00:00:00Z', lastUpdatedDateTime: '2026-01-01T00:00:00Z', keyCount: store.size }); }
  };
  // cf.kvs() takes the associated store; an id, as older examples pass, must name it.
  var module = { kvs: function (id) { if (id !== undefined && id !== 'associated') throw new Error('no store ' + id + ' is associated'); return handle; } };
  return { module: module, reads: reads };
})`

/** Node kinds of the syntax cloudfront-js-2.0 documents; TypeScript's parser names them. */
const ALLOWED = new Set([
  'SourceFile', 'ImportDeclaration', 'ImportClause', 'Identifier', 'StringLiteral', 'NumericLiteral', 'RegularExpressionLiteral',
  'NoSubstitutionTemplateLiteral', 'TemplateExpression', 'TemplateHead', 'TemplateSpan', 'TemplateMiddle', 'TemplateTail',
  'VariableStatement', 'VariableDeclarationList', 'VariableDeclaration', 'FunctionDeclaration', 'FunctionExpression', 'ArrowFunction', 'Parameter', 'Block',
  'ExpressionStatement', 'IfStatement', 'ForStatement', 'ForInStatement', 'WhileStatement', 'DoStatement', 'ReturnStatement', 'BreakStatement', 'ContinueStatement',
  'TryStatement', 'CatchClause', 'ThrowStatement', 'SwitchStatement', 'CaseBlock', 'CaseClause', 'DefaultClause', 'LabeledStatement', 'EmptyStatement',
  'CallExpression', 'NewExpression', 'PropertyAccessExpression', 'ElementAccessExpression', 'BinaryExpression', 'PrefixUnaryExpression', 'PostfixUnaryExpression',
  'ConditionalExpression', 'ParenthesizedExpression', 'TypeOfExpression', 'DeleteExpression', 'VoidExpression', 'AwaitExpression',
  'ObjectLiteralExpression', 'PropertyAssignment', 'ArrayLiteralExpression', 'TrueKeyword', 'FalseKeyword', 'NullKeyword', 'ThisKeyword', 'AsyncKeyword', 'EndOfFileToken',
  // Operators: ES5.1's, and ES7's exponentiation.
  'EqualsToken', 'PlusEqualsToken', 'MinusEqualsToken', 'AsteriskEqualsToken', 'SlashEqualsToken', 'PercentEqualsToken',
  'EqualsEqualsToken', 'EqualsEqualsEqualsToken', 'ExclamationEqualsToken', 'ExclamationEqualsEqualsToken', 'LessThanToken', 'GreaterThanToken',
  'LessThanEqualsToken', 'GreaterThanEqualsToken', 'PlusToken', 'MinusToken', 'AsteriskToken', 'AsteriskAsteriskToken', 'SlashToken', 'PercentToken',
  'AmpersandAmpersandToken', 'BarBarToken', 'AmpersandToken', 'BarToken', 'CaretToken', 'LessThanLessThanToken', 'GreaterThanGreaterThanToken',
  'GreaterThanGreaterThanGreaterThanToken', 'InstanceOfKeyword', 'InKeyword', 'CommaToken', 'EqualsGreaterThanToken', 'QuestionToken', 'ColonToken',
  'ExclamationToken', 'TildeToken', 'PlusPlusToken', 'MinusMinusToken',
])

/** A kind by each of its names: TypeScript gives some several ("FirstStatement" is VariableStatement). */
const kindNames = new Map<number, string[]>()
for (const [name, value] of Object.entries(ts.SyntaxKind)) if (typeof value === 'number') kindNames.set(value, [...(kindNames.get(value) ?? []), name])
const kindName = (kind: number) => kindNames.get(kind)!.find((n) => ALLOWED.has(n)) ?? kindNames.get(kind)!.find((n) => !/^(First|Last)/.test(n)) ?? String(kind)

/**
 * The syntax of `code` the runtime does not document, as "Kind at line:column"; also the parser's
 * own errors, and an import of anything but the default export of 'cloudfront'.
 */
export function unsupportedSyntax(code: string): string[] {
  const file = ts.createSourceFile('function.js', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS)
  const at = (node: ts.Node) => { const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file)); return `${line + 1}:${character + 1}` }
  const found: string[] = []
  const parseErrors = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics
  for (const d of parseErrors) found.push(`parse error: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)
  const visit = (node: ts.Node) => {
    const kind = kindName(node.kind)
    if (!ALLOWED.has(kind)) found.push(`${kind} at ${at(node)}`)
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause
      if (!ts.isStringLiteral(node.moduleSpecifier) || node.moduleSpecifier.text !== 'cloudfront' || !clause?.name || clause.namedBindings) found.push(`import other than the cloudfront module's default at ${at(node)}`)
    }
    // "async arguments and closures are not supported": async only on function declarations.
    if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) found.push(`async closure at ${at(node)}`)
    if (ts.isFunctionLike(node) && 'asteriskToken' in node && node.asteriskToken) found.push(`generator at ${at(node)}`)
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

export interface LoadedFunction {
  handler: Handler
  /** Evaluates an expression inside the function's sandbox (to show what it cannot reach). */
  evaluate: (expression: string) => unknown
  /** The store keys read so far. */
  reads: string[]
}

/**
 * Runs a function's code in a sandbox: the import of 'cloudfront' becomes the function's
 * parameter `cf` (the one module there is), and the code's `handler` is returned.
 */
export function loadFunction(code: string, store: Map<string, string>): LoadedFunction {
  const problems = unsupportedSyntax(code)
  if (problems.length) throw new Error(`not cloudfront-js-2.0: ${problems.join('; ')}`)
  const file = ts.createSourceFile('function.js', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS)
  const imports = file.statements.filter(ts.isImportDeclaration)
  // Blanked in place, so that line numbers in errors stay those of the file.
  let body = code
  for (const i of imports) body = body.slice(0, i.getStart(file)) + ' '.repeat(i.getEnd() - i.getStart(file)) + body.slice(i.getEnd())
  const name = imports[0]?.importClause?.name?.text ?? 'cf'
  const context = createContext({}, { codeGeneration: { strings: false, wasm: false } })
  const standIn = (runInContext(CLOUDFRONT_MODULE, context) as (pairs: string) => { module: unknown; reads: string[] })(JSON.stringify([...store]))
  const make = runInContext(`(function (${name}) {\n${body}\nreturn handler;\n})`, context, { filename: 'function.js', lineOffset: -1 }) as (cf: unknown) => (event: unknown) => Promise<unknown>
  const handler = make(standIn.module)
  // Events enter as the sandbox's own objects, made by its own JSON.parse; answers leave as copies.
  const parse = runInContext('JSON.parse', context) as (json: string) => unknown
  const stringify = runInContext('JSON.stringify', context) as (value: unknown) => string
  return {
    handler: async (event) => JSON.parse(stringify(await handler(parse(JSON.stringify(event))))) as CfRequest | CfResponse,
    evaluate: (expression) => runInContext(expression, context),
    reads: standIn.reads,
  }
}

/** A request as CloudFront gives it to a function: the URI as sent, its query parsed. */
export function viewerRequest(address: string): CfRequest {
  const url = new URL(address, 'https://clinic.example')
  const querystring: CfHeaders = {}
  for (const part of url.search.slice(1).split('&').filter(Boolean)) {
    const [name, value = ''] = part.split('=') as [string, string?]
    const entry = querystring[name]
    if (!entry) querystring[name] = { value }
    else entry.multiValue = [...(entry.multiValue ?? [{ value: entry.value }]), { value }]
  }
  return { method: 'GET', uri: url.pathname, querystring, headers: { host: { value: url.host }, accept: { value: 'text/html' } }, cookies: {} }
}

const event = (eventType: string, request: CfRequest, response?: CfResponse) => ({
  version: '1.0',
  context: { distributionDomainName: 'd111111abcdef8.cloudfront.net', distributionId: 'EDFDVBD6EXAMPLE', eventType, requestId: 'EXAMPLEntjQpEXAMPLE_SG5Z-EXAMPLEPmPfEXAMPLEu3EqEXAMPLE==' },
  viewer: { ip: '198.51.100.7' },
  request,
  ...(response ? { response } : {}),
})

export interface Answer { status: number; headers: Record<string, string>; body: string; originKey?: string }

/**
 * A distribution: viewer request, then (unless that function answered) the S3 origin, whose
 * 403 is replaced by /404.html with status 404 (the custom error response), then viewer response.
 * `files`: the built files by path, as synced to the bucket. `responseSees`: the request the
 * viewer-response event carries, as the viewer-request function left it or as the viewer sent it
 * (the functions must answer alike either way).
 */
export function distribution(files: Map<string, string>, request: LoadedFunction, response: LoadedFunction, responseSees: 'rewritten' | 'asked' = 'rewritten') {
  const origin = (uri: string): CfResponse & { key?: string } => {
    const key = decodeURIComponent(uri).slice(1)
    const body = files.get(key)
    if (body === undefined) return { statusCode: 403, statusDescription: 'Forbidden', headers: { 'content-type': { value: 'application/xml' } }, body: '<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>' }
    return { statusCode: 200, statusDescription: 'OK', headers: { 'content-type': { value: key.endsWith('.html') ? 'text/html' : 'application/octet-stream' } }, body, key }
  }
  return async (address: string): Promise<Answer> => {
    const asked = viewerRequest(address)
    const passed = await request.handler(event('viewer-request', asked))
    // A response made by the viewer-request function goes back as it is.
    if ('statusCode' in passed) return { status: passed.statusCode, headers: flat(passed.headers), body: '' }
    let fetched = origin(passed.uri)
    if (fetched.statusCode === 403) fetched = { ...origin('/404.html'), statusCode: 404, statusDescription: 'Not Found' }
    const { body, key, ...answer } = fetched
    const final = await response.handler(event('viewer-response', responseSees === 'rewritten' ? passed : asked, answer)) as CfResponse
    return { status: final.statusCode, headers: flat(final.headers), body: body ?? '', originKey: key }
  }
}

const flat = (headers: CfHeaders = {}) => Object.fromEntries(Object.entries(headers).map(([name, h]) => [name, h.value]))
