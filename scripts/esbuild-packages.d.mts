import type { Plugin } from 'esbuild'
export declare const BUNDLED_PACKAGES: string[]
export declare const packagesExternalExceptBundled: Plugin
