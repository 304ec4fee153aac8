// Prints the gzipped size of the JavaScript and CSS that index.html loads up front (the
// initial bundle), plus the lazy chunks. Fails when the initial load exceeds the budget.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 300 * 1024;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
// html-webpack-plugin may drop the quotes around attribute values when it minifies.
const initial = [...html.matchAll(/(?:src|href)=["']?\/?(assets\/[^"'\s>]+\.(?:js|css))/g)].map((m) => m[1]);

const gzipped = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

let initialTotal = 0;
console.log('Initial load (gzipped):');
for (const file of initial) {
  const size = gzipped(file);
  initialTotal += size;
  console.log(`  ${file.padEnd(48)} ${kb(size)}`);
}
const lazy = readdirSync(path.join(dist, 'assets'))
  .map((name) => `assets/${name}`)
  .filter((file) => /\.(js|css)$/.test(file) && !initial.includes(file) && statSync(path.join(dist, file)).isFile());
const lazyTotal = lazy.reduce((sum, file) => sum + gzipped(file), 0);
console.log(`Lazy chunks: ${lazy.length} files, ${kb(lazyTotal)} gzipped in total`);
console.log(`Initial bundle size: ${kb(initialTotal)} gzipped (budget ${kb(BUDGET_BYTES)})`);
if (initialTotal > BUDGET_BYTES) {
  console.error('Initial bundle is over budget');
  process.exit(1);
}
