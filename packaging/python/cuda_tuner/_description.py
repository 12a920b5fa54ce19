"""The template a tune from Python hands to the tool: a folder with the description (TOML, the format
of kernel_templates/README.md), the kernel's source and headers, each input's `.npy` data file and
each output's expected `.npy` file, as a capture writes one (capture/README.md)."""
import ast
import difflib
import json
import os
import re
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._arrays import NPY_DESCR, Argument

# The functions and constants of the description's expressions (kernel_templates/README.md,
# "Expressions"): names in grid, block and the other expressions that are not variables.
EXPRESSION_FUNCTIONS = {
    "cdiv", "min", "max", "sum", "avg", "abs", "sign", "rint", "sqrt", "exp", "ln", "log", "log2", "log10",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "atan2",
    "_pi", "_e"}
# What T1's Python conditions may call besides the variables (tuner/exchange/python_expression).
PYTHON_FUNCTIONS = {"min", "max", "abs", "int", "float", "range", "list", "tuple", "len", "True", "False"}

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def toml_string(text: str) -> str:
    # A JSON string is a TOML basic string: the same escapes (\" \\ \n \uXXXX).
    return json.dumps(text, ensure_ascii=False)


def _unknown(field: str, name: str, known: Sequence[str]) -> ValueError:
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    listed = ", ".join(sorted(known)) or "none"
    return ValueError(f"{field}: {name!r} is no tuning parameter or size (parameters and sizes: {listed}){hint}")


def check_expression(field: str, expression: str, variables: Sequence[str]) -> None:
    """An expression of the description's syntax names only parameters, sizes and its functions."""
    without_numbers = _NUMBER.sub(" ", expression)
    for name in _IDENTIFIER.findall(without_numbers):
        if name not in variables and name not in EXPRESSION_FUNCTIONS:
            raise _unknown(field, name, variables)


def check_constraint(index: int, constraint: str, variables: Sequence[str]) -> None:
    """A constraint is Python, as T1's conditions are: parsed (never run) to find the names it uses."""
    field = f"constraints[{index}] {constraint!r}"
    if not isinstance(constraint, str):
        raise TypeError(f"constraints[{index}] is a {type(constraint).__name__}; a constraint is a Python "
                        f"expression in a string, e.g. 'BLOCK * ITEMS <= 4096'")
    try:
        tree = ast.parse(constraint.strip(), mode="eval")
    except SyntaxError as error:
        raise ValueError(f"{field} is not a Python expression ({error.msg}); constraints are written as T1's "
                         f"conditions are: and, or, not, //, %, ** and chained comparisons") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in variables and node.id not in PYTHON_FUNCTIONS:
            raise _unknown(field, node.id, variables)


def expression_text(field: str, value, variables: Sequence[str]) -> str:
    """A number or an expression string, checked for unknown names."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, np.integer, np.floating)):
        raise TypeError(f"{field} is a {type(value).__name__}; give a number or an expression string "
                        f"such as 'cdiv(N, BLOCK)'")
    text = str(value) if not isinstance(value, str) else value
    if not text.strip():
        raise ValueError(f"{field} is empty")
    check_expression(field, text, variables)
    return text


def dims_text(field: str, value, variables: Sequence[str]) -> List[str]:
    """grid or block: one to three expressions."""
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if not 1 <= len(items) <= 3:
        raise ValueError(f"{field} has {len(items)} dimensions; give one to three (x, y, z)")
    return [expression_text(f"{field}[{i}]", item, variables) for i, item in enumerate(items)]


def write_npy(path: str, arg_type: str, bits: np.ndarray) -> None:
    """A `.npy` file of the argument's type: NumPy's code, or ml_dtypes' name for bfloat16 and fp8
    (which the tool reads and np.load reads back where ml_dtypes is imported), then the bits."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    header = {"descr": NPY_DESCR[arg_type], "fortran_order": False, "shape": tuple(bits.shape)}
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, header)
        np.ascontiguousarray(bits).astype(bits.dtype.newbyteorder("<"), copy=False).tofile(f)


class Description:
    """Everything the TOML holds, already checked; `write(folder)` writes the folder."""

    def __init__(self) -> None:
        self.name = ""
        self.kernel = ""
        # The source: written beside the description from a string, or the caller's file by its
        # absolute path, where the tool finds the headers it includes from beside it.
        self.source_name = "kernel.cu"
        self.source_text: Optional[str] = None
        self.headers: Dict[str, str] = {}       # file name -> text, written beside the source
        self.sizes: Dict[str, int] = {}
        self.params: Dict[str, List[int]] = {}
        self.constraints: List[str] = []        # in the description's syntax (translated from Python)
        self.python_constraints: List[str] = []
        self.options: List[str] = []
        self.grid: List[str] = []
        self.block: List[str] = []
        self.shared_bytes = "0"
        self.args: List[Argument] = []
        self.outputs: List[str] = []
        self.inouts: List[str] = []
        self.reference_kernel: Optional[str] = None
        self.expected: Dict[str, np.ndarray] = {}  # output name -> bits
        self.atol: Optional[str] = None
        self.rtol: Optional[str] = None
        self.reduction: Optional[str] = None
        self.work_bytes: Optional[str] = None
        self.work_flops: Optional[str] = None
        # Further sizes, each with its arguments (the same names and types) and expected outputs:
        # [[data_size]] tables, their data in sizes/KEY/ (kernel_templates/README.md, "Data files").
        self.more_sizes: List[Tuple[Dict[str, int], List[Argument], Dict[str, np.ndarray]]] = []

    def toml(self) -> str:
        lines = ["# Written by cuda_tuner.tune() (Python): the kernel, its arguments' data in data/ and",
                 f"# the reference's outputs in expected/. Tune it again: tuner tune {self.name} --templates "
                 "<this folder>",
                 f"name = {toml_string(self.name)}",
                 f"summary = {toml_string('tuned from Python: ' + self.kernel)}",
                 f"kernel = {toml_string(self.kernel)}",
                 f"source = {toml_string(self.source_name)}"]
        if self.constraints:
            lines.append("constraints = [")
            for python, translated in zip(self.python_constraints, self.constraints):
                lines += [f"  # {python}", f"  {toml_string(translated)},"]
            lines.append("]")
        if self.options:
            lines.append("options = [" + ", ".join(toml_string(o) for o in self.options) + "]")
        for name, value in self.sizes.items():
            lines += ["", "[[size]]", f"name = {toml_string(name)}", f"default = {value}"]
        for size, _, _ in self.more_sizes:
            lines += ["", "[[data_size]]", f"size = {toml_string(size_key(size))}",
                      f"folder = {toml_string(size_folder(size))}"]
        for name, values in self.params.items():
            lines += ["", "[[param]]", f"name = {toml_string(name)}", "values = [" + ", ".join(map(str, values)) + "]"]
        lines += ["", "[launch]", "grid = [" + ", ".join(map(toml_string, self.grid)) + "]",
                  "block = [" + ", ".join(map(toml_string, self.block)) + "]",
                  f"shared_bytes = {toml_string(self.shared_bytes)}"]
        for index, arg in enumerate(self.args):
            lines += self._arg_lines(index, arg)
        lines += self._check_lines()
        lines += ["", "[work]"]
        if self.work_bytes is not None or self.work_flops is None:
            lines.append(f"bytes = {toml_string(self.work_bytes or self._bytes_moved())}")
        if self.work_flops is not None:
            lines.append(f"flops = {toml_string(self.work_flops)}")
        return "\n".join(lines) + "\n"

    def _by_size(self, values: List[str]) -> str:
        """A value at every size: the value itself where it is the same at all, else chosen by the size
        variables (`N == 1024 ? 1024 : 4096`), exact at the sizes that have data, the only ones `tune` takes."""
        if all(v == values[0] for v in values):
            return values[0]
        sizes = [self.sizes] + [size for size, _, _ in self.more_sizes]
        text = values[-1]
        for size, value in reversed(list(zip(sizes[:-1], values[:-1]))):
            test = " && ".join(f"{name} == {extent}" for name, extent in size.items())
            text = f"{test} ? {value} : {text}"
        return text

    def _arg_lines(self, index: int, arg: Argument) -> List[str]:
        lines = ["", "[[arg]]", f"name = {toml_string(arg.name)}", f"type = {toml_string(arg.type)}"]
        every = [arg] + [args[index] for _, args, _ in self.more_sizes]
        if not arg.is_buffer:
            return lines + [f"value = {toml_string(self._by_size([a.value_text for a in every]))}"]
        lines.append(f"length = {toml_string(self._by_size([str(a.length) for a in every]))}")
        if arg.name in self.outputs:
            lines.append("output = true")
        if arg.name not in self.outputs or arg.name in self.inouts:
            lines.append(f"init = {toml_string('file:' + data_file(arg.name))}")
        return lines

    def _check_lines(self) -> List[str]:
        lines = ["", "[check]"]
        if self.reference_kernel is not None:
            lines.append(f"kernel = {toml_string(self.reference_kernel)}")
        if self.expected:
            pairs = ", ".join(f"{name} = {toml_string(expected_file(name))}" for name in self.expected)
            lines.append("expected = { " + pairs + " }")
        for key, value in (("atol", self.atol), ("rtol", self.rtol), ("reduction", self.reduction)):
            if value is not None:
                lines.append(f"{key} = {toml_string(value)}")
        return lines

    def _bytes_moved(self) -> str:
        """Default work: every buffer read once and every output written once, at each size."""
        from ._arrays import ITEM_BYTES

        def total(args: List[Argument]) -> str:
            return str(sum(a.length * ITEM_BYTES[a.type] * (2 if a.name in self.inouts else 1)
                           for a in args if a.is_buffer))
        return self._by_size([total(self.args)] + [total(args) for _, args, _ in self.more_sizes])

    def _write_data(self, folder: str, args: List[Argument], expected: Dict[str, np.ndarray]) -> None:
        for arg in args:
            if arg.is_buffer and (arg.name not in self.outputs or arg.name in self.inouts):
                write_npy(os.path.join(folder, data_file(arg.name)), arg.type, arg.bits)
        by_name = {arg.name: arg for arg in args}
        for name, bits in expected.items():
            write_npy(os.path.join(folder, expected_file(name)), by_name[name].type, bits)

    def write(self, folder: str) -> str:
        """The folder with the description, source, headers and data; returns the description's path."""
        os.makedirs(folder, exist_ok=True)
        source = os.path.join(folder, self.source_name)
        if self.source_text is not None:
            with open(source, "w") as f:
                f.write(self.source_text)
        for name, text in self.headers.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(text)
        self._write_data(folder, self.args, self.expected)
        for size, args, expected in self.more_sizes:
            self._write_data(os.path.join(folder, size_folder(size)), args, expected)
        path = os.path.join(folder, self.name + ".toml")
        with open(path, "w") as f:
            f.write(self.toml())
        return path


def size_key(size: Dict[str, int]) -> str:
    return "x".join(str(extent) for extent in size.values())


def size_folder(size: Dict[str, int]) -> str:
    return f"sizes/{size_key(size)}"


def data_file(name: str) -> str:
    return f"data/{name}.npy"


def expected_file(name: str) -> str:
    return f"expected/{name}.npy"
