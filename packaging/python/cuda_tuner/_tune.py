"""`tune()`: the kernel, its arguments as the caller's arrays and the tuning space, written as a
template folder (a description, the source, the inputs and the expected outputs as `.npy` files, as a
capture writes one) and tuned by `tuner tune NAME --templates FOLDER --json`: the same engine, its
worker, checks, timing, counters, store and strategies, with its progress on stderr. Every argument
is checked first (_checks.py), so a bad one is a TypeError or ValueError naming it before anything runs."""
import json
import os
import shutil
import tempfile
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _process, _t1
from ._arrays import HOST
from ._checks import (_arguments, _default_name, _identifier, _names, _params, _per_size, _same_arguments,
                      _same_size_names, _sizes, _sizes_expression, _source)
from ._description import Description, check_constraint, dims_text, expression_text
from ._launcher import binary
from ._reference import expected_outputs
from ._result import Interrupted, SizesResult, TuneResult


class Template:
    """A template folder written from Python: `folder`, `name`, `description` (the TOML's path);
    `tune()` tunes it, `explore(arch)` compiles every candidate offline (no GPU)."""

    def __init__(self, folder: str, name: str, description: str, devices: Sequence[str], temporary: bool,
                 several_sizes: bool = False):
        self.several_sizes = several_sizes
        self.folder = folder
        self.name = name
        self.description = description
        self.devices = list(devices)
        self.temporary = temporary

    def command(self, options: Mapping[str, Any], extra: Sequence[str] = ()) -> List[str]:
        command = [binary(), "tune", self.name, "--templates", self.folder, "--json"]
        gpu = options.get("gpu")
        if gpu is None and self.devices and self.devices[0].startswith("cuda:"):
            gpu = int(self.devices[0].split(":")[1])  # where the caller's arrays are
        flags = {"strategy": options.get("strategy"), "budget": options.get("budget"),
                 "budget-seconds": options.get("budget_seconds"), "seed": options.get("seed"),
                 "timing": options.get("timing"), "counters": options.get("counters"),
                 "launches-per-sample": options.get("launches_per_sample"),
                 "timeout-floor": options.get("timeout_floor"), "objective": options.get("objective"),
                 "gpu": gpu, "db": options.get("db")}
        for flag, value in flags.items():
            if value is not None:
                command += [f"--{flag}", os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
        if options.get("force"):
            command.append("--force")
        if self.several_sizes:
            command += ["--sizes", "captured"]  # the first size and every [[data_size]]
        return command + [str(o) for o in extra]

    def tune(self, echo=None, tuner_options: Sequence[str] = (), **options) -> Union[TuneResult, SizesResult]:
        done = _process.run(self.command(options, tuner_options), echo=echo)
        document = json.loads(done.stdout) if done.stdout.strip().startswith("{") else None
        folder = None if self.temporary else self.folder
        result = None
        if document is not None:
            result = SizesResult(document, folder) if self.several_sizes else TuneResult(document, folder)
        if done.interrupts or done.exit_code == 130:
            raise Interrupted(result)
        if done.exit_code not in (0, 1) or result is None:
            raise done.error()
        return result  # exit 1 with a document: no candidate passed the check (result.best is None)

    def explore(self, arch: str = "sm_90") -> dict:
        """`tuner explore` of the template: every candidate compiled for `arch`, no GPU needed."""
        done = _process.run([binary(), "explore", self.name, "--templates", self.folder, "--arch", arch,
                             "--json"], echo=_Quiet())
        if done.exit_code != 0:
            raise done.error()
        return json.loads(done.stdout)

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class _Quiet:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass


def template(source: Union[str, os.PathLike], kernel: str, args: Any, *, params: Mapping[str, Any],
             grid: Any, block: Any, outputs: Any, reference: Any, name: Optional[str] = None,
             constraints: Sequence[str] = (), sizes: Optional[Mapping[str, int]] = None, shared_bytes: Any = 0,
             types: Optional[Mapping[str, str]] = None, inouts: Any = (), headers: Optional[Mapping[str, str]] = None,
             options: Sequence[str] = (), atol: Any = None, rtol: Any = None, reduction: Any = None,
             work_bytes: Any = None, work_flops: Any = None, folder: Optional[Union[str, os.PathLike]] = None
             ) -> Template:
    """Checks everything and writes the template folder (`folder`, else a new temporary one);
    `tune()` takes the same arguments and tunes it. See tune() for each argument."""
    desc = Description()
    if not isinstance(kernel, str) or not kernel.strip():
        raise TypeError("kernel is the kernel's name as C++ writes it, e.g. 'scale' or 'ns::tile<TILE, float>'")
    desc.kernel = kernel
    desc.name = _identifier("name", name if name is not None else _default_name(kernel))
    _source(desc, source, headers)
    several = isinstance(sizes, (list, tuple))
    all_sizes = [_sizes(one) for one in sizes] if several else [_sizes(sizes)]
    _same_size_names(all_sizes)
    desc.sizes = all_sizes[0]
    space = _params(params, desc.sizes)
    variables = list(space) + list(desc.sizes)
    for index, constraint in enumerate(constraints):
        check_constraint(index, constraint, variables)
    desc.grid = dims_text("grid", grid, variables)
    desc.block = dims_text("block", block, variables)
    desc.shared_bytes = expression_text("shared_bytes", shared_bytes, variables)
    desc.options = [str(o) for o in options]
    sizes_only = list(desc.sizes)
    desc.atol = _sizes_expression("atol", atol, sizes_only)
    desc.rtol = _sizes_expression("rtol", rtol, sizes_only)
    desc.reduction = _sizes_expression("reduction", reduction, sizes_only)
    desc.work_bytes = _sizes_expression("work_bytes", work_bytes, sizes_only)
    desc.work_flops = _sizes_expression("work_flops", work_flops, sizes_only)
    _arguments_at_every_size(desc, all_sizes, several, args, types, outputs, inouts, reference)
    # Computed by the tool: the constraints' translation and T1's value strings.
    if constraints or any(isinstance(v, str) for v in space.values()):
        size_values = {name: sorted({one[name] for one in all_sizes}) for name in desc.sizes}
        desc.constraints, computed = _t1.translate(space, size_values, list(constraints))
        desc.python_constraints = list(constraints)
        space.update(computed)
    desc.params = {k: list(v) for k, v in space.items()}
    temporary = folder is None
    target = tempfile.mkdtemp(prefix=f"cuda_tuner_{desc.name}_") if temporary else os.fspath(folder)
    path = desc.write(target)
    devices = sorted({a.device for args_k in [desc.args] + [m[1] for m in desc.more_sizes] for a in args_k
                      if a.is_buffer and a.device != HOST})
    return Template(target, desc.name, path, devices, temporary, bool(desc.more_sizes))


def _arguments_at_every_size(desc: Description, all_sizes: List[Dict[str, int]], several: bool, args: Any,
                             types: Optional[Mapping[str, str]], outputs: Any, inouts: Any, reference: Any) -> None:
    """The arguments, outputs and reference of the first size into `desc`, each further size's (the same
    names and types) into `desc.more_sizes`."""
    all_args = _per_size("args", args, len(all_sizes), several)
    desc.args = _arguments(all_args[0], types)
    desc.inouts = _names("inouts", inouts, desc.args)
    written = _names("outputs", outputs, desc.args)
    desc.outputs = written + [n for n in desc.inouts if n not in written]  # an inout is an output too
    if not desc.outputs:
        raise ValueError("outputs names no argument: name the buffers the kernel writes, e.g. outputs=['out']")
    if several and len(all_sizes) > 1 and isinstance(reference, Mapping):
        raise TypeError("reference: with several sizes give a list of expected outputs, one dict per size")
    references = _per_size("reference", reference, len(all_sizes), several and isinstance(reference, (list, tuple)))
    _reference(desc, references[0])
    for size, size_args, size_reference in zip(all_sizes[1:], all_args[1:], references[1:]):
        more = Description()
        more.sizes, more.args, more.outputs = size, _arguments(size_args, types), desc.outputs
        _same_arguments(desc.args, more.args, size)
        _reference(more, size_reference)
        desc.more_sizes.append((size, more.args, more.expected))


def _reference(desc: Description, reference: Any) -> None:
    if isinstance(reference, str):
        desc.reference_kernel = reference
    elif callable(reference) or isinstance(reference, Mapping):
        desc.expected = expected_outputs(reference, desc.args, desc.outputs)
    elif reference is None:
        raise TypeError("reference is required: the name of a reference kernel in the source, the expected "
                        "outputs ({'out': array}), or a callable that computes them from copies of the arguments")
    else:
        raise TypeError(f"reference is a {type(reference).__name__}: give a reference kernel's name, a dict of "
                        f"expected outputs, or a callable")


def tune(source: Union[str, os.PathLike], kernel: str, args: Any, *, params: Mapping[str, Any], grid: Any,
         block: Any, outputs: Any, reference: Any, strategy: Optional[str] = None, budget: Optional[int] = None,
         budget_seconds: Optional[float] = None, seed: Optional[int] = None, timing: Optional[str] = None,
         counters: Optional[str] = None, launches_per_sample: Optional[int] = None, objective: Optional[str] = None,
         timeout_floor: Optional[float] = None, gpu: Optional[int] = None,
         db: Optional[Union[str, os.PathLike]] = None, force: bool = False, tuner_options: Sequence[str] = (),
         echo=None, **description: Any) -> Union[TuneResult, SizesResult]:
    """Tunes a CUDA kernel on the caller's own arrays with the `tuner` engine; returns a TuneResult.

    source: the CUDA source as a string, or a .cu file's path (headers beside it are found).
    kernel: the entry point as C++ names it: "scale", "ns::tile<TILE, float>" (parameters by name).
    args: the kernel's arguments in order, name to value: NumPy, PyTorch or CuPy arrays (or any with
      __cuda_array_interface__ or __dlpack__), Python or NumPy scalars (int is C int, float is C float).
    params: each tuning parameter's values: {"BLOCK": [128, 256], "ITEMS": range(1, 9)} or T1's
      string form ("[2**i for i in range(5, 11)]"). Each reaches the source as a macro, or through the
      kernel name's template arguments.
    grid, block: one to three expressions each, as in descriptions: ["cdiv(N, BLOCK * ITEMS)"], "BLOCK".
    outputs: the buffers the kernel writes (checked); inouts: those it also reads (kept as given).
    reference: the name of a reference kernel in the source; or the expected outputs {"out": array};
      or a callable run once on copies of the arguments, in order, that returns the outputs (one array,
      a tuple in the order of `outputs`, or a dict) or writes them into its copies and returns None.
    Optional: name (default: the kernel's name), constraints (Python expressions, as T1's conditions:
      "BLOCK * ITEMS <= 4096 and ITEMS % 2 == 0"), sizes ({"N": n}: the problem size the results are
      stored and looked up under; or several, [{"N": n1}, {"N": n2}], with `args` a list of the
      arguments at each size and `reference` a callable, a kernel's name or a list of expected outputs
      per size: one template version, tuned with `--sizes captured`, returning a SizesResult),
      shared_bytes, types ({"x": "bfloat16"} where a dtype does not say),
      headers ({"common.cuh": text} beside a string source), options (NVRTC), atol, rtol, reduction,
      work_bytes, work_flops, folder (keep the template there; default a temporary folder, removed).
    The sweep: strategy (default auto), budget, budget_seconds, seed, timing, counters,
      launches_per_sample, objective, timeout_floor, gpu (default: the GPU of the arrays, else 0),
      db, force, tuner_options (more `tuner tune` options), echo (where progress goes; sys.stderr).

    Raises TypeError/ValueError for bad arguments before anything runs, TunerError with the tool's
    message and exit code when it fails, and Interrupted (a KeyboardInterrupt carrying the result so
    far) on Ctrl-C, after the tool stopped and stored what it measured.
    """
    made = template(source, kernel, args, params=params, grid=grid, block=block, outputs=outputs,
                    reference=reference, **description)
    try:
        return made.tune(echo=echo, tuner_options=tuner_options, strategy=strategy, budget=budget,
                         budget_seconds=budget_seconds, seed=seed, timing=timing, counters=counters,
                         launches_per_sample=launches_per_sample, objective=objective, timeout_floor=timeout_floor,
                         gpu=gpu, db=db, force=force)
    finally:
        if made.temporary:
            made.remove()
