// Lint: typescript-eslint's type-checked rules on the TypeScript, React hooks and accessibility rules on the web
// app, and the import boundaries that keep features and modules apart. `npm run check` runs it with the type
// check and the format check.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

const TYPED = [
  'apps/server/src/**/*.ts',
  'apps/server/test/**/*.ts',
  'apps/web/src/**/*.{ts,tsx}',
  'packages/*/src/**/*.ts',
];
const WEB = ['apps/web/src/**/*.{ts,tsx}'];
/** An antd icon names itself ("upload") to screen readers; see the rule below. */
const ICON_ARIA = {
  selector:
    'JSXOpeningElement[name.name=/(Outlined|Filled|TwoTone)$/]:not(:has(JSXAttribute[name.name=/^aria-(hidden|label)$/]))',
  message: 'Mark the icon aria-hidden (or give it an aria-label when it alone names something).',
};
/**
 * An element hidden by a permission check: antd's display rules can override the HTML `hidden` attribute, so the
 * element shows anyway (a role without "Export orders" saw the export button). §6 removes guarded elements.
 */
const LAZY_FROM_REACT = {
  name: 'react',
  importNames: ['lazy'],
  message:
    'Use lazyChunk (lib/lazyChunk.ts): it outlives a server restart or a new release instead of blanking the page.',
};

const HIDDEN_GUARD = [
  {
    selector: "JSXAttribute[name.name='hidden'] CallExpression[callee.name=/^(can|access)$/]",
    message: 'Guard the element with <Access permission=…> (removed, with data-permission), never with `hidden`.',
  },
  {
    selector: "JSXAttribute[name.name='hidden'] Identifier[name=/^(can[A-Z]|allowed|permitted|editable|permission)/]",
    message: 'Guard the element with <Access permission=…> (removed, with data-permission), never with `hidden`.',
  },
];
/**
 * A list veiled while it fetches: every background refetch (a live event, the tab shown again) blurred the whole table
 * and cost each open tab its repaint. lib/listLoading.ts veils only what does not show the current answer yet.
 */
const LIST_VEIL = {
  selector:
    "JSXAttribute[name.name=/^(loading|spinning)$/] > JSXExpressionContainer > MemberExpression[property.name='isFetching']",
  message: 'Use listLoading(query) (lib/listLoading.ts): a background refetch changes the rows in place, unveiled.',
};
/** A statement reading PostgreSQL's server-wide views without naming its database; see the rule below. */
const SERVER_WIDE_VIEW = '/^(?!(.|\\n)*(datname|database))(.|\\n)*(pg_stat_activity|pg_locks)/';
/** A query key written out in place; see the rule below. */
const RAW_QUERY_KEY = {
  selector: "Property[key.name='queryKey'] > ArrayExpression",
  message: "Take the key from the feature's api/keys.ts factory.",
};
/** A screen marking data stale itself; see the rule below. */
const INVALIDATION_OUTSIDE_API = [
  {
    selector: "MemberExpression[property.name='invalidateQueries']",
    message:
      "Which data a change makes stale is its feature's business: call (or add) a mutation hook in features/<name>/api/.",
  },
  {
    selector: "CallExpression[callee.name='invalidateWork']",
    message: 'Call (or add) a mutation hook in features/<name>/api/: it refreshes the work it changes.',
  },
];
export default tseslint.config(
  {
    files: ['bench/**/*.mjs', 'scripts/**/*.mjs'],
    // page.evaluate bodies run in the browser.
    languageOptions: { globals: { ...globals.browser } },
  },
  { ignores: ['**/dist/**', '**/node_modules/**', 'docs/**', '**/*.d.ts', 'apps/web/public/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked.map((c) => ({ ...c, files: TYPED })),
  {
    files: TYPED,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  // A catch that ignores on purpose (polling until something answers) may stay empty.
  { languageOptions: { globals: { ...globals.node } }, rules: { 'no-empty': ['error', { allowEmptyCatch: true }] } },
  {
    files: TYPED,
    rules: {
      // Route handlers and interface methods are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      // Refusing control characters is what several checks are for.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // No import cycles (docs/architecture.md, "Boundaries the lint enforces"): a module that needs something of one
    // that imports it takes it as a parameter (the users module gets the session port from app.ts), or the shared
    // piece moves to a third module.
    files: TYPED,
    plugins: { 'import-x': importX },
    settings: {
      // Which files are parsed, and how (the resolver below replaces the preset's).
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          // One tsconfig per workspace package, on purpose.
          noWarnOnMultipleProjects: true,
        }),
        createNodeResolver(),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  { files: WEB, languageOptions: { globals: { ...globals.browser } } },
  {
    // The rules of hooks. The plugin's React Compiler rules are left out: the app does not use the compiler.
    files: WEB,
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: WEB, ...jsxA11y.flatConfigs.recommended },
  {
    // An antd icon names itself ("upload") to screen readers: beside a label it reads "upload Upload". Icons are
    // decoration (aria-hidden); an icon-only control carries its own aria-label, which axe checks.
    files: WEB,
    rules: { 'no-restricted-syntax': ['error', ICON_ARIA, ...HIDDEN_GUARD, LIST_VEIL] },
  },
  {
    // A query key is written once, in its feature's api/keys.ts factory, so that an invalidation names the same key
    // as the query it means to reach. Tests may seed caches with keys written out. A later config that sets
    // no-restricted-syntax replaces the whole list for the files it matches: the icon and hidden rules are repeated here.
    files: WEB,
    ignores: ['**/api/keys.ts', '**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ICON_ARIA, ...HIDDEN_GUARD, LIST_VEIL, RAW_QUERY_KEY] },
  },
  {
    // A mutation's hook, in its feature's api/ folder, knows which data the change makes stale (its own feature's and
    // the others': deleting cases also refreshes the storage used); a screen adds only its own reactions (a toast, a
    // dialog closed). Screens call the hooks, never invalidateQueries. Both rules above are repeated here (this list
    // replaces theirs for the files it matches).
    files: WEB,
    ignores: ['apps/web/src/features/*/api/**', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ICON_ARIA,
        ...HIDDEN_GUARD,
        LIST_VEIL,
        RAW_QUERY_KEY,
        ...INVALIDATION_OUTSIDE_API,
      ],
    },
  },
  {
    files: WEB,
    // AntD's inputs take autoFocus to focus the first field of a dialog the user just opened, as dialogs should.
    rules: {
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
      // AntD awaits a promise its handlers return (a confirm keeps its button loading until it settles).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // React.lazy keeps a failed load for good, and a component that failed takes the page down with it: a server
    // restart or a new release would blank the screen. lib/lazyChunk.ts waits for the server and reloads instead.
    files: WEB,
    ignores: ['apps/web/src/lib/lazyChunk.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [LAZY_FROM_REACT] }] },
  },
  {
    // A feature uses another only through its index.ts, or its query keys (api/keys.ts: what its data is called,
    // to refresh it); what several share lives in components/ or lib/.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // Repeated from the config above: this list replaces its own for the files it matches.
          paths: [LAZY_FROM_REACT],
          patterns: [
            {
              regex: '^(\\.\\./)+[a-zA-Z]+/(api/(?!keys$)|components/|pages/|lib/)',
              message:
                'Import another feature through its index (features/<name>/index.ts), or move shared code to components/ or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A server module reads another module's tables only through that module's service.
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[a-zA-Z-]+/[a-zA-Z.-]+\\.repository\\.js$',
              message: "Call the other module's service; its repository is its own.",
            },
          ],
        },
      ],
    },
  },
  {
    // SQL lives in the module's repository; services, routes and helpers call it (docs/architecture.md). Refused: a
    // `.query(…)` whose statement is written in place, as a string or template literal. The platform, migrations and
    // tests are outside this pattern. No other config sets no-restricted-syntax for these files (a later one would
    // replace this list for the files it matches: merge the selectors then).
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/modules/**/*.repository.ts', 'apps/server/src/modules/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name='query'][arguments.0.type=/^(Literal|TemplateLiteral)$/]",
          message: "SQL belongs in the module's repository (docs/architecture.md)",
        },
      ],
    },
  },
  {
    // The shared packages never depend on the applications.
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)apps/', message: 'packages/* must not import from apps/*.' }] },
      ],
    },
  },
  {
    // pg_stat_activity and pg_locks show every database of the server: the suites run side by side on one PostgreSQL,
    // and an idle connection shows its last statement, so a test that ends or counts backends by their text alone
    // reached another suite's pooled connection (a 500 there). Each such statement names its database.
    files: [
      'apps/server/**/*.test.ts',
      'apps/server/test/**/*.ts',
      'e2e/**/*.ts',
      'bench/**/*.mjs',
      'scripts/**/*.mjs',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `:matches(TemplateElement[value.raw=${SERVER_WIDE_VIEW}], Literal[raw=${SERVER_WIDE_VIEW}])`,
          message: 'Name the database (datname = current_database(), or l.database): other suites share the server.',
        },
      ],
    },
  },
  {
    // Tests read the API's JSON answers as they come (`data: any`) and assert on them: the assertion is the check.
    files: ['apps/server/test/**/*.ts', 'apps/web/src/test/**/*.{ts,tsx}', '**/*.test.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Spies and fakes are passed around as methods.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
