// `npm start`: builds the server and the web app only when their sources changed since their last build, then starts
// the portal in this process.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from './build.mjs';

const ROOT = resolve(import.meta.dirname, '..');
build();
const { main } = await import(pathToFileURL(join(ROOT, 'apps/server/dist/main.js')).href);
await main();
