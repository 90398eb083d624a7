import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, SMALL_AUDIT, xtrust, xtrustAsync, type Fixture } from './helpers.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await buildFixture();
}, 300_000);

/** A usage error: exit 2, one line on stderr. */
function usage(r: { code: number | null; stderr: string }): void {
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^xtrust: /);
}

describe('--class-descriptions FILE (label → words describing the class beside its name)', () => {
  it('refuses a file that is missing, not JSON, has a bad value, or a label the model lacks — naming the file and the label', () => {
    const missing = join(fx.dir, 'no-such-descriptions.json');
    let r = xtrust(['keywords', '--model', fx.model, '--train', fx.train, '--class-descriptions', missing]);
    usage(r);
    expect(r.stderr).toContain(missing);
    const notJson = join(fx.dir, 'descriptions-not-json.json');
    writeFileSync(notJson, '{ spam: ');
    r = xtrust(['keywords', '--model', fx.model, '--train', fx.train, '--class-descriptions', notJson]);
    usage(r);
    expect(r.stderr).toContain(notJson);
    const badValue = join(fx.dir, 'descriptions-bad-value.json');
    writeFileSync(badValue, JSON.stringify({ spam: ['junk', 3] }));
    r = xtrust(['keywords', '--model', fx.model, '--train', fx.train, '--class-descriptions', badValue]);
    usage(r);
    expect(r.stderr).toContain(badValue);
    expect(r.stderr).toContain('"spam"');
    const badLabel = join(fx.dir, 'descriptions-bad-label.json');
    writeFileSync(badLabel, JSON.stringify({ spma: 'unwanted bulk e-mail' }));
    r = xtrust([
      'audit',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--class-descriptions',
      badLabel,
    ]);
    usage(r);
    expect(r.stderr).toContain(badLabel);
    expect(r.stderr).toContain('"spma"');
  }, 300_000);

  it('keeps the descriptions in the keyword store it writes', async () => {
    const file = join(fx.dir, 'descriptions.json');
    writeFileSync(file, JSON.stringify({ spam: 'unwanted bulk commercial e-mail, offers and prizes' }));
    const out = join(fx.dir, 'keywords-described');
    const r = await xtrustAsync([
      'keywords',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--class-descriptions',
      file,
      '--out',
      out,
      '--why',
      'Free',
      ...SMALL_AUDIT.filter((a, i, all) => !['--test-sample'].includes(a) && !['--test-sample'].includes(all[i - 1])),
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // per class: the related share and why "free" (normalised) is or is not a keyword, with the meaning test's figures
    const lines = r.stdout.split('\n');
    expect(lines.filter((l) => /^ {2}related {4}\d+ of \d+ pool words \(/.test(l))).toHaveLength(fx.labels.length);
    const why = lines.filter((l) => l.startsWith('  why "free"  '));
    expect(why).toHaveLength(fx.labels.length);
    for (const l of why) expect(l).toMatch(/ {2}(related|not related|demoted|not in the pool)/);
    expect(why[fx.labels.indexOf('spam')]).toMatch(
      /^ {2}why "free" {2}(not )?related: beats \d+ % of subjects \(needs \d+ %\)/,
    );
    const store = JSON.parse(readFileSync(join(out, 'keywords.json'), 'utf8'));
    expect(store.oracle.name).toBe('toki');
    expect(store.oracle.classDescriptions).toEqual({ spam: 'unwanted bulk commercial e-mail, offers and prizes' });
  }, 300_000);
});
