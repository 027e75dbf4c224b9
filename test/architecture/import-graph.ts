import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The project's import graph, read from the sources with TypeScript's own pre-processor (every
 * `import`, `export … from`, dynamic `import()` and `require`), with the `@/` alias and relative
 * paths resolved to files of the project. Imports of packages are kept as they are written.
 */

export const SOURCE_DIRS = ["app", "components", "lib"] as const;
const ROOT_FILES = ["proxy.ts", "instrumentation.ts"];
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

export interface Import {
  /** The importing file, relative to the root ("lib/api/route.ts"). */
  from: string;
  /** The imported file relative to the root, or the package specifier ("zod", "node:fs"). */
  to: string;
  /** True when `to` is a file of the project. */
  local: boolean;
  /** `import type` only: erased at build, so it carries no code across. */
  typeOnly: boolean;
}

function sourceFiles(root: string, dir: string): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(root, rel);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [rel] : [];
  });
}

/** The project's source files (tests left out: they may reach across layers to set up). */
export function projectFiles(root: string): string[] {
  return [
    ...SOURCE_DIRS.flatMap((d) => sourceFiles(root, d)),
    ...ROOT_FILES.filter((f) => existsSync(path.join(root, f))),
  ];
}

function resolveLocal(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.join(path.dirname(from), specifier);
  else return null;
  for (const ext of ["", ...EXTENSIONS]) {
    const candidate = base + ext;
    const abs = path.join(root, candidate);
    if (existsSync(abs) && statSync(abs).isFile()) return path.normalize(candidate);
  }
  return path.normalize(base);
}

/** The imports of one file's text. */
export function importsOf(root: string, file: string, text: string): Import[] {
  const info = ts.preProcessFile(text, true, true);
  const typeOnly = new Set<string>();
  // preProcessFile does not say which imports are type-only: read the statements for that.
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly) {
      typeOnly.add((statement.moduleSpecifier as ts.StringLiteral).text);
    }
    if (ts.isExportDeclaration(statement) && statement.isTypeOnly && statement.moduleSpecifier) {
      typeOnly.add((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return info.importedFiles.map(({ fileName }) => {
    const local = resolveLocal(root, file, fileName);
    return { from: file, to: local ?? fileName, local: local !== null, typeOnly: typeOnly.has(fileName) };
  });
}

/** Every import of the project's source files. */
export function importGraph(root: string): Import[] {
  return projectFiles(root).flatMap((file) =>
    importsOf(root, file, readFileSync(path.join(root, file), "utf8")),
  );
}
