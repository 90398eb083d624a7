import { describe, expect, it } from 'vitest';
import { OmissionExplainer } from '../src/index.js';
import { LinearBowModel, sigmoid, stringsOnly } from './models.js';

describe('OmissionExplainer', () => {
  const model = new LinearBowModel({ good: 1.2, bad: -0.9, film: 0.1 }, 0.3);
  const text = 'good film, good cast; bad ending';

  it('is the drop in the explained label’s probability when a word (every occurrence) is removed, by hand', async () => {
    const [exp] = await new OmissionExplainer().explain(model, [text]);
    const full = sigmoid(0.3 + 1.2 * 2 + 0.1 - 0.9);
    expect(exp.predictedLabel).toBe('pos');
    expect(exp.explainedLabel).toBe('pos');
    const w = (word: string) => exp.features.find((f) => f.word === word)!.weight;
    expect(w('good')).toBeCloseTo(full - sigmoid(0.3 + 0.1 - 0.9), 6);
    expect(w('bad')).toBeCloseTo(full - sigmoid(0.3 + 2.4 + 0.1), 6);
    expect(w('film')).toBeCloseTo(full - sigmoid(0.3 + 2.4 - 0.9), 6);
    expect(w('cast')).toBeCloseTo(0, 6);
    expect(exp.features.map((f) => f.word).slice(0, 3)).toEqual(['good', 'bad', 'film']);
    expect(exp.features.length).toBe(5);
  });

  it('makes one model call per text, and the same result from strings', async () => {
    const m = new LinearBowModel({ good: 1.2, bad: -0.9, film: 0.1 }, 0.3);
    const texts = [text, 'bad bad film', 'good'];
    const a = await new OmissionExplainer().explain(m, texts, { labels: ['neg'] });
    expect(m.calls.scoreTokenMasks).toBe(3);
    expect(m.calls.predictProba).toBe(0);
    const b = await new OmissionExplainer().explain(stringsOnly(m), texts, { labels: ['neg'] });
    expect(m.calls.predictProba).toBe(3);
    expect(b.map((e) => e.features)).toEqual(a.map((e) => e.features));
    expect(a.map((e) => e.explainedLabel)).toEqual(['neg', 'neg', 'neg']);
    // one word: its effect is the full text versus the empty one
    expect(a[2].features[0].weight).toBeCloseTo(1 - sigmoid(0.3 + 1.2) - (1 - sigmoid(0.3)), 6);
  });

  it('position mode removes one occurrence at a time', async () => {
    const [exp] = await new OmissionExplainer().explain(model, ['good good'], { bow: false });
    expect(exp.features.length).toBe(2);
    for (const f of exp.features) expect(f.weight).toBeCloseTo(sigmoid(0.3 + 2.4) - sigmoid(0.3 + 1.2), 6);
  });
});
