import { describe, expect, it } from 'vitest';
import { parseLimeSetting, parseLimeSettings } from '../src/transformer-lime/lime-setting.js';

describe('lime-candidates: LIME settings on the command line', () => {
  it('reads candidate LIME as METHOD:COUNT:SAMPLES, limeN naming the short pass', () => {
    expect(parseLimeSetting('lime1000:30:1500')).toEqual({
      name: 'lime1000:30:1500',
      options: { numSamples: 1500, candidates: { method: 'lime', count: 30, samples: 1000 } },
    });
    expect(parseLimeSetting(' omission:20:500 ').options).toEqual({
      numSamples: 500,
      candidates: { method: 'omission', count: 20 },
    });
    expect(parseLimeSetting('gradient:15:800').options.candidates).toEqual({ method: 'gradient', count: 15 });
  });

  it('reads full-width LIME with independent or balanced rows, optionally adaptive', () => {
    expect(parseLimeSetting('random:2500').options).toEqual({ numSamples: 2500 });
    expect(parseLimeSetting('balanced:1500').options).toEqual({ numSamples: 1500, sampler: 'balanced' });
    expect(parseLimeSetting('random:5000+adaptive').options).toEqual({ numSamples: 5000, adaptive: true });
    expect(parseLimeSettings('random:1500;balanced:5000+adaptive').map((s) => s.name)).toEqual([
      'random:1500',
      'balanced:5000+adaptive',
    ]);
  });

  it('refuses a malformed setting, naming the forms there are', () => {
    for (const bad of ['lime:30:1000', 'omission:1:500', 'omission:20', 'random:1', 'sobol:2000', 'lime1:20:500'])
      expect(() => parseLimeSetting(bad), bad).toThrow(/METHOD:COUNT:SAMPLES .*random:N \/ balanced:N/);
  });
});
