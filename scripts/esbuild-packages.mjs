// Which packages esbuild writes into our bundles, and which it leaves in node_modules (decision 0039).
// A package published as hundreds of small ES modules costs Node a compile and a file read each
// (TypeBox 373 files, drizzle-orm 112: 0.4 s of every process's start); bundled, it is one parse.
// Everything else stays external: native addons (argon2), packages that find files beside their
// own module (PGlite's WebAssembly, pino's transports, the PDF fonts) and CommonJS packages, which
// an ES bundle could only load through a require shim.

/** Pure ES-module packages bundled into ours. */
export const BUNDLED_PACKAGES = ['typebox', 'drizzle-orm', 'csv-parse', 'csv-stringify']

const packageName = (path) => {
  const parts = path.split('/')
  return path.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
}

/** esbuild's `packages: 'external'`, except BUNDLED_PACKAGES. */
export const packagesExternalExceptBundled = {
  name: 'packages-external-except-bundled',
  setup(build) {
    // A bare specifier: not relative, not absolute.
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || !BUNDLED_PACKAGES.includes(packageName(args.path))) return { path: args.path, external: true }
      return undefined
    })
  },
}
