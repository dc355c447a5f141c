// Folds every result file into one closing line: `all: N passed, N failed, N skipped`.
// vitest*.json are vitest's JSON reporter; any other *.json is {passed, failed, skipped}.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'test-results';
let passed = 0,
  failed = 0,
  skipped = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const r = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if ('numPassedTests' in r) {
    passed += r.numPassedTests;
    // a file that fails to load has no failed tests but is a failed suite
    failed += r.numFailedTests || (r.numFailedTestSuites ?? 0);
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  } else {
    passed += r.passed ?? 0;
    failed += r.failed ?? 0;
    skipped += r.skipped ?? 0;
  }
}
console.log(`\nall: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
