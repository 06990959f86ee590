// The house rules the linter enforces (docs/architecture.md):
// - a feature module is used through its public face: from outside src/modules/<name>/, only
//   src/modules/<name>/index.ts may be imported, never its repo, service or schemas directly;
// - src/lib/ is pure: it imports no database code, no feature module, no plugin and no configuration;
// - imports run down the layers only: a plugin (src/plugins/) or the database layer (src/db/) never
//   imports a feature module, and src/db/ never imports a plugin. What a plugin needs from a module
//   (the Authenticator, the user-state cache) is an interface the plugin declares and the module
//   implements, handed over through the app;
// - the web client shares server code only through src/lib/: it never imports a module, plugin,
//   the database layer or the configuration, which would pull server code into the browser bundle.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const modulesDir = path.join(root, 'src', 'modules');
const libDir = path.join(root, 'src', 'lib');
const serverDir = path.join(root, 'src');
const pluginsDir = path.join(root, 'src', 'plugins');
const dbDir = path.join(root, 'src', 'db');
const webDir = path.join(root, 'web');

/** the feature module a file belongs to (src/modules/<name>/...), or null */
function moduleOf(file) {
  const rel = path.relative(modulesDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

const inside = (dir, file) => {
  const rel = path.relative(dir, file);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
};

/** packages that reach a database */
const DATABASE_PACKAGES = /^(drizzle-orm|pg|@electric-sql\/pglite|ioredis)(\/|$)/;

function check(context, node, source) {
  if (!source || typeof source.value !== 'string') return;
  const spec = source.value;
  const file = context.filename;
  if (inside(webDir, file)) {
    if (!spec.startsWith('.')) return;
    const target = path.resolve(path.dirname(file), spec);
    if (inside(serverDir, target) && !inside(libDir, target))
      context.report({ node: source, messageId: 'webServer', data: { spec } });
    return;
  }
  if (inside(libDir, file)) {
    if (DATABASE_PACKAGES.test(spec)) {
      context.report({ node: source, messageId: 'libImpure', data: { spec } });
      return;
    }
    if (spec.startsWith('.')) {
      const target = path.resolve(path.dirname(file), spec);
      if (!inside(libDir, target)) context.report({ node: source, messageId: 'libImpure', data: { spec } });
    }
    return;
  }
  if (!spec.startsWith('.')) return;
  const target = path.resolve(path.dirname(file), spec);
  const lower = inside(pluginsDir, file) ? 'src/plugins' : inside(dbDir, file) ? 'src/db' : null;
  if (lower && (inside(modulesDir, target) || (lower === 'src/db' && inside(pluginsDir, target)))) {
    context.report({ node: source, messageId: 'upward', data: { spec, layer: lower } });
    return;
  }
  const targetModule = moduleOf(target);
  if (!targetModule || targetModule === moduleOf(file)) return;
  if (path.relative(path.join(modulesDir, targetModule), target) === 'index.ts') return;
  context.report({ node: source, messageId: 'internal', data: { spec, module: targetModule } });
}

const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'feature modules are imported through their index.ts; imports run down the layers; src/lib is pure; ' +
        'the web client shares only src/lib',
    },
    messages: {
      internal: "'{{spec}}' reaches into the {{module}} module: import its public face, '{{module}}/index.ts'",
      upward:
        "{{layer}} sits below the feature modules: '{{spec}}' imports upwards. Declare the interface in the " +
        'lower layer and let the module implement it (docs/architecture.md)',
      libImpure: "src/lib holds pure helpers: '{{spec}}' is database, module, plugin or configuration code",
      webServer: "the web client imports server code only from src/lib: move the pure part of '{{spec}}' there",
    },
    schema: [],
  },
  create(context) {
    return {
      ImportDeclaration: (node) => check(context, node, node.source),
      ExportNamedDeclaration: (node) => check(context, node, node.source),
      ExportAllDeclaration: (node) => check(context, node, node.source),
      ImportExpression: (node) => check(context, node, node.source),
    };
  },
};

export default { rules: { 'module-boundaries': rule } };
