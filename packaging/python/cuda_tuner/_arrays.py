"""The kernel's arguments as Python passes them: arrays of NumPy, PyTorch, CuPy (or any object with
`__cuda_array_interface__` or `__dlpack__`) and scalars, turned into what a template description
needs: each argument's element type (the description's `type`), its length, and its contents on the
host as the bits a `.npy` data file holds. PyTorch and CuPy are imported only when an argument is
one of theirs."""
import math
import numbers
from typing import Any, Optional, Tuple

import numpy as np

# NumPy's dtype names and the description's element types (kernel_templates/README.md, the types
# table). bfloat16 and fp8 have no NumPy type: ml_dtypes' names, and PyTorch's, below.
_NUMPY_TYPES = {
    "float32": "float", "float64": "double", "float16": "half",
    "int32": "int", "uint32": "uint", "int64": "int64", "uint64": "uint64",
    "int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16",
    # ml_dtypes' arrays name their type; np.save writes them as raw bytes (V2, V1) without it.
    "bfloat16": "bfloat16", "float8_e4m3fn": "fp8_e4m3", "float8_e5m2": "fp8_e5m2",
}
_TORCH_TYPES = {
    "torch.float32": "float", "torch.float64": "double", "torch.float16": "half",
    "torch.bfloat16": "bfloat16", "torch.float8_e4m3fn": "fp8_e4m3", "torch.float8_e5m2": "fp8_e5m2",
    "torch.int32": "int", "torch.uint32": "uint", "torch.int64": "int64", "torch.uint64": "uint64",
    "torch.int8": "int8", "torch.uint8": "uint8", "torch.int16": "int16", "torch.uint16": "uint16",
}
# Bytes per element, and the .npy dtype each type's file is written with: NumPy's own code, or for
# the types NumPy lacks the name ml_dtypes gives them, which the tool reads (the data are the bits).
ITEM_BYTES = {"float": 4, "double": 8, "half": 2, "bfloat16": 2, "fp8_e4m3": 1, "fp8_e5m2": 1, "int": 4,
              "uint": 4, "int64": 8, "uint64": 8, "int8": 1, "uint8": 1, "int16": 2, "uint16": 2}
NPY_DESCR = {"float": "<f4", "double": "<f8", "half": "<f2", "bfloat16": "bfloat16", "fp8_e4m3": "float8_e4m3fn",
             "fp8_e5m2": "float8_e5m2", "int": "<i4", "uint": "<u4", "int64": "<i8", "uint64": "<u8",
             "int8": "|i1", "uint8": "|u1", "int16": "<i2", "uint16": "<u2"}
# A NumPy dtype that holds each type's bits (the narrow floats NumPy lacks: unsigned integers).
_BITS_DTYPE = {"float": np.float32, "double": np.float64, "half": np.float16, "bfloat16": np.uint16,
               "fp8_e4m3": np.uint8, "fp8_e5m2": np.uint8, "int": np.int32, "uint": np.uint32, "int64": np.int64,
               "uint64": np.uint64, "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16}
_INT_RANGE = {"int": (-2**31, 2**31 - 1), "uint": (0, 2**32 - 1), "int64": (-2**63, 2**63 - 1),
              "uint64": (0, 2**64 - 1), "int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767),
              "uint16": (0, 65535)}
TYPES = tuple(ITEM_BYTES)

HOST = "host"


class Argument:
    """One kernel argument: a buffer (with its host bits, shape and where the caller's array lives)
    or a scalar (with its value as description text)."""

    def __init__(self, name: str, original: Any):
        self.name = name
        self.original = original
        self.is_buffer = False
        self.type = ""             # the description's element type
        self.bits: Optional[np.ndarray] = None  # a buffer's contents, C order, as its type's bits
        self.shape: Tuple[int, ...] = ()
        self.library = ""          # numpy, torch, cupy, cuda_array_interface, dlpack
        self.device = HOST         # "host", or "cuda:N" ("cuda" where the index is not known)
        self.value_text = ""       # a scalar's value in the description

    @property
    def length(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1


def _library(obj: Any) -> str:
    module = type(obj).__module__.split(".")[0]
    if isinstance(obj, np.ndarray):
        return "numpy"
    if module == "torch":
        return "torch"
    if module == "cupy":
        return "cupy"
    if hasattr(obj, "__cuda_array_interface__"):
        return "cuda_array_interface"
    if hasattr(obj, "__dlpack__"):
        return "dlpack"
    return ""


def is_array(obj: Any) -> bool:
    return _library(obj) != "" and not isinstance(obj, np.generic)


def _declared(name: str, declared: Optional[str], found: Optional[str], itemsize: int, what: str) -> str:
    """The element type: the one `types=` declares for the argument where its bits fit, else the one
    its dtype names."""
    if declared is None:
        if found is None:
            raise TypeError(f"argument {name!r}: {what} has no element type the kernel templates know "
                            f"({', '.join(TYPES)}); give one with types={{{name!r}: ...}} when its bits are one")
        return found
    if declared not in ITEM_BYTES:
        raise ValueError(f"types[{name!r}] = {declared!r} is no element type; one of {', '.join(TYPES)}")
    if ITEM_BYTES[declared] != itemsize:
        raise TypeError(f"argument {name!r}: {what} has {itemsize}-byte elements, but types[{name!r}] = "
                        f"{declared!r} has {ITEM_BYTES[declared]}")
    # Floating-point data declared as another type would be reinterpreted, not converted: refuse.
    if found is not None and found != declared and found in ("float", "double", "half", "bfloat16"):
        raise TypeError(f"argument {name!r}: {what} holds {found} values; types[{name!r}] = {declared!r} would "
                        f"reinterpret their bits (convert the array instead)")
    return declared


def _contiguous(name: str, ok: bool) -> None:
    if not ok:
        raise ValueError(f"argument {name!r} is not contiguous in C order: the kernel gets a pointer to its "
                         f"first element and reads the memory in order; pass a contiguous copy "
                         f"(.contiguous(), numpy.ascontiguousarray, cupy.ascontiguousarray)")


def _from_numpy(arg: Argument, a: np.ndarray, declared: Optional[str]) -> None:
    _contiguous(arg.name, a.flags.c_contiguous)
    found = _NUMPY_TYPES.get(a.dtype.name)
    if found is not None and a.dtype.byteorder == ">":
        raise ValueError(f"argument {arg.name!r} is big-endian ({a.dtype.str}); the GPU reads little-endian: "
                         f"pass a.astype(a.dtype.newbyteorder('<'))")
    arg.type = _declared(arg.name, declared, found, a.dtype.itemsize, f"a NumPy array of {a.dtype}")
    arg.shape = tuple(int(d) for d in a.shape)
    arg.bits = np.ascontiguousarray(a).view(_BITS_DTYPE[arg.type])


def _from_torch(arg: Argument, t: Any, declared: Optional[str]) -> None:
    import torch
    _contiguous(arg.name, t.is_contiguous())
    found = _TORCH_TYPES.get(str(t.dtype))
    arg.type = _declared(arg.name, declared, found, t.element_size(), f"a PyTorch tensor of {t.dtype}")
    arg.shape = tuple(int(d) for d in t.shape)
    arg.device = HOST if t.device.type == "cpu" else f"{t.device.type}:{t.device.index or 0}"
    if t.device.type not in ("cpu", "cuda"):
        raise ValueError(f"argument {arg.name!r} is on {t.device}; a CUDA kernel needs it on the host or a CUDA GPU")
    bits_torch = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    host = t.detach().reshape(-1).view(bits_torch).cpu().numpy()
    arg.bits = host.view(_BITS_DTYPE[arg.type]).reshape(arg.shape)


def _from_cupy(arg: Argument, a: Any, declared: Optional[str]) -> None:
    import cupy
    _contiguous(arg.name, bool(a.flags.c_contiguous))
    found = _NUMPY_TYPES.get(a.dtype.name)
    arg.type = _declared(arg.name, declared, found, a.dtype.itemsize, f"a CuPy array of {a.dtype}")
    arg.shape = tuple(int(d) for d in a.shape)
    arg.device = f"cuda:{a.device.id}"
    arg.bits = cupy.asnumpy(a).view(_BITS_DTYPE[arg.type])


def _from_interface(arg: Argument, obj: Any, declared: Optional[str]) -> None:
    """An object with only __cuda_array_interface__ (Numba, JAX, ...): copied through CuPy or PyTorch,
    whichever is installed, since copying device memory needs a CUDA library."""
    interface = obj.__cuda_array_interface__
    typestr = interface["typestr"]
    strides = interface.get("strides")
    if strides is not None:
        itemsize = np.dtype(typestr).itemsize
        expected, step = [], itemsize
        for extent in reversed(interface["shape"]):
            expected.insert(0, step)
            step *= extent
        _contiguous(arg.name, tuple(strides) == tuple(expected) or 0 in interface["shape"])
    try:
        import cupy
        _from_cupy(arg, cupy.asarray(obj), declared)
        return
    except ImportError:
        pass
    try:
        import torch
        _from_torch(arg, torch.as_tensor(obj, device="cuda"), declared)
        return
    except ImportError:
        pass
    raise TypeError(f"argument {arg.name!r} ({type(obj).__name__}) is device memory known only by its "
                    f"__cuda_array_interface__; install CuPy or PyTorch to copy it, or pass a CuPy array")


def _from_dlpack(arg: Argument, obj: Any, declared: Optional[str]) -> None:
    device_type = obj.__dlpack_device__()[0] if hasattr(obj, "__dlpack_device__") else 1
    if device_type == 1:  # kDLCPU
        _from_numpy(arg, np.from_dlpack(obj), declared)
        return
    for library in ("torch", "cupy"):
        try:
            module = __import__(library)
        except ImportError:
            continue
        (_from_torch if library == "torch" else _from_cupy)(arg, module.from_dlpack(obj), declared)
        return
    raise TypeError(f"argument {arg.name!r} ({type(obj).__name__}) is device memory known only by __dlpack__; "
                    f"install PyTorch or CuPy to copy it")


def _scalar_text(name: str, value: Any, declared: Optional[str]) -> Tuple[str, str]:
    """A Python or NumPy scalar: its description type and its value as text."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"argument {name!r} is a bool; the kernel templates have no bool type: pass int(value)")
    if isinstance(value, np.generic):
        found = _NUMPY_TYPES.get(value.dtype.name)
        if found is None:
            raise TypeError(f"argument {name!r} is a NumPy {value.dtype} scalar, which no element type holds")
        kind = declared or found
        value = value.item()
    elif isinstance(value, numbers.Integral):
        kind = declared or "int"
        value = int(value)
    elif isinstance(value, numbers.Real):
        kind = declared or "float"
        value = float(value)
    else:
        raise TypeError(f"argument {name!r} is a {type(value).__name__}: an argument is an array (NumPy, PyTorch, "
                        f"CuPy, or any with __cuda_array_interface__ or __dlpack__) or a number")
    if kind not in ITEM_BYTES:
        raise ValueError(f"types[{name!r}] = {kind!r} is no element type; one of {', '.join(TYPES)}")
    if kind in _INT_RANGE:
        low, high = _INT_RANGE[kind]
        if value != int(value):
            raise ValueError(f"argument {name!r} = {value!r} is not a whole number, but its type is {kind}")
        if not low <= int(value) <= high:
            hint = " (pass numpy.int64(value) for a long long)" if kind == "int" else ""
            raise ValueError(f"argument {name!r} = {value} does not fit its type {kind} [{low}, {high}]{hint}")
        return kind, str(int(value))
    if not math.isfinite(value):
        raise ValueError(f"argument {name!r} = {value!r}: a scalar must be a finite number")
    return kind, repr(float(value))


def convert(name: str, value: Any, declared: Optional[str] = None) -> Argument:
    """One argument as a description needs it; TypeError or ValueError naming it if it cannot be."""
    arg = Argument(name, value)
    library = _library(value)
    if not library or isinstance(value, np.generic):
        arg.type, arg.value_text = _scalar_text(name, value, declared)
        return arg
    arg.is_buffer = True
    arg.library = library
    convert_by = {"numpy": _from_numpy, "torch": _from_torch, "cupy": _from_cupy,
                  "cuda_array_interface": _from_interface, "dlpack": _from_dlpack}
    convert_by[library](arg, value, declared)
    if arg.length == 0:
        raise ValueError(f"argument {name!r} is empty; a buffer needs at least one element")
    return arg
