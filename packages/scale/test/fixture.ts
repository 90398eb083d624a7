/** A small saved model and a list of instances shared by the scale tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rng } from '@xtrust/core';
import { loadSpamAssassin } from '@xtrust/datasets';
import { trainClassifier } from '@xtrust/models';

const cut = (t: string, n: number) => t.split(/\s+/).filter(Boolean).slice(0, n).join(' ');

/** Trains a bag-of-words logistic model on 600 SpamAssassin bodies, saves it, and returns `count` other texts as instances. */
export async function fixture(
  count: number,
): Promise<{ modelDir: string; instances: { id: string; text: string; label: string }[] }> {
  const data = loadSpamAssassin({ headers: false });
  const order = rng(7).shuffle(data.rows.map((_, i) => i));
  const train = order.slice(0, 600).map((i) => ({ text: cut(data.rows[i].text, 60), label: data.rows[i].label }));
  const model = await trainClassifier('bow-logistic', train, { seed: 1 });
  const modelDir = join(mkdtempSync(join(tmpdir(), 'xtrust-scale-')), 'model');
  await model.save(modelDir);
  const instances = order
    .slice(600)
    .map((i) => ({ id: `row-${i}`, text: cut(data.rows[i].text, 30), label: data.rows[i].label }))
    .filter((x) => new Set(x.text.toLowerCase().split(/\W+/).filter(Boolean)).size >= 3)
    .slice(0, count);
  return { modelDir, instances };
}
