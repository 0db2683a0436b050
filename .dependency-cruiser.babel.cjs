// How dependency-cruiser reads a .ts/.tsx file for the dependency rules (.dependency-cruiser.cjs). TypeScript 7
// has no JavaScript compiler API and dependency-cruiser's swc reader knows no JSX, so Babel parses each file and
// this plugin leaves only what the file depends on, as plain `import 'x'` and `import('x')` for its JavaScript
// reader. Type-only imports are kept (`import type`, `export type … from`, `import('x').T` in a type): they count
// for the module graph as much as any other.
function keepOnlyDependencies({ types: t }) {
  return {
    // Chosen per file (dependency-cruiser flattens the config once, so `overrides` would not reach the files):
    // JSX only in .tsx, where `<T>(x: T) => x` in a .ts file is a generic arrow, not an element.
    manipulateOptions(options, parserOptions) {
      parserOptions.plugins.push('typescript');
      if (options.filename?.endsWith('.tsx')) parserOptions.plugins.push('jsx');
    },
    visitor: {
      Program(program) {
        const statics = new Set();
        const dynamics = new Set();
        const add = (set, node) => {
          if (node?.type === 'StringLiteral') set.add(node.value);
        };
        program.traverse({
          ImportDeclaration(p) {
            add(statics, p.node.source);
          },
          ExportNamedDeclaration(p) {
            add(statics, p.node.source);
          },
          ExportAllDeclaration(p) {
            add(statics, p.node.source);
          },
          TSImportType(p) {
            add(statics, p.node.argument.literal ?? p.node.argument);
          },
          TSExternalModuleReference(p) {
            add(statics, p.node.expression);
          },
          CallExpression(p) {
            if (p.node.callee.type === 'Import') add(dynamics, p.node.arguments[0]);
          },
          ImportExpression(p) {
            add(dynamics, p.node.source);
          },
        });
        program.node.directives = [];
        program.node.body = [
          ...[...statics].map((source) => t.importDeclaration([], t.stringLiteral(source))),
          ...[...dynamics].map((source) =>
            t.expressionStatement(t.callExpression(t.import(), [t.stringLiteral(source)])),
          ),
        ];
        program.skip();
      },
    },
  };
}

module.exports = {
  babelrc: false,
  configFile: false,
  plugins: [keepOnlyDependencies],
};
