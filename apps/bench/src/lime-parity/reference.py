"""Runs the reference LIME (marcotcr/lime's LimeTextExplainer) on texts with an exported xtrust
bag-of-words model, and writes its explanations and timings as JSON.

usage: /usr/bin/python3 reference.py LIME_SOURCE_DIR MODEL_JSON TEXTS_JSON SEED FEATURE_SELECTION OUT_JSON

LIME_SOURCE_DIR holds the `lime` package (from the fetched github:marcotcr/lime source);
numpy, scipy and scikit-learn come from Debian (python3-numpy python3-scipy python3-sklearn).
"""
import json
import sys
import time

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer

sys.path.insert(0, sys.argv[1])
from lime.lime_text import LimeTextExplainer  # noqa: E402

model = json.load(open(sys.argv[2]))
texts = json.load(open(sys.argv[3]))
seed = int(sys.argv[4])
feature_selection = sys.argv[5]
out_path = sys.argv[6]

# The built-in model: lower-cased word tokens (\w+), bag of words with presence or log(1 + count),
# one dense layer, softmax — the same arithmetic as xtrust's BuiltinClassifier (in float64 here).
vectorizer = CountVectorizer(vocabulary={w: i for i, w in enumerate(model['vocabulary'])}, token_pattern=r'(?u)\w+', lowercase=True)
W = np.asarray(model['weight'], dtype=np.float64).reshape(model['inDim'], model['outDim'])
b = np.asarray(model['bias'], dtype=np.float64)


def predict_proba(strings):
    x = vectorizer.transform(strings).astype(np.float64)
    if model['transform'] == 'log1p':
        x = x.log1p()
    else:
        x.data[:] = 1.0
    z = np.asarray(x @ W) + b
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


explainer = LimeTextExplainer(class_names=model['labels'], random_state=seed, feature_selection=feature_selection)
results = []
for text in texts:
    start, cpu0 = time.perf_counter(), time.process_time()
    exp = explainer.explain_instance(text, predict_proba, top_labels=1, num_features=int(model.get('numFeatures', 10)), num_samples=5000)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu0
    label = exp.top_labels[0]
    results.append({
        'label': model['labels'][label],
        'features': [[w, float(v)] for w, v in exp.as_list(label=label)],
        'score': float(exp.score[label]),
        'seconds': seconds,
        'cpuSeconds': cpu,
    })
json.dump({'seed': seed, 'featureSelection': feature_selection, 'results': results}, open(out_path, 'w'))
