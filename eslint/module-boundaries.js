// ESLint rule `boundaries/module-boundaries` (decision 0016): resolves each relative import of a
// file under src/ and reports
//   (a) an import of a file of module X (src/modules/X/...) from outside X that is not X/index.ts,
//       except a schema.sql.ts importing another module's schema.sql.ts (foreign keys only) and
//       the schema aggregate (src/schema.ts) importing every schema.sql.ts;
//   (b) any import of src/modules/ from the platform (src/http, src/db, src/lib);
//   (c) an import of what stands above the modules (src/flows/, the table aggregate src/schema.ts,
//       src/app.ts) from a module or the platform: imports run one way (issue #40);
//   (d) a module's file importing its own index.ts: the module's files import the file that
//       defines a name; index.ts only hands names on (that import made circles inside modules);
//   (e) a module importing a module that is not in a lower layer of LAYERS: modules import each
//       other in one declared direction only (issue #40; docs/architecture.md draws it).
// Cycles of files, type-only imports included, are counted by scripts/import-cycles.ts (lint too).
// Import strings cannot express this with no-restricted-imports patterns (they are matched as
// written, `../orders/repo.ts` from a module and `./modules/orders/repo.ts` from app.ts alike).
import { dirname, relative, resolve, sep } from 'node:path'

const MODULE = /^src\/modules\/([^/]+)\/(.+)$/
const PLATFORM = /^src\/(http|db|lib)\//
const ABOVE = /^src\/(flows\/|schema\.ts$|app\.ts$)/

/**
 * The modules from the bottom up: a module imports only modules of the layers below its own (not
 * its own layer's). A new module, or a new import between modules, takes its place here first.
 */
export const LAYERS = [
  ['catalog', 'uploads', 'audit', 'health'],
  ['partners'],
  ['customers', 'events'],
  ['ledgers', 'tax', 'auth'],
  ['checkout', 'admins', 'inventory'],
  ['shipping', 'payments'],
  ['orders'],
  ['returns', 'support'],
]
const layerOf = (module) => LAYERS.findIndex((layer) => layer.includes(module))

function check(context, node, source) {
  if (typeof source !== 'string' || !source.startsWith('.')) return
  const root = context.cwd
  const file = relative(root, context.filename).split(sep).join('/')
  if (!file.startsWith('src/')) return
  const target = relative(root, resolve(dirname(context.filename), source)).split(sep).join('/')
  const from = MODULE.exec(file)
  if ((from || PLATFORM.test(file)) && ABOVE.test(target)) {
    context.report({ node, messageId: 'upward', data: { file: target } })
    return
  }
  const to = MODULE.exec(target)
  if (!to) return
  if (PLATFORM.test(file)) {
    context.report({ node, messageId: 'platform', data: { file: target } })
    return
  }
  if (from && from[1] === to[1]) {
    if (to[2] === 'index.ts' && from[2] !== 'index.ts') context.report({ node, messageId: 'ownIndex', data: { module: to[1] } })
    return
  }
  if (from && to[2] !== 'schema.sql.ts') {
    const [fromLayer, toLayer] = [layerOf(from[1]), layerOf(to[1])]
    if (fromLayer < 0 || toLayer < 0 || toLayer >= fromLayer) {
      context.report({ node, messageId: 'layer', data: { from: from[1], to: to[1] } })
      return
    }
  }
  if (to[2] === 'index.ts') return
  if (to[2] === 'schema.sql.ts' && (file === 'src/schema.ts' || (from && from[2] === 'schema.sql.ts'))) return
  context.report({ node, messageId: 'internal', data: { module: to[1], file: target } })
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'A module is imported only through its index.ts; the platform imports no module' },
    schema: [],
    messages: {
      internal: "'{{file}}' is inside the {{module}} module: import src/modules/{{module}}/index.ts (export what you need there).",
      platform: "src/http, src/db and src/lib import no feature module ('{{file}}'): take what you need as a parameter, passed in by app.ts.",
      upward: "'{{file}}' stands above the modules and the platform (flows, the table aggregate, the app): imports run one way, from it to them.",
      layer: "The {{from}} module may not import the {{to}} module: modules import only those of a lower layer (LAYERS in eslint/module-boundaries.js, drawn in docs/architecture.md). Put work that needs both in src/flows/.",
      ownIndex: "A file of the {{module}} module imports the module's own index.ts: import the file that defines the name (index.ts only hands names on).",
    },
  },
  create(context) {
    const visit = (node) => check(context, node, node.source?.value)
    return {
      ImportDeclaration: visit,
      ExportNamedDeclaration: visit,
      ExportAllDeclaration: visit,
      ImportExpression: visit,
      TSImportType: (node) => check(context, node, node.argument?.literal?.value ?? node.argument?.value),
    }
  },
}

export default { meta: { name: 'boundaries' }, rules: { 'module-boundaries': rule } }
