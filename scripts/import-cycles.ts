// Import cycles, type-only imports included (issue #40, decision 0034): every file under the given
// roots is read with TypeScript's own pre-processor (static, type-only, re-export and dynamic
// imports alike), resolved with TypeScript's NodeNext resolution, and the graph's strongly
// connected components are found (Tarjan). A component of more than one file, or a file that
// imports itself, is a cycle; so is one between modules (a file's module is `modules/<name>`,
// `flows`, or the top-level folder or file under src/). Run by `npm run lint`; exits 1 on a cycle.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export interface CycleReport {
  files: number;
  edges: number;
  /** Strongly connected components of files, each a list of paths relative to the root. */
  fileCycles: string[][];
  /** Strongly connected components of modules. */
  moduleCycles: string[][];
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The files each file imports, among `files` (outside packages and Node's modules left out). */
export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const host = ts.sys;
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const resolved = ts.resolveModuleName(fileName, file, COMPILER_OPTIONS, host).resolvedModule;
      const target = resolved ? resolve(resolved.resolvedFileName) : undefined;
      if (target && known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Tarjan's strongly connected components; components of one node only when it points to itself. */
export function cycles<T>(graph: Map<T, T[]>): T[][] {
  let next = 0;
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const found: T[][] = [];
  const visit = (node: T): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: T[] = [];
      let member: T;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.reverse());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** `modules/<name>`, `flows`, or the first segment under the root (`http`, `db`, `app.ts`...). */
export function moduleOf(path: string): string {
  const parts = path.split(sep);
  if (parts[0] === "modules" && parts.length > 2) return `modules/${parts[1]}`;
  return parts[0]!;
}

export function checkImportCycles(root: string): CycleReport {
  const files = sourceFiles(root).map((file) => resolve(file));
  const graph = importGraph(files);
  const rel = (file: string) => relative(root, file);
  const modules = new Map<string, Set<string>>();
  let edges = 0;
  for (const [from, targets] of graph) {
    edges += targets.length;
    const fromModule = moduleOf(rel(from));
    const set = modules.get(fromModule) ?? new Set<string>();
    modules.set(fromModule, set);
    for (const to of targets) {
      const toModule = moduleOf(rel(to));
      if (toModule !== fromModule) set.add(toModule);
    }
  }
  const moduleGraph = new Map([...modules].map(([name, targets]) => [name, [...targets]]));
  return {
    files: files.length,
    edges,
    fileCycles: cycles(graph).map((component) => component.map(rel).sort()),
    moduleCycles: cycles(moduleGraph).map((component) => component.sort()),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? "src");
  const report = checkImportCycles(root);
  for (const component of report.fileCycles) {
    console.error(`import cycle of ${component.length} files:\n  ${component.join("\n  ")}`);
  }
  for (const component of report.moduleCycles) {
    console.error(`import cycle between modules: ${component.join(", ")}`);
  }
  const bad = report.fileCycles.length + report.moduleCycles.length;
  console.log(
    `import cycles: ${report.files} files, ${report.edges} imports (type-only included): ` +
      `${report.fileCycles.length} file cycles, ${report.moduleCycles.length} module cycles`,
  );
  process.exit(bad > 0 ? 1 : 0);
}
