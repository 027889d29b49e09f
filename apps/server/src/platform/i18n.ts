import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, normalizeLanguage, type Language } from '@portal/contracts';
import { LOCALES_DIR } from './paths.js';

type Tree = { [key: string]: string | Tree };
const catalogs = new Map<string, Tree>();

function load(lang: Language, ns: string): Tree {
  const id = `${lang}/${ns}`;
  let tree = catalogs.get(id);
  if (!tree) {
    const file = join(LOCALES_DIR, lang, `${ns}.json`);
    tree = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Tree) : {};
    catalogs.set(id, tree);
  }
  return tree;
}

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Resolved templates by language and key, read once: the catalogues do not change while the process runs. */
const templates = new Map<string, string>();

function template(language: Language, key: string): string {
  const id = `${language}|${key}`;
  let found = templates.get(id);
  if (found === undefined) {
    const [ns, ...rest] = key.split(':');
    const path = rest.length ? rest.join(':') : ns!;
    const namespace = rest.length ? ns! : 'errors';
    found = lookup(load(language, namespace), path) ?? lookup(load('en', namespace), path);
    // Only keys the catalogues hold are kept (a bounded set); a key built from data falls back to itself.
    if (found === undefined) return path;
    templates.set(id, found);
  }
  return found;
}

/** Server-side messages (errors, mails) in the caller's language, falling back to English. */
export function t(lang: string | undefined, key: string, params: Record<string, string | number> = {}): string {
  const text = template(normalizeLanguage(lang), key);
  // Every answer's "Success" goes through here: a text without placeholders is returned as it is.
  if (!text.includes('{{')) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** Every locale folder present, for the completeness test. */
export function availableLocaleFolders(): string[] {
  return readdirSync(LOCALES_DIR).filter((d) => (LANGUAGES as readonly string[]).includes(d));
}
