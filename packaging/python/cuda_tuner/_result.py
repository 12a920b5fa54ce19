"""What `tune()` returns: the document `tuner tune --json` printed, with its best configuration, time
and leaders at hand, and every candidate as a pandas DataFrame when pandas is installed."""
from typing import Any, Dict, List, Optional


class TuneResult:
    """The outcome of one sweep.

    best: the best candidate (params, launch, time_ms, status, ...) or None when none passed.
    params: the best configuration's parameters; grid, block, shared_bytes: its launch.
    time_ms: its median time. leaders: the leaders timed in turns (params, time_ms, iqr_ms, ...).
    candidates: every candidate of the sweep, fastest first. interrupted: Ctrl-C stopped the sweep.
    json: the whole document (README, "tuner tune"); folder: the template folder, where it was kept.
    """

    def __init__(self, document: Dict[str, Any], folder: Optional[str] = None):
        self.json = document
        self.folder = folder

    @property
    def kernel(self) -> str:
        return self.json.get("kernel", "")

    @property
    def size(self) -> str:
        return self.json.get("size", "")

    @property
    def best(self) -> Optional[Dict[str, Any]]:
        return self.json.get("best")

    @property
    def params(self) -> Dict[str, int]:
        return dict(self.best["params"]) if self.best else {}

    @property
    def time_ms(self) -> Optional[float]:
        return self.best["time_ms"] if self.best else None

    def _launch(self, key: str):
        launch = (self.best or {}).get("launch") or {}
        return launch.get(key)

    @property
    def grid(self):
        return self._launch("grid")

    @property
    def block(self):
        return self._launch("block")

    @property
    def shared_bytes(self) -> int:
        return self._launch("shared_bytes") or 0

    @property
    def leaders(self) -> List[Dict[str, Any]]:
        return list(self.json.get("leaders") or [])

    @property
    def candidates(self) -> List[Dict[str, Any]]:
        return list(self.json.get("candidates") or [])

    @property
    def interrupted(self) -> bool:
        return bool(self.json.get("interrupted"))

    def to_pandas(self):
        """Every candidate as a DataFrame: one column per parameter, then status, time_ms and the
        other measurements. Needs pandas (imported here, not by the package)."""
        try:
            import pandas
        except ImportError:
            raise ImportError("TuneResult.to_pandas() needs pandas: pip install pandas") from None
        rows = []
        for candidate in self.candidates:
            row = dict(candidate.get("params") or {})
            row.update({key: value for key, value in candidate.items() if key not in ("params", "counters")})
            rows.append(row)
        return pandas.DataFrame(rows)

    def __repr__(self) -> str:
        if not self.best:
            return f"TuneResult({self.kernel} {self.size}: no candidate passed the check)"
        params = " ".join(f"{k}={v}" for k, v in self.params.items())
        return (f"TuneResult({self.kernel} {self.size}: best {params} {self.time_ms:.4f} ms, "
                f"{len(self.candidates)} candidates{', interrupted' if self.interrupted else ''})")


class SizesResult(list):
    """The outcome of a tune at several sizes (`sizes=[...]`): a TuneResult per size, in the order
    tuned (the first size first); `json` is the whole document of `tuner tune --sizes --json`."""

    def __init__(self, document: Dict[str, Any], folder: Optional[str] = None):
        super().__init__(TuneResult(one, folder) for one in document.get("sizes") or [])
        self.json = document
        self.folder = folder

    @property
    def interrupted(self) -> bool:
        return any(result.interrupted for result in self)

    def to_pandas(self):
        """Every candidate of every size, with a `size` column."""
        try:
            import pandas
        except ImportError:
            raise ImportError("SizesResult.to_pandas() needs pandas: pip install pandas") from None
        frames = [result.to_pandas().assign(size=result.size) for result in self]
        return pandas.concat(frames, ignore_index=True) if frames else pandas.DataFrame()

    def __repr__(self) -> str:
        return "SizesResult([" + ", ".join(repr(result) for result in self) + "])"


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped the sweep: a KeyboardInterrupt that carries what was measured (`result`, a
    TuneResult, or None where the tool stopped before it printed one). The measured candidates are
    stored; the same call on the same data resumes."""

    def __init__(self, result: Optional[TuneResult]):
        super().__init__("tuning interrupted; what was measured is stored and the same call resumes")
        self.result = result
