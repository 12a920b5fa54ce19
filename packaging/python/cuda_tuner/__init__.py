"""cuda-tuner: the `tuner` command, and the stored tuned configurations for Python programs.

`tuned_config(kernel, size=...)` asks the installed tool (`tuner query --json`), so a CuPy or
PyTorch program launches with the configuration the database holds for its GPU, chosen exactly as
the C++ application library (tuner/tuned_config.h) chooses it.
"""
import json
import subprocess
from typing import Optional, Sequence

from ._launcher import binary

__all__ = ["binary", "tuned_config", "TunerError"]


class TunerError(RuntimeError):
    """The tool refused or failed; `exit_code` is its exit code (docs/reference/exit-codes.md)."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code


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
    command = [binary(), "query", kernel, "--json"]
    if size is not None:
        command += ["--size", "x".join(str(int(extent)) for extent in size)]
    if db is not None:
        command += ["--db", db]
    if gpu is not None:
        command += ["--gpu", str(gpu)]
    if device is not None:
        command += ["--device", device]
    done = subprocess.run(command, capture_output=True, text=True)
    # Exit 1 with a document: no current result, and each GPU's "status" and "note" say why.
    # Any other failure prints tuner's error document ({"command", "error", "exit_code"}) instead.
    if done.returncode in (0, 1) and done.stdout.strip():
        document = json.loads(done.stdout)
        if "error" not in document:
            return document
    raise TunerError(done.stderr.strip() or f"tuner query exited with {done.returncode}", done.returncode)
