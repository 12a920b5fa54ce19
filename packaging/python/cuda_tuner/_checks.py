"""The checks of tune()'s arguments, each a TypeError or ValueError naming the argument, made before
anything runs: names, the source, sizes, parameters, the arguments (one GPU for all buffers) and,
with several sizes, that every size passes the same arguments."""
import os
import re
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ._arrays import HOST, Argument, convert
from ._description import Description, expression_text


_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _identifier(field: str, name: Any) -> str:
    if not isinstance(name, str) or not _IDENTIFIER.match(name):
        raise ValueError(f"{field} {name!r} is not a name (letters, digits and _, not starting with a digit)")
    return name


def _default_name(kernel: str) -> str:
    """The kernel's own name: "ns::tile<TILE, float>" -> "tile", "static_cast<...>(scale)" -> "scale"."""
    text = kernel
    while True:
        stripped = re.sub(r"<[^<>]*>", "", text)
        if stripped == text:
            break
        text = stripped
    names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    if not names:
        raise ValueError(f"kernel {kernel!r} names no function")
    return names[-1]


def _source(desc: Description, source: Union[str, os.PathLike], headers: Optional[Mapping[str, str]]) -> None:
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and "__global__" not in source):
        path = os.fspath(source)
        if not os.path.isfile(path):
            raise ValueError(f"source {path!r} is no file; give the kernel's source as a string or the path "
                             f"of a .cu file")
        desc.source_name = os.path.abspath(path)  # the tool finds its headers beside it
        if headers:
            raise ValueError("headers= is for a source given as a string; a source file's headers are found "
                             "beside it")
        return
    if not isinstance(source, str):
        raise TypeError(f"source is a {type(source).__name__}; give the CUDA source as a string or a file path")
    desc.source_text = source
    for name, text in (headers or {}).items():
        if os.path.basename(name) != name or name == desc.source_name:
            raise ValueError(f"headers: {name!r} must be a plain file name (it is written beside the source)")
        if isinstance(text, os.PathLike) or (isinstance(text, str) and os.path.isfile(text)):
            with open(text) as f:
                text = f.read()
        desc.headers[name] = text


def _sizes(sizes: Optional[Mapping[str, int]]) -> Dict[str, int]:
    result: Dict[str, int] = {}
    for name, value in (sizes or {}).items():
        _identifier("size", name)
        if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
            raise TypeError(f"sizes[{name!r}] is a {type(value).__name__}; a size is a whole number")
        if int(value) < 1:
            raise ValueError(f"sizes[{name!r}] = {value}: a size is a positive whole number")
        result[name] = int(value)
    return result


def _same_size_names(all_sizes: List[Dict[str, int]]) -> None:
    """Several sizes: the same variables in the same order, and each size once."""
    if not all_sizes:
        raise ValueError("sizes is an empty list; give one size ({'N': n}) or several ([{'N': n1}, {'N': n2}])")
    keys = set()
    for one in all_sizes:
        if list(one) != list(all_sizes[0]):
            raise ValueError(f"sizes: {list(one)} are not the variables of the first size, {list(all_sizes[0])}")
        key = "x".join(str(v) for v in one.values())
        if key in keys:
            raise ValueError(f"sizes lists {one} twice")
        keys.add(key)


def _per_size(field: str, value: Any, count: int, listed: bool) -> List[Any]:
    """One value per size: a list of them when `listed`, else the same for every size."""
    if not listed:
        return [value] * count
    if not isinstance(value, (list, tuple)) or len(value) != count:
        raise ValueError(f"{field}: with {count} sizes give a list of {count}, one per size in the order of sizes")
    return list(value)


def _same_arguments(first: List[Argument], other: List[Argument], size: Dict[str, int]) -> None:
    """Every size passes the kernel the same arguments: names, buffers or scalars, element types."""
    described = [(a.name, a.is_buffer, a.type) for a in first]
    given = [(a.name, a.is_buffer, a.type) for a in other]
    if described != given:
        raise ValueError(f"the arguments at size {size} are {given}; at the first size they are {described} "
                         f"(names, buffer or scalar, element type must be the same)")


def _params(params: Mapping[str, Any], sizes: Mapping[str, int]) -> Dict[str, Union[str, List[int]]]:
    if not isinstance(params, Mapping) or not params:
        raise TypeError("params is a dict of each tuning parameter's values, e.g. {'BLOCK': [128, 256, 512]}")
    result: Dict[str, Union[str, List[int]]] = {}
    for name, values in params.items():
        _identifier("parameter", name)
        if name in sizes:
            raise ValueError(f"parameter {name!r} is also a size; a name is one or the other")
        if isinstance(values, str):
            result[name] = values  # T1's Python form, "[2**i for i in range(5, 11)]": the tool computes it
            continue
        if not isinstance(values, Iterable):
            raise TypeError(f"params[{name!r}] is a {type(values).__name__}; give its values, e.g. [64, 128] or "
                            f"range(32, 1025, 32)")
        listed = list(values)
        if not listed:
            raise ValueError(f"params[{name!r}] has no values")
        for value in listed:
            if isinstance(value, bool) or not hasattr(value, "__index__"):
                raise TypeError(f"params[{name!r}] holds {value!r}; a parameter's values are whole numbers")
        numbers = [int(v) for v in listed]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"params[{name!r}] lists a value twice: {numbers}")
        result[name] = numbers
    return result


def _arguments(args: Any, types: Optional[Mapping[str, str]]) -> List[Argument]:
    pairs = list(args.items()) if isinstance(args, Mapping) else list(args)
    if not pairs or not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
        raise TypeError("args is a dict of the kernel's arguments in its order, name to array or number, "
                        "e.g. {'out': out, 'x': x, 'n': n}")
    types = dict(types or {})
    names = [name for name, _ in pairs]
    for name in types:
        if name not in names:
            raise ValueError(f"types names {name!r}, which is no argument (arguments: {', '.join(names)})")
    converted = []
    for name, value in pairs:
        _identifier("argument", name)
        if names.count(name) > 1:
            raise ValueError(f"argument {name!r} is listed twice")
        converted.append(convert(name, value, types.get(name)))
    _same_device(converted)
    return converted


def _same_device(args: List[Argument]) -> None:
    """The kernel reads all its buffers from one GPU: a host array beside device arrays (or arrays on two
    GPUs) would be a wrong pointer in the application, so it is refused here too."""
    on_gpu = [a for a in args if a.is_buffer and a.device != HOST]
    if not on_gpu:
        return
    for arg in args:
        if arg.is_buffer and arg.device == HOST:
            raise ValueError(f"argument {arg.name!r} is in host memory ({type(arg.original).__module__}."
                             f"{type(arg.original).__name__}) while {on_gpu[0].name!r} is on {on_gpu[0].device}: "
                             f"the kernel reads device memory, so pass {arg.name!r} on the GPU too")
    devices = {a.device for a in on_gpu if a.device != "cuda"}
    if len(devices) > 1:
        raise ValueError(f"the arguments are on several GPUs ({', '.join(sorted(devices))}); one kernel runs "
                         f"on one: move them to one GPU")


def _names(field: str, names: Any, args: List[Argument]) -> List[str]:
    listed = [names] if isinstance(names, str) else list(names or [])
    buffers = [a.name for a in args if a.is_buffer]
    for name in listed:
        if name not in buffers:
            what = "a scalar" if name in [a.name for a in args] else "no argument"
            raise ValueError(f"{field} names {name!r}, which is {what}; the buffers are {', '.join(buffers)}")
    return listed


def _sizes_expression(field: str, value: Any, sizes: Sequence[str]) -> Optional[str]:
    """A tolerance or work: a number or an expression over the sizes only."""
    return None if value is None else expression_text(field, value, sizes)
