// Flat ESLint config. Besides the TypeScript and React hooks rules, a small local rule keeps the
// architecture's import boundaries (STYLE.md §2.6, §4.2 item 14):
//   - shared code (api, components, config, lib) never imports features or app;
//   - a feature never imports another feature;
//   - a feature imports from app only the typed hooks and, with `import type`, the store's types
//     (a value import of app/store would make the feature load the whole store);
//   - no barrel index.ts files.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(root, 'src');

/** Where an import points, as a path relative to src/, or null for packages. */
function resolveImport(fromFile, specifier) {
  let target;
  if (specifier.startsWith('@/')) target = path.join(src, specifier.slice(2));
  else if (specifier.startsWith('.')) target = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  return path.relative(src, target).split(path.sep).join('/');
}

function areaOf(relativePath) {
  const [top, second] = relativePath.split('/');
  if (top === 'features') return { kind: 'feature', name: second };
  if (top === 'app') return { kind: 'app' };
  if (top === 'testing') return { kind: 'testing' };
  if (['api', 'components', 'config', 'lib'].includes(top)) return { kind: 'shared' };
  return { kind: 'root' };
}

/** What a feature may import from app: the typed hooks as values, the store only for its types. */
const APP_MODULES_FEATURES_MAY_USE = new Set(['app/hooks']);
const APP_MODULES_FEATURES_MAY_TYPE = new Set(['app/store']);

/** `import type …` or `export type … from`: erased by TypeScript, so nothing is loaded at run time. */
function isTypeOnly(node) {
  return node.importKind === 'type' || node.exportKind === 'type';
}

const PLAIN_REDUX_HOOKS = { name: 'react-redux', importNames: ['useDispatch', 'useSelector'], message: 'Use useAppDispatch / useAppSelector from @/app/hooks.' };
const REACT_ROUTER_DOM = { name: 'react-router-dom', message: "Import from 'react-router' (v7)." };

const boundaries = {
  rules: {
    'import-boundaries': {
      meta: { type: 'problem', schema: [], messages: { forbidden: '{{reason}}' } },
      create(context) {
        const file = context.filename;
        const fromRelative = path.relative(src, file).split(path.sep).join('/');
        if (fromRelative.startsWith('..')) return {};
        const from = areaOf(fromRelative);
        const isTest = /\.test\.tsx?$/.test(file);
        function check(node, specifier) {
          const target = resolveImport(file, specifier);
          if (target === null) return;
          const to = areaOf(target);
          const report = (reason) => context.report({ node, messageId: 'forbidden', data: { reason } });
          if (to.kind === 'testing' && from.kind !== 'testing' && !isTest) {
            report('Only tests may import from src/testing.');
          } else if (from.kind === 'shared' && (to.kind === 'feature' || to.kind === 'app')) {
            report(`Shared code must not import ${target}: move the code or pass it in.`);
          } else if (from.kind === 'feature' && to.kind === 'feature' && to.name !== from.name) {
            report(`Feature "${from.name}" must not import feature "${to.name}" (${target}); share through api/, lib/ or components/.`);
          } else if (from.kind === 'feature' && to.kind === 'app' && !isTest) {
            const module = target.replace(/\.(tsx?|js)$/, '');
            if (APP_MODULES_FEATURES_MAY_TYPE.has(module) && !isTypeOnly(node)) {
              report(`Features may import only types from ${target}: write \`import type\`.`);
            } else if (!APP_MODULES_FEATURES_MAY_USE.has(module) && !APP_MODULES_FEATURES_MAY_TYPE.has(module)) {
              report(`Features may only use app/hooks and the types of app/store, not ${target}.`);
            }
          }
        }
        return {
          ImportDeclaration: (node) => check(node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
          ExportAllDeclaration: (node) => check(node, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
        };
      },
    },
    'no-barrel-files': {
      meta: { type: 'problem', schema: [], messages: { barrel: 'No barrel index.ts files: import from the module itself.' } },
      create(context) {
        return /[\\/]index\.tsx?$/.test(context.filename)
          ? { Program: (node) => context.report({ node, messageId: 'barrel' }) }
          : {};
      },
    },
  },
};

export default tseslint.config(
  // schema.gen.ts is written by `npm run gen:api`; `npm run check:api` keeps it fresh.
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'e2e/screenshots/**', 'src/api/schema.gen.ts'] },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_' }] },
  },
  {
    // Functions passed to page.evaluate run in the browser.
    files: ['e2e/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'vitest.config.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
      globals: { ...globals.browser },
    },
    plugins: { 'react-hooks': reactHooks, local: boundaries },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'local/import-boundaries': 'error',
      'local/no-barrel-files': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [PLAIN_REDUX_HOOKS, REACT_ROUTER_DOM] }],
      'no-console': ['error', { allow: ['info', 'warn', 'error'] }],
    },
  },
  {
    // The one place that wraps the plain hooks.
    files: ['src/app/hooks.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // useErrorToast dispatches a plain action from shared code, which cannot reach app/hooks.
    files: ['src/lib/toast.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ ...PLAIN_REDUX_HOOKS, importNames: ['useSelector'] }, REACT_ROUTER_DOM] }],
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // expect.any() and friends are typed any.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      'no-restricted-imports': 'off',
    },
  },
);
