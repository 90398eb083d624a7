import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

let chartJs: string | null = null;

/**
 * Chart.js's UMD build, read from node_modules when a report is written, so the report carries the
 * library inline and opens without network.
 */
export function chartJsSource(): string {
  if (chartJs === null) {
    const entry = require.resolve('chart.js'); // dist/chart.cjs (the package exports no UMD path)
    chartJs = readFileSync(join(dirname(entry), 'chart.umd.min.js'), 'utf8');
  }
  return chartJs;
}
