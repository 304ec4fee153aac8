// Runs Vitest once and ends with a plain "N passed, N failed" line computed from Vitest's JSON
// report, because CI reads that line and not Vitest's own summary. Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const reportDir = mkdtempSync(path.join(tmpdir(), 'vitest-report-'));
const reportFile = path.join(reportDir, 'report.json');
const vitest = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } },
);

let passed = 0;
let failed = 0;
let reportRead = false;
try {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  passed = report.numPassedTests ?? 0;
  // A test file that fails before running any test (an import error, say) counts as one failure.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  failed = (report.numFailedTests ?? 0) + brokenFiles;
  if (report.success === false && failed === 0) failed = 1;
  reportRead = true;
} catch (error) {
  console.error(`could not read the vitest report: ${error.message}`);
} finally {
  rmSync(reportDir, { recursive: true, force: true });
}

if (!reportRead && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
const ok = reportRead && failed === 0 && vitest.status === 0;
process.exit(ok ? 0 : vitest.status || 1);
