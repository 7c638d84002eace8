// Lists the type assertions (`x as T`, `<T>x`; `as const` aside) and non-null assertions (`x!`)
// of the hand-written sources, one `file:line: text` a line: the SDK types answers by the
// schema, never by a cast (tests/clients/test_typescript_sdk.py expects none).
import { readFileSync, readdirSync } from "node:fs";
import ts from "typescript";

const files = ["src", "test", "examples"].flatMap((dir) =>
  readdirSync(new URL(`../${dir}`, import.meta.url))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .map((name) => `${dir}/${name}`),
);
for (const file of files) {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    const cast =
      ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(source) !== "const") ||
      ts.isNonNullExpression(node);
    if (cast) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      console.log(`${file}:${line + 1}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
console.error(`${files.length} files`);
