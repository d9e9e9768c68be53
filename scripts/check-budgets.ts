/** The budgets of `npm run check`: run-once's surface and README, and the project README's length. */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const PACKAGE = path.resolve(import.meta.dirname, "../packages/run-once");
const BUDGETS = {
  mainValues: 20,
  exports: 35,
  storeMembers: 10,
  readmeWords: 1_500,
  projectReadmeWords: 2_500,
};

const manifest = JSON.parse(readFileSync(path.join(PACKAGE, "package.json"), "utf8")) as {
  exports: Record<string, string | { import: string }>;
};
const entries = Object.entries(manifest.exports).flatMap(([subpath, target]) => {
  const file = typeof target === "string" ? target : target.import;
  return file.endsWith(".ts") ? [{ subpath, file: path.join(PACKAGE, file) }] : [];
});
const program = ts.createProgram(
  entries.map((entry) => entry.file),
  {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  },
);
const checker = program.getTypeChecker();
const exportsOf = (file: string) =>
  checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
const resolved = (symbol: ts.Symbol) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
const isValue = (symbol: ts.Symbol) => (resolved(symbol).flags & ts.SymbolFlags.Value) !== 0;

const failures: string[] = [];
const within = (what: string, count: number, budget: number) => {
  console.log(`${what}: ${count} (budget ${budget})`);
  if (count > budget) failures.push(`${what} is ${count}, over its budget of ${budget}`);
};

const exported = entries.flatMap((entry) => exportsOf(entry.file).map((symbol) => ({ ...entry, symbol })));
const main = exported.filter((entry) => entry.subpath === ".");
within(
  "run-once's main entry, values",
  main.filter((entry) => isValue(entry.symbol)).length,
  BUDGETS.mainValues,
);
within("run-once's exports, all entries", exported.length, BUDGETS.exports);

const store = exported.find((entry) => entry.symbol.name === "IdempotencyStore")?.symbol;
if (!store) failures.push("IdempotencyStore is not exported");
else {
  const declared = checker.getDeclaredTypeOfSymbol(resolved(store));
  within("IdempotencyStore's members", declared.getProperties().length, BUDGETS.storeMembers);
}

const words = (file: string) => readFileSync(file, "utf8").split(/\s+/).filter(Boolean).length;
const readme = readFileSync(path.join(PACKAGE, "README.md"), "utf8");
within("run-once's README, words", words(path.join(PACKAGE, "README.md")), BUDGETS.readmeWords);
within(
  "the project's README, words",
  words(path.resolve(PACKAGE, "../../README.md")),
  BUDGETS.projectReadmeWords,
);
for (const { subpath, symbol } of exported) {
  if (!new RegExp(`\\b${symbol.name}\\b`).test(readme))
    failures.push(
      `run-once's README does not document ${symbol.name} (from "${path.posix.join("run-once", subpath)}")`,
    );
}

if (failures.length > 0) {
  for (const failure of failures) console.error(`Budget: ${failure}.`);
  process.exit(1);
}
