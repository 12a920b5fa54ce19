"""The reference of a tune from Python: expected output arrays as given, or a callable (the PyTorch
operator the kernel replaces, say) run once on copies of the arguments; either way each output's
expected contents, checked against the output's shape and type, become the `[check] expected` files
the tool compares every candidate with."""
from typing import Any, Dict, List, Mapping

import numpy as np

from ._arrays import _NUMPY_TYPES, _TORCH_TYPES, Argument, convert, is_array

# Bits of a value that is NaN or infinite, for the types NumPy has no float of: (mask, exponent).
_NOT_FINITE_BITS = {"bfloat16": (0x7F80, 0x7F80), "fp8_e4m3": (0x7F, 0x7F), "fp8_e5m2": (0x7C, 0x7C)}


def _copy(arg: Argument) -> Any:
    """A copy of the caller's argument in its own library (a scalar as it is)."""
    value = arg.original
    if not arg.is_buffer:
        return value
    if arg.library == "torch":
        return value.detach().clone()
    if arg.library in ("numpy", "cupy"):
        return value.copy()
    if arg.library == "dlpack" and arg.device == "host":
        return np.from_dlpack(value).copy()
    try:  # other device arrays: a copy in CuPy or PyTorch, whichever converted it
        import cupy
        return cupy.array(value, copy=True)
    except ImportError:
        import torch
        if arg.library == "dlpack":
            return torch.from_dlpack(value).clone()
        return torch.as_tensor(value, device="cuda").clone()


def _cast_like(result: Any, output: Argument) -> Any:
    """The reference's array in the output's element type, cast by its own library (a reference often
    computes in higher precision: float32 for a bfloat16 output). Only where the output's dtype is its
    element type: bits stored in another dtype (types=) are never the target of a cast."""
    library = type(result).__module__.split(".")[0]
    target = output.original
    target_library = type(target).__module__.split(".")[0]
    if library == "torch" and target_library == "torch" and result.dtype != target.dtype:
        if _TORCH_TYPES.get(str(target.dtype)) == output.type:
            return result.to(target.dtype)
    if library in ("numpy", "cupy") and hasattr(target, "dtype") and result.dtype != target.dtype:
        if _NUMPY_TYPES.get(np.dtype(target.dtype).name) == output.type and result.dtype.kind in "fiu":
            return result.astype(target.dtype)
    return result


def _not_finite(arg: Argument) -> int:
    """The index of the first NaN or infinite element, or -1."""
    if arg.type in _NOT_FINITE_BITS:
        mask, exponent = _NOT_FINITE_BITS[arg.type]
        bad = (arg.bits.reshape(-1) & mask) == exponent
    elif arg.type in ("float", "double", "half"):
        bad = ~np.isfinite(arg.bits.reshape(-1))
    else:
        return -1
    found = np.flatnonzero(bad)
    return int(found[0]) if found.size else -1


def _expected(name: str, value: Any, output: Argument, source: str) -> np.ndarray:
    if not is_array(value):
        raise TypeError(f"{source} for output {name!r} is a {type(value).__name__}, not an array")
    value = _cast_like(value, output)
    # Stored like the output (bfloat16 bits in a uint16 array declared with types=): the same type.
    same_storage = str(getattr(value, "dtype", "")) == str(getattr(output.original, "dtype", None))
    got = convert(name, value, output.type if same_storage else None)
    if got.shape != output.shape:
        raise ValueError(f"{source} for output {name!r} has shape {got.shape}; the output {name!r} has shape "
                         f"{output.shape}")
    if got.type != output.type:
        if got.bits.dtype.kind == "f" and output.bits.dtype.kind in "fiu" and output.type not in _NOT_FINITE_BITS:
            got.bits = got.bits.astype(output.bits.dtype)
            got.type = output.type
        else:
            raise TypeError(f"{source} for output {name!r} is {got.type}; the output is {output.type}: "
                            f"convert it (for example .to(torch.bfloat16) or .astype(numpy.float16))")
    bad = _not_finite(got)
    if bad >= 0:
        raise ValueError(f"{source} for output {name!r} is NaN or infinite at element {bad}: no candidate could "
                         f"match it (the check never passes NaN or infinity)")
    return got.bits


def _returned(result: Any, outputs: List[str]) -> Dict[str, Any]:
    if isinstance(result, Mapping):
        if set(result) != set(outputs):
            raise ValueError(f"the reference returned outputs {sorted(result)}; the outputs are {outputs}")
        return dict(result)
    if isinstance(result, (tuple, list)):
        if len(result) != len(outputs):
            raise ValueError(f"the reference returned {len(result)} arrays; there are {len(outputs)} outputs "
                             f"({', '.join(outputs)}), in that order")
        return dict(zip(outputs, result))
    if len(outputs) != 1:
        raise ValueError(f"the reference returned one array; there are {len(outputs)} outputs "
                         f"({', '.join(outputs)}): return a tuple in that order or a dict")
    return {outputs[0]: result}


def expected_outputs(reference: Any, args: List[Argument], outputs: List[str]) -> Dict[str, np.ndarray]:
    """Each output's expected bits, from expected arrays (a dict) or a callable's outputs."""
    by_name = {arg.name: arg for arg in args}
    if isinstance(reference, Mapping):
        if set(reference) != set(outputs):
            missing = [n for n in outputs if n not in reference]
            extra = [n for n in reference if n not in outputs]
            raise ValueError(f"reference: expected arrays are needed for every output and only for them "
                             f"(missing {missing}, not outputs {extra})")
        return {name: _expected(name, reference[name], by_name[name], "the expected array") for name in outputs}
    copies = [_copy(arg) for arg in args]
    result = reference(*copies)
    if result is None:  # it wrote its copies of the outputs
        returned = {name: copies[[a.name for a in args].index(name)] for name in outputs}
    else:
        returned = _returned(result, outputs)
    return {name: _expected(name, returned[name], by_name[name], "the reference's result") for name in outputs}
