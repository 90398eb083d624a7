import { describe, expect, it } from 'vitest';
import {
  COUNTER_FITTING_REPORT_PAIRS,
  CounterFittedEmbedding,
  GloveEmbedding,
  counterFittingReport,
  nearest,
} from '../src/index.js';

// Builds (first run, ~10–20 s) or reads the counter-fitted GloVe cache (50k words).
describe('counter-fitted GloVe from WordNet constraints', () => {
  it('moves the report pairs: synonyms closer, antonyms apart', async () => {
    const glove = await GloveEmbedding.load();
    const cf = await CounterFittedEmbedding.load();
    expect(cf.size).toBe(50_000);
    const rows = await counterFittingReport(glove, cf);
    expect(rows.length).toBe(COUNTER_FITTING_REPORT_PAIRS.length);
    for (const r of rows) {
      if (r.relation === 'synonym') expect(r.after, `${r.a}/${r.b}`).toBeGreaterThan(r.before);
      else expect(r.after, `${r.a}/${r.b}`).toBeLessThan(r.before - 0.2);
    }
    // the A2T use: "cheap"'s neighbours no longer include "expensive"
    const [before] = await nearest(glove, ['cheap'], 10);
    const [after] = await nearest(cf, ['cheap'], 10);
    expect(before.map((n) => n.word)).toContain('expensive');
    expect(after.map((n) => n.word)).not.toContain('expensive');
    expect(after[0].word).toBe('inexpensive');
  }, 300_000);
});
