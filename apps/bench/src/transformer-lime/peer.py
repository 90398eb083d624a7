"""The peer of the transformer LIME benchmark: marcotcr/lime's LimeTextExplainer explaining a BERT classifier
run by PyTorch on the same weights as the ONNX graph xtrust runs.

usage: /usr/bin/python3 peer.py --lime-src DIR --kit DIR --model DIR --texts FILE --seeds 1,2 --samples 5000
                                --threads 2 --batch 64 --out FILE

The model is the kit's hand-written BERT (models/transformers/kit/bert.py, Hugging Face parameter names),
its weights from the folder's pytorch_model.bin (a state dict) when present, otherwise read back from
onnx/model.onnx: named initializers by name, the Linear weights that the exporter stored transposed and
anonymous ("onnx::MatMul_N") in the order the graph uses them. Texts are tokenised by the kit's WordPiece
(the transformers.js algorithm, the same ids as xtrust). predict_proba is batched the way LIME's text
tutorials write it: the perturbed strings in LIME's order, `batch` at a time, padded to the longest of the
batch, softmax of the logits.
"""
import argparse
import ctypes
import json
import os
import re
import sys
import time

import numpy as np
import torch

p = argparse.ArgumentParser()
p.add_argument('--lime-src', required=True)
p.add_argument('--kit', required=True)
p.add_argument('--model', required=True)
p.add_argument('--texts', required=True)
p.add_argument('--seeds', default='1,2')
p.add_argument('--samples', type=int, default=5000)
p.add_argument('--threads', type=int, default=2)
p.add_argument('--batch', type=int, default=64)
p.add_argument('--out', required=True)
a = p.parse_args()

torch.set_num_threads(a.threads)
sys.path.insert(0, a.lime_src)
# The kit is a package (models/transformers/kit, relative imports): import it from its parent folder.
sys.path.insert(0, os.path.dirname(os.path.abspath(a.kit)))
kit_name = os.path.basename(os.path.abspath(a.kit))
from lime.lime_text import LimeTextExplainer  # noqa: E402
import importlib  # noqa: E402
BertConfig = importlib.import_module(f'{kit_name}.bert').BertConfig
pad_batch = importlib.import_module(f'{kit_name}.data').pad_batch
BertForSequenceClassification = importlib.import_module(f'{kit_name}.bert').BertForSequenceClassification
WordPiece = importlib.import_module(f'{kit_name}.wordpiece').WordPiece
try:
    load_classifier = importlib.import_module(f'{kit_name}.load').load_classifier
except ImportError:
    load_classifier = None


def blas_info() -> str:
    """The BLAS library this process has mapped (Debian's torch links whatever libblas.so.3 points to)."""
    libs = set()
    try:
        with open('/proc/self/maps') as f:
            for line in f:
                m = re.search(r'(/\S*/lib(?:open)?blas\S*\.so\S*)', line)
                if m:
                    libs.add(os.path.realpath(m.group(1)))
    except OSError:
        pass
    return ', '.join(sorted(libs) + openblas_core(libs)) or 'unknown'


def openblas_core(libs) -> list:
    """OpenBLAS's kernel family for this CPU (OPENBLAS_CORETYPE overrides it): a fair peer runs the CPU's own kernels."""
    for lib in sorted(libs):
        if 'openblas' not in os.path.basename(lib):
            continue
        try:
            get = ctypes.CDLL(lib).openblas_get_corename
            get.restype = ctypes.c_char_p
            forced = os.environ.get('OPENBLAS_CORETYPE')
            return [f"OpenBLAS core {get().decode()}" + (f" (forced by OPENBLAS_CORETYPE={forced})" if forced else '')]
        except (OSError, AttributeError):
            return []
    return []


cfg = json.load(open(os.path.join(a.model, 'config.json')))
labels = [cfg['id2label'][str(i)] for i in range(len(cfg['id2label']))]
c = BertConfig(vocab_size=cfg['vocab_size'], hidden_size=cfg['hidden_size'], num_hidden_layers=cfg['num_hidden_layers'],
               num_attention_heads=cfg['num_attention_heads'], intermediate_size=cfg['intermediate_size'],
               max_position_embeddings=cfg['max_position_embeddings'], type_vocab_size=cfg.get('type_vocab_size', 2),
               layer_norm_eps=cfg.get('layer_norm_eps', 1e-12), pad_token_id=cfg.get('pad_token_id', 0), labels=labels)
model = BertForSequenceClassification(c).eval()
source = None
state_path = os.path.join(a.model, 'pytorch_model.bin')
kit_error = None
if os.path.exists(state_path):
    model.load_state_dict(torch.load(state_path))
    source = 'pytorch_model.bin'
elif load_classifier is not None:
    try:
        model = load_classifier(a.model)
        source = "onnx/model.onnx's initializers by parameter name (the kit's load_classifier)"
    except Exception as e:  # a graph whose exporter merged or renamed weights: read them back by position below
        kit_error = str(e)
if source is None:
    import onnx
    from onnx import numpy_helper
    g = onnx.load(os.path.join(a.model, 'onnx', 'model.onnx')).graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    sd = model.state_dict()
    loaded = set()
    for name, arr in inits.items():
        key = name[len('model.'):] if name.startswith('model.') else name
        if key in sd and tuple(sd[key].shape) == arr.shape:
            sd[key] = torch.from_numpy(arr.copy())
            loaded.add(key)
    order = ['attention.self.query', 'attention.self.key', 'attention.self.value', 'attention.output.dense', 'intermediate.dense', 'output.dense']
    linears = [f'bert.encoder.layer.{l}.{n}.weight' for l in range(c.num_hidden_layers) for n in order]
    anon = [n.input[1] for n in g.node if n.op_type == 'MatMul' and n.input[1] in inits and not n.input[1].startswith('model.')]
    if len(anon) != len(linears):
        raise SystemExit(f'{a.model}: {len(anon)} anonymous MatMul weights for {len(linears)} Linear layers; save a pytorch_model.bin next to the graph')
    for key, name in zip(linears, anon):
        w = torch.from_numpy(inits[name].T.copy())
        if tuple(w.shape) != tuple(sd[key].shape):
            raise SystemExit(f'{a.model}: {name} has shape {tuple(w.shape)}, {key} needs {tuple(sd[key].shape)}')
        sd[key] = w
        loaded.add(key)
    missing = [k for k in sd if k not in loaded and not k.endswith('position_ids')]
    model.load_state_dict(sd)
    source = f'onnx/model.onnx initializers by position ({len(loaded)} tensors; {len(missing)} left at their initial value, e.g. weights the exporter merged: {missing[:3]}; the kit loader said: {kit_error})'

tj = json.load(open(os.path.join(a.model, 'tokenizer.json')))
vocab = [t for t, _ in sorted(tj['model']['vocab'].items(), key=lambda kv: kv[1])]
tconf = json.load(open(os.path.join(a.model, 'tokenizer_config.json')))
tok = WordPiece(vocab, int(tconf.get('model_max_length', c.max_position_embeddings)))
pad = tok.ids.get('[PAD]', 0)


def predict_proba(strings):
    out = []
    with torch.no_grad():
        for s in range(0, len(strings), a.batch):
            ids, att = pad_batch([tok.encode(t) for t in strings[s:s + a.batch]], pad)
            logits, _ = model(ids, att, torch.zeros_like(ids))
            out.append(torch.softmax(logits, -1).numpy().astype(np.float64))
    return np.concatenate(out)


texts = json.load(open(a.texts))
base = predict_proba(texts)
results = {'blas': blas_info(), 'torchThreads': torch.get_num_threads(), 'torch': torch.__version__, 'weights': source,
           'probabilities': base.tolist(), 'runs': []}
print(f'peer: torch {torch.__version__}, {torch.get_num_threads()} threads, BLAS {results["blas"]}; weights from {source}', file=sys.stderr)
for seed in [int(x) for x in a.seeds.split(',')]:
    explainer = LimeTextExplainer(class_names=labels, random_state=seed)
    run = []
    for text in texts:
        t0, c0 = time.perf_counter(), time.process_time()
        exp = explainer.explain_instance(text, predict_proba, top_labels=1, num_features=10, num_samples=a.samples)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        label = exp.top_labels[0]
        run.append({'label': labels[label], 'features': [[w, float(v)] for w, v in exp.as_list(label=label)], 'seconds': seconds, 'cpuSeconds': cpu})
        print(f'peer seed {seed}: {seconds:.1f} s', file=sys.stderr)
    results['runs'].append({'seed': seed, 'results': run})
json.dump(results, open(a.out, 'w'))
