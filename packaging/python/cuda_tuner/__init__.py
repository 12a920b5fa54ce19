"""cuda-tuner: the `tuner` command, tuning from Python, and the stored tuned configurations.

`tune(source, kernel, args, params=..., grid=..., block=..., outputs=..., reference=...)` tunes a
CUDA kernel on the caller's own NumPy, PyTorch or CuPy arrays with the tool's engine (`tuner tune
--json` on a template folder written from them) and returns the best configuration, its time and
the leaders. `best(kernel, size=...)` and `tuned_config(kernel, size=...)` ask the installed tool
(`tuner query --json`), so a CuPy or PyTorch program launches with the configuration the database
holds for its GPU, chosen exactly as the C++ application library (tuner/tuned_config.h) chooses it.
"""
import json
import subprocess
from typing import Any, Dict, Optional, Sequence

from ._launcher import binary
from ._process import TunerError
from ._result import Interrupted, SizesResult, TuneResult
from ._tune import Template, template, tune

__all__ = ["binary", "tune", "template", "best", "tuned_config", "Config", "TuneResult", "SizesResult", "Template",
           "TunerError", "Interrupted"]


def _query(kernel: str, size: Optional[Sequence[int]], db: Optional[str], gpu: Optional[int],
           device: Optional[str], timing: Optional[str] = None, dispatch: bool = False) -> subprocess.CompletedProcess:
    command = [binary(), "query", kernel, "--json"]
    if size is not None:
        command += ["--size", "x".join(str(int(extent)) for extent in size)]
    if db is not None:
        command += ["--db", str(db)]
    if gpu is not None:
        command += ["--gpu", str(gpu)]
    if device is not None:
        command += ["--device", device]
    if timing is not None:
        command += ["--timing", timing]
    if dispatch:
        command.append("--dispatch")
    return subprocess.run(command, capture_output=True, text=True)


def _message(done: subprocess.CompletedProcess) -> str:
    lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
    return lines[-1] if lines else f"tuner query exited with {done.returncode}"


def tuned_config(kernel: str, size: Optional[Sequence[int]] = None, db: Optional[str] = None,
                 gpu: Optional[int] = None, device: Optional[str] = None) -> dict:
    """The stored best configuration of `kernel` (the document `tuner query --json` prints): under
    "results", per GPU model a "status" and a "note" saying why: "found" with the "params" to launch
    with, "only_stale" (only results of an older version of the template: their "params" are for
    information, not to launch with) or "not_found".

    size: the problem size, e.g. (8192, 8192); None for the template's defaults.
    db: the database file; None for $TUNER_DB or the default under $XDG_DATA_HOME.
    gpu: this machine's GPU to look up for; None for the tool's default (GPU 0).
    device: a stored GPU model's name instead (e.g. "H100"): no GPU needed.
    """
    done = _query(kernel, size, db, gpu, device)
    # Exit 1 with a document: no current result, and each GPU's "status" and "note" say why.
    # Any other failure prints tuner's error document ({"command", "error", "exit_code"}) instead.
    if done.returncode in (0, 1) and done.stdout.strip():
        document = json.loads(done.stdout)
        if "error" not in document:  # under --json a failure is a document too
            return document
    raise TunerError(_message(done), done.returncode)


class Config:
    """A stored configuration to launch, as the C++ library's TunedConfig: true when one was found.

    params: {"BLOCK": 256, ...}; grid, block: the launch of the tuned size ([x, y, z] lists);
    shared_bytes; time_ms: its stored median; status: "found", "only_stale" or "not_found";
    note: where it came from (a fallback to another size or card is said so); json: the whole result.
    """

    def __init__(self, result: Dict[str, Any]):
        self.json = result
        self.status = result.get("status", "not_found")
        self.note = result.get("note", "")
        self.params: Dict[str, int] = dict(result.get("params") or {}) if self.status == "found" else {}
        launch = (result.get("launch") or {}) if self.status == "found" else {}
        self.grid = launch.get("grid")
        self.block = launch.get("block")
        self.shared_bytes = launch.get("shared_bytes", 0)
        self.time_ms = (result.get("time_ms") or {}).get("median") if self.status == "found" else None

    def __bool__(self) -> bool:
        return self.status == "found"

    def param(self, name: str, default: int) -> int:
        """A parameter's tuned value, or `default` where none was found (TunedConfig::Param)."""
        return self.params.get(name, default)

    def __repr__(self) -> str:
        if not self:
            return f"Config({self.status}: {self.note})"
        params = " ".join(f"{k}={v}" for k, v in self.params.items())
        return f"Config({params}; grid {self.grid} block {self.block}; {self.note})"


def best(kernel: str, size: Optional[Sequence[int]] = None, gpu: Optional[int] = None, db: Optional[str] = None,
         device: Optional[str] = None, timing: Optional[str] = None, dispatch: bool = False) -> Config:
    """The configuration to launch `kernel` with on this GPU (`gpu`, default 0) at `size` (the values
    of the sizes tune() was given, in order): the stored best, or the nearest tuned size's, another
    card's of the model, another model's of the architecture, as `tuner query` and the C++ library's
    TunedConfigs::Lookup choose it. dispatch=True: the dispatch table's entry instead, as
    TunedConfigs::Dispatch serves it (`tuner query --dispatch`: of the fewest configurations that keep
    every tuned size of this GPU within 5% of its best, the one for this size; needs this machine's
    GPU). A Config that is false when nothing is stored for it (its `note` says why); a TunerError
    when the tool refuses (a bad size or GPU, a broken database)."""
    done = _query(kernel, size, db, gpu, device, timing, dispatch)
    if done.returncode in (0, 1) and done.stdout.strip():
        results = json.loads(done.stdout).get("results") or []
        found = [r for r in results if r.get("status") == "found"]
        return Config(found[0] if found else (results[0] if results else {"note": _message(done)}))
    if done.returncode == 1:  # nothing of this kernel stored at all: an outcome, not an error
        return Config({"status": "not_found", "note": _message(done)})
    raise TunerError(_message(done), done.returncode)
