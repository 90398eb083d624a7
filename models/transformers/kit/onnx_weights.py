"""Reads the weights (initializers) of an ONNX file into a state dict, with no `onnx` package.

ONNX files are protobuf: ModelProto.graph (field 7) → GraphProto.initializer (field 5, repeated
TensorProto) → TensorProto.dims (1), data_type (2), float_data (4), int32_data (5; FLOAT16 bit patterns when not raw), name (8),
raw_data (9), external_data (13: key/value pairs `location`, `offset`, `length`) and data_location (14; 1 = external).
This reader walks those fields only, so the committed fixtures' weights load into torch modules on any
machine with torch (check_hf.py runs where `transformers` is installed and `onnx` may not be). A tensor
stored as external data is read from its `location`, relative to the graph's folder (a classifier's
model.onnx and model_grad.onnx share one such file, kit/export.py `share_weights`). A FLOAT16 initializer (the
committed fixtures store their word-embedding table so, read through a Cast in the graph: kit/export.py
`store_float16`) comes back as float16 from `read_initializers` and as float32 from `state_dict_from_onnx`
(exact: every float16 is a float32).
"""
from __future__ import annotations

import os
import struct
from typing import Dict, Iterator, Optional, Tuple

import numpy as np

FLOAT, INT64, FLOAT16 = 1, 7, 10
_DTYPES = {FLOAT: np.float32, INT64: np.int64, 11: np.float64, 6: np.int32, FLOAT16: np.dtype("<f2")}


def _varint(b: bytes, i: int) -> Tuple[int, int]:
    shift = result = 0
    while True:
        x = b[i]
        i += 1
        result |= (x & 0x7F) << shift
        if not x & 0x80:
            return result, i
        shift += 7


def _fields(b: bytes, start: int = 0, end: int = -1) -> Iterator[Tuple[int, int, object]]:
    """(field number, wire type, value): value is an int for varints, bytes/memoryview slice bounds for length-delimited."""
    i = start
    end = len(b) if end < 0 else end
    while i < end:
        key, i = _varint(b, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, i = _varint(b, i)
            yield field, wire, v
        elif wire == 1:
            yield field, wire, b[i : i + 8]
            i += 8
        elif wire == 2:
            n, i = _varint(b, i)
            yield field, wire, (i, i + n)
            i += n
        elif wire == 5:
            yield field, wire, b[i : i + 4]
            i += 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")


def _entry(b: bytes, start: int, end: int) -> Tuple[str, str]:
    """StringStringEntryProto: key (1), value (2)."""
    key = value = ""
    for field, _, v in _fields(b, start, end):
        if field == 1:
            key = bytes(b[v[0] : v[1]]).decode("utf-8")
        elif field == 2:
            value = bytes(b[v[0] : v[1]]).decode("utf-8")
    return key, value


def _external(folder: str, name: str, entries: Dict[str, str]) -> bytes:
    """The bytes of an external tensor: `length` bytes at `offset` of `location` (a plain file name or a path inside `folder`)."""
    location = entries.get("location", "")
    if not location or os.path.isabs(location) or ".." in location.replace("\\", "/").split("/"):
        raise ValueError(f"tensor {name}: external data location {location!r} is not a path inside the graph's folder")
    path = os.path.join(folder, location)
    offset = int(entries.get("offset", "0"))
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read(int(entries["length"])) if "length" in entries else f.read()
    if "length" in entries and len(data) != int(entries["length"]):
        raise ValueError(f"tensor {name}: {path} ends before offset {offset} + length {entries['length']}")
    return data


def _tensor(b: bytes, start: int, end: int, folder: Optional[str] = None) -> Tuple[str, np.ndarray]:
    dims, dtype, name, raw, floats, int32s, external, location = [], FLOAT, "", None, [], [], {}, 0
    for field, wire, v in _fields(b, start, end):
        if field == 1:
            if wire == 0:
                dims.append(v)
            else:  # packed
                s, e = v
                j = s
                while j < e:
                    d, j = _varint(b, j)
                    dims.append(d)
        elif field == 2:
            dtype = v
        elif field == 8:
            name = bytes(b[v[0] : v[1]]).decode("utf-8")
        elif field == 9:
            raw = bytes(b[v[0] : v[1]])
        elif field == 4:
            if wire == 2:
                floats.extend(struct.unpack(f"<{(v[1] - v[0]) // 4}f", b[v[0] : v[1]]))
            else:
                floats.append(struct.unpack("<f", v)[0])
        elif field == 5:
            if wire == 2:  # packed varints
                j = v[0]
                while j < v[1]:
                    d, j = _varint(b, j)
                    int32s.append(d)
            else:
                int32s.append(v)
        elif field == 13 and wire == 2:
            key, value = _entry(b, v[0], v[1])
            external[key] = value
        elif field == 14:
            location = v
    if location == 1:
        if folder is None:
            raise ValueError(f"tensor {name}: stored as external data, and no folder to read it from")
        raw = _external(folder, name, external)
    if dtype not in _DTYPES:
        raise ValueError(f"tensor {name}: data type {dtype} not supported")
    if raw is not None:
        arr = np.frombuffer(raw, dtype=_DTYPES[dtype]).copy()
    elif dtype == FLOAT16:  # int32_data holds each value's 16 bits
        arr = np.array(int32s, dtype=np.uint16).view(np.dtype("<f2"))
    else:
        arr = np.array(floats, dtype=_DTYPES[dtype])
    return name, arr.reshape(dims)


def read_initializers(path: str) -> Dict[str, np.ndarray]:
    """name → array of every initializer in the ONNX file's main graph."""
    with open(path, "rb") as f:
        b = f.read()
    out: Dict[str, np.ndarray] = {}
    for field, wire, v in _fields(b):
        if field == 7 and wire == 2:  # ModelProto.graph
            for gf, gw, gv in _fields(b, v[0], v[1]):
                if gf == 5 and gw == 2:  # GraphProto.initializer
                    name, arr = _tensor(b, gv[0], gv[1], os.path.dirname(os.path.abspath(path)))
                    out[name] = arr
    return out


def state_dict_from_onnx(path: str, prefix: str = "") -> Dict[str, "np.ndarray"]:
    """The float initializers whose names start with prefix, the prefix removed (torch.onnx keeps parameter names),
    as float32 (a FLOAT16 one widened exactly)."""
    out = {}
    for k, v in read_initializers(path).items():
        if not k.startswith(prefix):
            continue
        if v.dtype == np.float16:
            v = v.astype(np.float32)
        if v.dtype == np.float32:
            out[k[len(prefix):]] = v
    return out
