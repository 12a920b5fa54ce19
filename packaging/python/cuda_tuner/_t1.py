"""Python's constraints and T1's value strings, computed by the tool: a small T1 description of the
parameters and conditions goes through `tuner import t1`, which translates each condition into the
description's syntax with Python's meaning kept (`//` floors, `%` takes the divisor's sign,
comparisons chain, `and`/`or` short-circuit) and computes each value string, never by running
Python. Nothing of that is done again here."""
import json
import os
import re
import tempfile
from typing import Dict, List, Sequence, Tuple, Union

from . import _process
from ._launcher import binary

_KERNEL = "tuner_python_constraints"


def _document(name: str, params: Dict[str, Union[str, List[int]]], sizes: Dict[str, List[int]],
              constraints: Sequence[str]) -> dict:
    variables = list(params) + list(sizes)
    parameters = [{"Name": p, "Type": "int", "Values": values} for p, values in params.items()]
    # Sizes are parameters here, of the values tune() was given, so that a condition may name them as
    # it may in tune() (the import wants one configuration that satisfies every condition).
    parameters += [{"Name": s, "Type": "int", "Values": values} for s, values in sizes.items()]
    return {
        "General": {"BenchmarkName": name, "OutputFormat": "JSON"},
        "ConfigurationSpace": {
            "TuningParameters": parameters,
            "Conditions": [{"Expression": c, "Parameters": variables} for c in constraints]},
        "KernelSpecification": {
            "Language": "CUDA", "KernelName": _KERNEL, "KernelFile": _KERNEL + ".cu", "ProblemSize": [1],
            "GlobalSize": {"X": "1"}, "GlobalSizeType": "CUDA", "LocalSize": {"X": "1", "Y": "1", "Z": "1"},
            "Arguments": [{"Name": "out", "Type": "float", "MemoryType": "Vector", "AccessType": "WriteOnly",
                           "Size": 1}]}}


def _values_of(description: str, names: Sequence[str]) -> Dict[str, List[int]]:
    """Each parameter's values as the import wrote them (`[[param]]`, `name = "X"`, `values = [...]`)."""
    values: Dict[str, List[int]] = {}
    for block in description.split("[[param]]")[1:]:
        name = re.search(r'^name = "([^"]*)"', block, re.M)
        listed = re.search(r"^values = \[([^\]]*)\]", block, re.M)
        if name and listed and name.group(1) in names:
            values[name.group(1)] = [int(v) for v in listed.group(1).replace("\n", " ").split(",") if v.strip()]
    return values


def translate(params: Dict[str, Union[str, List[int]]], sizes: Dict[str, List[int]],
              constraints: Sequence[str]) -> Tuple[List[str], Dict[str, List[int]]]:
    """The constraints in the description's syntax, in order, and every parameter's values (the
    string ones computed). ValueError with the tool's message for what it refuses."""
    name = "python_constraints"
    with tempfile.TemporaryDirectory(prefix="cuda_tuner_t1_") as folder:
        with open(os.path.join(folder, _KERNEL + ".cu"), "w") as f:
            f.write(f'extern "C" __global__ void {_KERNEL}(float* out) {{}}\n')
        t1 = os.path.join(folder, name + ".json")
        with open(t1, "w") as f:
            json.dump(_document(name, params, sizes, constraints), f)
        output = os.path.join(folder, "out")
        done = _process.run([binary(), "import", "t1", t1, "--output", output, "--json"], echo=_Discard())
        if done.exit_code == 2:
            raise ValueError(_in_python_terms(str(done.error()), t1, list(params) + list(sizes)))
        if done.exit_code != 0:
            raise done.error()
        document = json.loads(done.stdout)
        translated = [entry["template"] for entry in document["constraints"]]
        with open(document["description"]) as f:
            values = _values_of(f.read(), list(params))
    return translated, values


def _in_python_terms(message: str, t1: str, names: Sequence[str]) -> str:
    """The tool's refusal with the T1 fields named as tune() names them: "constraints[0]: 'BLOCK & 64':
    the bitwise operator '&' has no counterpart ..."."""
    message = re.sub(r"^tuner import: ", "", message).replace(t1 + ": ", "").replace(t1, "")
    message = re.sub(r"ConfigurationSpace\.Conditions\[(\d+)\]\.Expression", r"constraints[\1]", message)
    message = message.replace("ConfigurationSpace.Conditions: no configuration satisfies every condition",
                              "constraints: no configuration satisfies every constraint")
    message = re.sub(r"ConfigurationSpace\.TuningParameters\[(\d+)\]\.Values",
                     lambda m: f"params[{names[int(m.group(1))]!r}]" if int(m.group(1)) < len(names) else m.group(0),
                     message)
    return message + " (translated by tuner import t1)"


class _Discard:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass
