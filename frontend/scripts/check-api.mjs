// Fails when src/api/schema.gen.ts is stale: regenerates the types from ../docs/openapi.json (the
// REST and realtime contract written by `make openapi`) into a temporary file with the same
// openapi-typescript as `npm run gen:api`, and compares it with the committed file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contract = path.join(root, '..', 'docs', 'openapi.json');
const committed = path.join(root, 'src', 'api', 'schema.gen.ts');

const dir = mkdtempSync(path.join(tmpdir(), 'check-api-'));
try {
  const fresh = path.join(dir, 'schema.gen.ts');
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), contract, '--output', fresh],
    { cwd: root, encoding: 'utf8' },
  );
  if (run.status !== 0) {
    console.error(`check:api: openapi-typescript failed on ${path.relative(root, contract)}:\n${run.stderr}`);
    process.exit(1);
  }
  let current = null;
  try {
    current = readFileSync(committed, 'utf8');
  } catch {
    // Reported below as stale.
  }
  if (current !== readFileSync(fresh, 'utf8')) {
    console.error(
      'check:api: src/api/schema.gen.ts is stale: it no longer matches ../docs/openapi.json.\n' +
        'Run `npm run gen:api` in frontend/ (after `make openapi` if the gateway changed), fix what tsc then reports, and commit both.',
    );
    process.exit(1);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
