"""The Python package's tests (packaging/python/cuda_tuner), run by CTest (tests/CMakeLists.txt:
python and python-gpu) or by hand:

    TUNER_BINARY=build/bin/tuner python3 -m pytest tests/python -rs            # CPU tests; GPU tests skip
    TUNER_REQUIRE_GPU=1 TUNER_BINARY=build/bin/tuner python3 -m pytest tests/python -m gpu -rs

They import the package from the source tree, drive the binary TUNER_BINARY names (else the build's
build/bin/tuner), and give every test a fresh database and compile cache. GPU tests are marked `gpu`:
without a usable GPU they skip and say why, and under TUNER_REQUIRE_GPU they fail instead, as do
those that need PyTorch or CuPy where it is not installed."""
import json
import os
import subprocess
import sys

import pytest

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPOSITORY, "packaging", "python"))


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a usable CUDA GPU (skips without one, fails under "
                                       "TUNER_REQUIRE_GPU)")
    if not os.environ.get("TUNER_BINARY"):
        built = os.path.join(REPOSITORY, "build", "bin", "tuner")
        if os.path.exists(built):
            os.environ["TUNER_BINARY"] = built


def tuner_binary():
    path = os.environ.get("TUNER_BINARY", "")
    return path if path and os.access(path, os.X_OK) else None


_GPUS = None


def usable_gpus():
    """(count, why none): from `tuner devices --json`, asked once."""
    global _GPUS
    if _GPUS is None:
        binary = tuner_binary()
        if binary is None:
            _GPUS = (0, "no tuner binary (set TUNER_BINARY)")
        else:
            done = subprocess.run([binary, "devices", "--json"], capture_output=True, text=True)
            if done.returncode == 0:
                found = json.loads(done.stdout)
                _GPUS = (len(found["gpus"]), found.get("problem") or "tuner devices lists no GPU")
            else:
                _GPUS = (0, done.stderr.strip() or f"tuner devices exited with {done.returncode}")
    return _GPUS


def require_gpu():
    """Skips (or, under TUNER_REQUIRE_GPU, fails) a test without a usable GPU."""
    count, why = usable_gpus()
    promised = os.environ.get("TUNER_REQUIRE_GPU", "")
    if promised and count < max(1, int(promised) if promised.isdigit() else 1):
        pytest.fail(f"TUNER_REQUIRE_GPU={promised}, but {count} usable GPU(s): {why}")
    if count == 0:
        pytest.skip(f"no usable GPU: {why}")


def require_module(name, install):
    """A GPU test's array library: skipped without it, failed under TUNER_REQUIRE_GPU (a GPU run that
    silently skipped the PyTorch and CuPy tests would pass green)."""
    try:
        return __import__(name)
    except ImportError:
        if os.environ.get("TUNER_REQUIRE_GPU"):
            pytest.fail(f"{name} is not installed; the GPU tests need it ({install})")
        pytest.skip(f"{name} is not installed ({install})")


@pytest.fixture
def binary():
    path = tuner_binary()
    if path is None:
        pytest.skip("no tuner binary: build it (cmake --build build --target tuner) or set TUNER_BINARY")
    return path


@pytest.fixture(autouse=True)
def fresh_store(tmp_path, monkeypatch):
    """A database and compile cache of the test's own, never the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("TUNER_DB", str(tmp_path / "tuner.db"))
    monkeypatch.delenv("TUNER_TEMPLATES", raising=False)
    monkeypatch.delenv("TUNER_CAPTURE", raising=False)


@pytest.fixture
def gpu(binary):
    require_gpu()


def pytest_runtest_logreport(report):
    """A skipped GPU test's reason goes to $TUNER_SKIP_RECORD, which ctest prints at its end with the
    C++ GPU tests' (tests/print_skips.sh)."""
    record = os.environ.get("TUNER_SKIP_RECORD")
    if record and report.skipped and "gpu" in report.keywords and report.when in ("setup", "call"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        with open(record, "a") as f:
            f.write(f"python/{report.nodeid.split('::')[-1]}: {reason.replace('Skipped: ', '')}\n")
