"""WordPiece: BERT normalisation and pre-tokenisation, a vocabulary trainer and the greedy encoder.

The normaliser and pre-tokeniser follow the BertNormalizer / BertPreTokenizer of transformers.js
(@huggingface/tokenizers 0.2, which xtrust's loader runs), step for step, so that the ids the kit trains
on are the ids xtrust feeds the exported graphs; the fast test models/transformers (tokenizer-ids)
compares them on the corpora's first 1,000 texts.

Training (`train_wordpiece`) follows Hugging Face tokenizers' WordPieceTrainer: start from characters
(word-initial `c`, word-internal `##c`) and repeatedly merge the most frequent adjacent pair (BPE's rule,
Sennrich et al. 2016, emitting `##` continuation pieces) until the vocabulary has the requested size.
Ties break on the pair's text, so the result is deterministic. (The likelihood score
count(ab) / (count(a) · count(b)) of Schuster & Nakajima (2012), used here before, spends an 8k budget on
pairs of rare units and left the commonest English words split, e.g. `th ##e`.)
"""
from __future__ import annotations

import heapq
import re
import json
import unicodedata
from collections import Counter, defaultdict
from typing import Dict, Iterable, List, Sequence, Tuple

PAD, UNK, CLS, SEP, MASK = "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"
SPECIALS = [PAD, UNK, CLS, SEP, MASK]
PREFIX = "##"
MAX_CHARS_PER_WORD = 100

# JavaScript's \s (ECMAScript WhiteSpace + LineTerminator), which transformers.js uses for both
# clean_text's whitespace test and BertPreTokenizer's split.
JS_WHITESPACE = set("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | {chr(c) for c in range(0x2000, 0x200B)}


def _is_control(ch: str) -> bool:
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs")


def _is_chinese_code_unit(cp: int) -> bool:
    # transformers.js tests UTF-16 code units, so only the BMP ranges can ever match.
    return (0x4E00 <= cp <= 0x9FFF) or (0x3400 <= cp <= 0x4DBF) or (0xF900 <= cp <= 0xFAFF)


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 0x21 <= cp <= 0x2F or 0x3A <= cp <= 0x40 or 0x5B <= cp <= 0x60 or 0x7B <= cp <= 0x7E:
        return True
    return unicodedata.category(ch).startswith("P")


# ASCII fast path: control characters go (\t \n \r become spaces), as do the other white-space characters.
_ASCII_CLEAN = {c: None for c in range(0x20) if chr(c) not in "\t\n\r"}
_ASCII_CLEAN.update({0x7F: None, 0x09: 0x20, 0x0A: 0x20, 0x0D: 0x20})
_ASCII_WORDS = re.compile(r"[^ !-/:-@\[-`{-~]+|[!-/:-@\[-`{-~]")


def normalize(text: str) -> str:
    """BertNormalizer(clean_text, handle_chinese_chars, lowercase, strip_accents) as transformers.js runs it."""
    if text.isascii():
        return text.translate(_ASCII_CLEAN).lower()
    out = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or _is_control(ch):
            continue
        out.append(" " if ch in JS_WHITESPACE else ch)
    text = "".join(out)
    out = []
    for ch in text:
        if _is_chinese_code_unit(ord(ch)):
            out.append(" " + ch + " ")
        else:
            out.append(ch)
    text = "".join(out).lower()
    text = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Mn")


def pre_tokenize(text: str) -> List[str]:
    """BertPreTokenizer: runs of non-space non-punctuation characters, and each punctuation character alone."""
    words: List[str] = []
    cur: List[str] = []
    for ch in text:
        if ch in JS_WHITESPACE:
            if cur:
                words.append("".join(cur))
                cur = []
        elif _is_punctuation(ch):
            if cur:
                words.append("".join(cur))
                cur = []
            words.append(ch)
        else:
            cur.append(ch)
    if cur:
        words.append("".join(cur))
    return words


def words_of(text: str) -> List[str]:
    if text.isascii():
        return _ASCII_WORDS.findall(normalize(text))
    return pre_tokenize(normalize(text))


class WordPiece:
    """Greedy longest-match-first WordPiece encoder over a fixed vocabulary (the HF / transformers.js algorithm)."""

    def __init__(self, vocab: Sequence[str], max_length: int):
        self.vocab = list(vocab)
        self.ids: Dict[str, int] = {t: i for i, t in enumerate(self.vocab)}
        self.max_length = max_length
        self.unk_id = self.ids[UNK]
        self._cache: Dict[str, List[int]] = {}

    def word_ids(self, word: str) -> List[int]:
        hit = self._cache.get(word)
        if hit is not None:
            return hit
        if len(word) > MAX_CHARS_PER_WORD:
            res = [self.unk_id]
        else:
            res = []
            start = 0
            while start < len(word):
                end = len(word)
                found = None
                while start < end:
                    sub = word[start:end] if start == 0 else PREFIX + word[start:end]
                    if sub in self.ids:
                        found = self.ids[sub]
                        break
                    end -= 1
                if found is None:
                    res = [self.unk_id]
                    break
                res.append(found)
                start = end
        if len(self._cache) < 500_000:
            self._cache[word] = res
        return res

    def encode_words(self, text: str) -> List[int]:
        """Ids of a text without special tokens; a literal special token in the text is that token (added tokens)."""
        ids: List[int] = []
        for piece, special in _split_specials(text):
            if special:
                ids.append(self.ids[piece])
            else:
                for w in words_of(piece):
                    ids.extend(self.word_ids(w))
        return ids

    def encode(self, text: str, truncate: bool = True, bos_eos: bool = True) -> List[int]:
        """[CLS] ids [SEP], cut to max_length the way transformers.js truncates (the tail goes, [SEP] with it)."""
        ids = self.encode_words(text)
        if bos_eos:
            ids = [self.ids[CLS]] + ids + [self.ids[SEP]]
        if truncate and len(ids) > self.max_length:
            ids = ids[: self.max_length]
        return ids


def _split_specials(text: str) -> List[Tuple[str, bool]]:
    """Splits a raw text at literal special tokens ([CLS], [MASK], …), as tokenizers' added-token matching does."""
    parts: List[Tuple[str, bool]] = []
    i = 0
    start = 0
    while True:
        j = text.find("[", i)
        if j < 0:
            break
        hit = next((s for s in SPECIALS if text.startswith(s, j)), None)
        if hit is None:
            i = j + 1
            continue
        if j > start:
            parts.append((text[start:j], False))
        parts.append((hit, True))
        i = start = j + len(hit)
    if start < len(text):
        parts.append((text[start:], False))
    return parts


def train_wordpiece(texts: Iterable[str], vocab_size: int, min_word_count: int = 2, alphabet_min_count: int = 20, log=print) -> List[str]:
    """Learns a WordPiece vocabulary: specials, characters (c and ##c), then merges of the most FREQUENT adjacent pair.

    This is what Hugging Face tokenizers' WordPieceTrainer does (it is its BpeTrainer with the `##`
    continuing-subword prefix): the merge with the largest count(ab) wins, so the commonest words
    ("the", "and", "free", "money") become whole pieces early. The likelihood score
    count(ab)/(count(a)·count(b)) of Schuster & Nakajima (2012), which this trainer used before, favours
    pairs of rare units and, with an 8k budget, left "the" split as `th ##e`. Ties break on the pair's
    text (a, then b), so the result is deterministic.

    The guard against the spam corpus's base64 and message-id fragments: only words seen at least
    min_word_count times are training units, and only characters seen alphabet_min_count times form the
    alphabet (HF's min_frequency / limit_alphabet); frequency merges then spend the budget on what recurs."""
    word_counts: Counter = Counter()
    for t in texts:
        word_counts.update(words_of(t))
    char_counts: Counter = Counter()
    for w, c in word_counts.items():
        for ch in w:
            char_counts[ch] += c
    alphabet = sorted(ch for ch, c in char_counts.items() if c >= alphabet_min_count)
    alpha = set(alphabet)
    # Words seen at least min_word_count times and spelt in the alphabet are the training units.
    words = sorted(w for w, c in word_counts.items() if c >= min_word_count and len(w) <= MAX_CHARS_PER_WORD and all(ch in alpha for ch in w))
    counts = [word_counts[w] for w in words]
    splits: List[List[str]] = [[w[0]] + [PREFIX + ch for ch in w[1:]] for w in words]
    vocab: List[str] = list(SPECIALS) + alphabet + sorted({PREFIX + ch for w in words for ch in w[1:]})
    in_vocab = set(vocab)
    log(f"wordpiece: {len(word_counts)} distinct words, {len(words)} kept (count ≥ {min_word_count}), alphabet {len(alphabet)}, initial vocabulary {len(vocab)}")

    pair_count: Counter = Counter()
    pair_words: Dict[Tuple[str, str], set] = defaultdict(set)
    for i, (sp, c) in enumerate(zip(splits, counts)):
        for a, b in zip(sp, sp[1:]):
            pair_count[(a, b)] += c
            pair_words[(a, b)].add(i)

    # Max-heap on (count, then the pair's text ascending); stale entries are skipped when popped.
    heap: List[Tuple[int, Tuple[str, str]]] = [(-c, p) for p, c in pair_count.items() if c > 0]
    heapq.heapify(heap)

    while len(vocab) < vocab_size and heap:
        negc, p = heapq.heappop(heap)
        if -negc != pair_count.get(p, 0) or -negc <= 0:
            continue  # stale entry: the pair's current count is elsewhere in the heap (or it is gone)
        a, b = p
        merged = a + (b[len(PREFIX):] if b.startswith(PREFIX) else b)
        touched = set()
        for i in sorted(pair_words[p]):
            sp = splits[i]
            c = counts[i]
            j = 0
            new = []
            changed = False
            while j < len(sp):
                if j + 1 < len(sp) and sp[j] == a and sp[j + 1] == b:
                    new.append(merged)
                    j += 2
                    changed = True
                else:
                    new.append(sp[j])
                    j += 1
            if not changed:
                continue
            for x, y in zip(sp, sp[1:]):
                pair_count[(x, y)] -= c
                pair_words[(x, y)].discard(i)
                touched.add((x, y))
            for x, y in zip(new, new[1:]):
                pair_count[(x, y)] += c
                pair_words[(x, y)].add(i)
                touched.add((x, y))
            splits[i] = new
        if merged not in in_vocab:
            vocab.append(merged)
            in_vocab.add(merged)
        # Only pairs inside the rewritten words changed count.
        for q in touched:
            if pair_count.get(q, 0) > 0:
                heapq.heappush(heap, (-pair_count[q], q))
        if len(vocab) % 1000 == 0:
            log(f"wordpiece: vocabulary {len(vocab)} (last merge {a} + {b}, count {-negc})")
    return vocab


def tokenizer_json(vocab: Sequence[str], max_length: int, causal: bool = False) -> dict:
    """HF tokenizers' tokenizer.json for the vocabulary: BertNormalizer, BertPreTokenizer, WordPiece, [CLS] $A [SEP]."""
    ids = {t: i for i, t in enumerate(vocab)}
    added = [{"id": ids[s], "content": s, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True} for s in SPECIALS]
    return {
        "version": "1.0",
        "truncation": {"direction": "Right", "max_length": max_length, "strategy": "LongestFirst", "stride": 0},
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True, "strip_accents": True, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": CLS, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": SEP, "type_id": 0}}],
            "pair": [
                {"SpecialToken": {"id": CLS, "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": SEP, "type_id": 0}},
                {"Sequence": {"id": "B", "type_id": 1}},
                {"SpecialToken": {"id": SEP, "type_id": 1}},
            ],
            "special_tokens": {s: {"id": s, "ids": [ids[s]], "tokens": [s]} for s in (CLS, SEP)},
        },
        "decoder": {"type": "WordPiece", "prefix": PREFIX, "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": UNK, "continuing_subword_prefix": PREFIX, "max_input_chars_per_word": MAX_CHARS_PER_WORD, "vocab": ids},
    }


def tokenizer_config_json(max_length: int, causal: bool = False) -> dict:
    cfg = {
        "tokenizer_class": "BertTokenizer",
        "do_lower_case": True,
        "strip_accents": None,
        "tokenize_chinese_chars": True,
        "unk_token": UNK,
        "sep_token": SEP,
        "pad_token": PAD,
        "cls_token": CLS,
        "mask_token": MASK,
        "model_max_length": max_length,
        "padding_side": "right",
        "clean_up_tokenization_spaces": True,
    }
    if causal:
        # The GPT-2-architecture model reads [CLS] as its beginning-of-sequence token and [SEP] as its end.
        cfg["bos_token"] = CLS
        cfg["eos_token"] = SEP
    return cfg


def special_tokens_map_json(causal: bool = False) -> dict:
    m = {"unk_token": UNK, "sep_token": SEP, "pad_token": PAD, "cls_token": CLS, "mask_token": MASK}
    if causal:
        m["bos_token"] = CLS
        m["eos_token"] = SEP
    return m


def write_tokenizer(folder: str, vocab: Sequence[str], max_length: int, causal: bool = False) -> None:
    import os

    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(vocab, max_length, causal), f, ensure_ascii=False, indent=1, sort_keys=False)
        f.write("\n")
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in vocab))
    with open(os.path.join(folder, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_config_json(max_length, causal), f, indent=2)
        f.write("\n")
    with open(os.path.join(folder, "special_tokens_map.json"), "w", encoding="utf-8") as f:
        json.dump(special_tokens_map_json(causal), f, indent=2)
        f.write("\n")
