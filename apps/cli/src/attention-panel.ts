import { isAttentionProvider, type Classifier } from '@xtrust/core';
import { AttentionExplainer } from '@xtrust/explainers';
import type { AuditedPrediction } from './audit-records.js';
import type { Progress } from './progress.js';

/**
 * The report's second explanation for transformers: when the classifier is an AttentionProvider (an
 * ONNX/Hugging Face folder whose graph outputs attentions), each audited prediction gets the words of its
 * last-layer self-attention (heads averaged, sub-words merged, special tokens dropped: 003 §3.3), top `topK`
 * by weight, shown beside LIME's. Other classifiers' predictions come back unchanged. The oracle's verdicts
 * never use these weights: they rest on LIME as in the TOKI paper.
 */
export async function withAttention(
  classifier: Classifier,
  predictions: AuditedPrediction[],
  topK: number,
  progress: Progress,
): Promise<AuditedPrediction[]> {
  if (!isAttentionProvider(classifier) || predictions.length === 0) return predictions;
  progress.note(`attention: last-layer self-attention of ${predictions.length} predictions (shown beside LIME)`);
  const explanations = await new AttentionExplainer().explain(
    classifier,
    predictions.map((p) => p.text),
  );
  return predictions.map((p, i) => ({ ...p, attention: explanations[i].features.slice(0, topK) }));
}
