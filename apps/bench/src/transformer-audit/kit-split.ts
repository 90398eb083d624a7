/**
 * The data of the transformer audits: the model kit's split of the SpamAssassin bodies
 * (models/transformers/export-corpora.mjs: test 0.3, validation 0.15, seed 1) rebuilt through
 * @xtrust/datasets and written as JSONL for `xtrust audit`, so the audited test texts are texts the
 * kit's model never trained on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpamAssassin, stratifiedSplit } from '@xtrust/datasets';

/** The kit's split (models/transformers/export-corpora.mjs SPLIT). */
export const KIT_SPLIT = { testFraction: 0.3, validationFraction: 0.15, seed: 1 } as const;

export interface KitSplitFiles {
  readonly trainFile: string;
  readonly testFile: string;
  readonly train: number;
  readonly validation: number;
  readonly test: number;
}

/**
 * Writes `<work>/spam-train.jsonl` and `<work>/spam-test.jsonl`. `training` is the model folder's
 * training.json: a split whose test size differs from the one the model was evaluated on is refused.
 */
export function writeKitSpamSplit(work: string, training: { corpus?: string; test_size?: number }): KitSplitFiles {
  const data = loadSpamAssassin({ headers: false });
  const split = stratifiedSplit(data.rows, KIT_SPLIT);
  if (training.corpus === 'spam' && training.test_size !== undefined && training.test_size !== split.test.length) {
    throw new Error(
      `the rebuilt split has ${split.test.length} test texts, the kit's training.json says ${training.test_size}: not the kit's split (export-corpora.mjs changed?)`,
    );
  }
  const toJsonl = (rows: readonly { text: string; label: string }[]) =>
    `${rows.map((r) => JSON.stringify({ text: r.text, label: r.label })).join('\n')}\n`;
  const trainFile = join(work, 'spam-train.jsonl');
  const testFile = join(work, 'spam-test.jsonl');
  writeFileSync(trainFile, toJsonl(split.train));
  writeFileSync(testFile, toJsonl(split.test));
  return {
    trainFile,
    testFile,
    train: split.train.length,
    validation: split.validation.length,
    test: split.test.length,
  };
}
