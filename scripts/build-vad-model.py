#!/usr/bin/env python3
"""Builds whisper.cpp's ggml Silero VAD model from the PyPI `silero-vad` wheel, offline.

Usage: scripts/build-vad-model.py SOURCE OUTPUT
  SOURCE: silero_vad-6.2.0-py3-none-any.whl, or the silero_vad.jit taken out of it
  OUTPUT: the ggml file to write (e.g. ggml-silero-v6.2.0.bin)

Python's standard library only: no torch, no numpy. The TorchScript file is a zip holding
`<root>/data.pkl` and the raw tensor storages `<root>/data/<key>`; a restricted unpickler
rebuilds the module tree with plain holders, and the 16 kHz branch (`_model.*`, not `_model_8k.*`)
is written in the layout of whisper.cpp's models/convert-silero-vad-to-ggml.py: header, then the
encoder (weight, bias) x4, LSTM (weight_ih, weight_hh, bias_ih, bias_hh), final conv (weight,
bias) and the STFT basis; each tensor as n_dims, name length, ftype, dims (squeezed shape
reversed; the STFT basis keeps its 3 dims), name, data. Encoder weights, the final conv weight and
the STFT basis are f16, the rest f32. From the 6.2.0 wheel this gives 885,098 bytes, sha256
2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987, byte-identical to whisper.cpp's
models/for-tests-silero-v6.2.0-ggml.bin. scripts/install-vad-model.sh fetches the wheel and
checks both hashes.
"""

import io
import os
import pickle
import re
import struct
import sys
import zipfile

GGML_MAGIC = 0x67676D6C
JIT_IN_WHEEL = "silero_vad/data/silero_vad.jit"
# Written into the header when SOURCE is a bare .jit, which does not say its version.
DEFAULT_VERSION = (6, 2, 0)

# Bytes per element and struct code of the storage types the model may hold.
STORAGE_TYPES = {
    "FloatStorage": (4, "f"),
    "DoubleStorage": (8, "d"),
    "HalfStorage": (2, "e"),
}


class StorageType:
    def __init__(self, name):
        self.name = name


class Storage:
    def __init__(self, kind, data):
        self.kind = kind
        self.data = data


class Tensor:
    """What torch._utils._rebuild_tensor_v2 would have built: a view on a storage."""

    def __init__(self, storage, offset, size, stride, *_rest):
        self.storage = storage
        self.offset = offset
        self.size = tuple(size)
        self.stride = tuple(stride)

    def values(self):
        """The elements in row-major order of `size`, as Python floats."""
        width, code = STORAGE_TYPES[self.storage.kind.name]
        count = len(self.storage.data) // width
        flat = struct.unpack("<%d%s" % (count, code), self.storage.data)
        out = []

        def walk(dim, base):
            if dim == len(self.size):
                out.append(flat[base])
                return
            for i in range(self.size[dim]):
                walk(dim + 1, base + i * self.stride[dim])

        walk(0, self.offset)
        return out


class Module:
    """A `__torch__.*` object: its pickled attributes, in order."""

    def __init__(self, *args):
        self.attrs = {}

    def __setstate__(self, state):
        self.attrs = dict(state)


def passthrough(value, *_rest):
    return value


class JitUnpickler(pickle.Unpickler):
    def __init__(self, file, storage_bytes):
        super().__init__(file)
        self.storage_bytes = storage_bytes
        self.storages = {}

    def find_class(self, module, name):
        if module == "torch._utils" and name == "_rebuild_tensor_v2":
            return Tensor
        if module == "torch" and name in STORAGE_TYPES:
            return StorageType(name)
        if module == "collections" and name == "OrderedDict":
            return dict
        if module == "torch.jit._pickle" and name.startswith("build_"):
            return passthrough
        if module == "torch.jit._pickle" and name == "restore_type_tag":
            return passthrough
        if module.startswith("__torch__"):
            return type(name, (Module,), {})
        raise pickle.UnpicklingError("unexpected global %s.%s in the TorchScript pickle" % (module, name))

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise pickle.UnpicklingError("unexpected persistent id %r" % (pid,))
        kind, key = pid[1], pid[2]
        if not isinstance(kind, StorageType):
            raise pickle.UnpicklingError("unsupported storage type %r" % (kind,))
        if key not in self.storages:
            self.storages[key] = Storage(kind, self.storage_bytes(key))
        return self.storages[key]


def open_jit(source):
    """The TorchScript zip, from the wheel or from the .jit itself, and silero-vad's version
    (from the wheel's METADATA; DEFAULT_VERSION for a bare .jit)."""
    outer = zipfile.ZipFile(source)
    if JIT_IN_WHEEL in outer.namelist():
        version = DEFAULT_VERSION
        for name in outer.namelist():
            if re.fullmatch(r"silero_vad-[^/]+\.dist-info/METADATA", name):
                found = re.search(r"^Version: (\d+)\.(\d+)\.(\d+)\s*$", outer.read(name).decode("utf-8"), re.M)
                if found:
                    version = tuple(int(g) for g in found.groups())
        return zipfile.ZipFile(io.BytesIO(outer.read(JIT_IN_WHEEL))), version
    return outer, DEFAULT_VERSION


def state_dict(source):
    jit, version = open_jit(source)
    pkls = [n for n in jit.namelist() if re.fullmatch(r"[^/]+/data\.pkl", n)]
    if len(pkls) != 1:
        raise SystemExit("%s: no single <root>/data.pkl in the TorchScript archive" % source)
    root = pkls[0].split("/")[0]
    unpickler = JitUnpickler(io.BytesIO(jit.read(pkls[0])), lambda key: jit.read("%s/data/%s" % (root, key)))
    top = unpickler.load()
    tensors = {}

    def collect(prefix, obj):
        for key, value in obj.attrs.items():
            if isinstance(value, Tensor):
                tensors[prefix + key] = value
            elif isinstance(value, Module):
                collect(prefix + key + ".", value)

    collect("", top)
    return tensors, version


def header(version):
    out = struct.pack("<i", GGML_MAGIC)
    model_type = b"silero-16k"
    out += struct.pack("<i", len(model_type)) + model_type
    out += struct.pack("<3i", *version)  # silero-vad's major, minor, patch
    out += struct.pack("<3i", 512, 64, 4)  # window, context, encoder layers
    for c_in, c_out in zip([129, 128, 64, 64], [128, 64, 64, 128]):
        out += struct.pack("<3i", c_in, c_out, 3)
    out += struct.pack("<2i", 128, 128)  # LSTM input, hidden
    out += struct.pack("<2i", 128, 1)  # final conv in, out
    return out


def tensor_order():
    keys = []
    for i in range(4):
        keys += ["_model.encoder.%d.reparam_conv.weight" % i, "_model.encoder.%d.reparam_conv.bias" % i]
    keys += ["_model.decoder.rnn.%s" % n for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    keys += ["_model.decoder.decoder.2.weight", "_model.decoder.decoder.2.bias"]
    keys.append("_model.stft.forward_basis_buffer")
    return keys


def write_model(tensors, version, output):
    missing = [k for k in tensor_order() if k not in tensors]
    if missing:
        raise SystemExit("tensors missing from the model: %s" % ", ".join(missing))
    blob = bytearray(header(version))
    params = 0
    for key in tensor_order():
        tensor = tensors[key]
        if key == "_model.stft.forward_basis_buffer":
            dims = list(reversed(tensor.size))
            f16 = True
        else:
            dims = list(reversed([d for d in tensor.size if d != 1]))
            f16 = "weight" in key and ("encoder" in key or "_model.decoder.decoder.2" in key)
        values = tensor.values()
        params += len(values)
        name = key.encode("utf-8")
        blob += struct.pack("<3i", len(dims), len(name), 1 if f16 else 0)
        blob += struct.pack("<%di" % len(dims), *dims)
        blob += name
        blob += struct.pack("<%d%s" % (len(values), "e" if f16 else "f"), *values)
    tmp = output + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, output)
    return params, len(blob)


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    source, output = argv[1], argv[2]
    try:
        tensors, version = state_dict(source)
    except (OSError, zipfile.BadZipFile, KeyError, pickle.UnpicklingError, struct.error) as e:
        sys.stderr.write("%s: cannot read the Silero TorchScript model: %s\n" % (source, e))
        return 1
    tensors = {k: v for k, v in tensors.items() if "_8k" not in k}
    params, size = write_model(tensors, version, output)
    print("%s: silero-vad %d.%d.%d, %d parameters, %d bytes" % ((output,) + version + (params, size)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
