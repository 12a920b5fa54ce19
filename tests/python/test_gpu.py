"""tune() on a GPU, end to end: a bfloat16 kernel tuned from PyTorch tensors against the PyTorch
expression it replaces, a CuPy RawKernel launched again with the tuned configuration that best()
looks up, and wrong kernels caught by the check. Without a usable GPU these skip and say why; under
TUNER_REQUIRE_GPU they fail instead (and so does a missing PyTorch or CuPy)."""
import os
import subprocess

import numpy as np
import pytest

import cuda_tuner
from conftest import require_module
from kernels import AXPY_BF16, SCALE, SCALE_DROPS_ITEMS

pytestmark = pytest.mark.gpu

N = 1 << 20


def cuda_torch():
    torch = require_module("torch", "pip install torch, a CUDA build")
    if not torch.cuda.is_available():
        message = "PyTorch sees no CUDA GPU (a CPU-only build, or a driver it does not take)"
        if os.environ.get("TUNER_REQUIRE_GPU"):
            pytest.fail(message)
        pytest.skip(message)
    return torch


def test_a_bfloat16_kernel_tuned_from_pytorch_tensors_against_pytorch(gpu):
    torch = cuda_torch()
    generator = torch.Generator(device="cuda").manual_seed(1)
    x = torch.rand(N, device="cuda", generator=generator).to(torch.bfloat16)
    y = torch.rand(N, device="cuda", generator=generator).to(torch.bfloat16)
    out = torch.empty_like(x)
    x_before = x.clone()
    # The reference computes in float32 and its result is rounded to bfloat16 as the output is.
    result = cuda_tuner.tune(AXPY_BF16, "axpy_bf16", {"out": out, "x": x, "y": y, "a": 0.5, "n": N},
                             params={"BLOCK": [128, 256], "ITEMS": [1, 2, 4]}, grid="cdiv(N, BLOCK * ITEMS)",
                             block="BLOCK", outputs="out", sizes={"N": N}, counters="off",
                             reference=lambda out, x, y, a, n: a * x.float() + y.float())
    assert result.kernel == "axpy_bf16" and result.size == str(N)
    statuses = {c["status"] for c in result.candidates}
    assert statuses == {"ok"}, result.candidates
    assert len(result.candidates) == 6 and result.best is not None and result.time_ms > 0
    assert set(result.params) == {"BLOCK", "ITEMS"} and result.leaders
    assert torch.equal(x, x_before)  # the caller's tensors are untouched (the reference had copies)
    found = cuda_tuner.best("axpy_bf16", size=(N,))
    assert found and found.params == result.params, found


def test_a_cupy_raw_kernel_launches_the_tuned_configuration(gpu):
    cupy = require_module("cupy", "pip install cupy-cuda12x or cupy-cuda13x, as the driver takes")
    cupy.random.seed(1)
    x = cupy.random.rand(N, dtype=cupy.float32)
    out = cupy.empty_like(x)
    result = cuda_tuner.tune(SCALE, "scale", {"out": out, "x": x, "a": 3.0, "n": N},
                             params={"BLOCK": [64, 128, 256], "ITEMS": [1, 2, 4]}, grid="cdiv(N, BLOCK * ITEMS)",
                             block="BLOCK", outputs="out", sizes={"N": N}, counters="off",
                             reference=lambda out, x, a, n: a * x)
    assert {c["status"] for c in result.candidates} == {"ok"}, result.candidates
    config = cuda_tuner.best("scale", size=(N,))
    assert config and config.params == result.params
    kernel = cupy.RawKernel(SCALE, "scale", options=tuple(f"-D{k}={v}" for k, v in config.params.items()))
    out.fill(0)
    kernel(tuple(config.grid), tuple(config.block), (out, x, cupy.float32(3.0), cupy.int32(N)),
           shared_mem=config.shared_bytes)
    cupy.cuda.Device().synchronize()
    assert bool(cupy.allclose(out, 3 * x, rtol=1e-6, atol=0))


def test_a_kernel_wrong_for_some_configurations_is_caught_and_never_best(gpu):
    x = np.random.default_rng(1).random(N, dtype=np.float32)
    result = cuda_tuner.tune(SCALE_DROPS_ITEMS, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": N},
                             params={"BLOCK": [64, 128], "ITEMS": [1, 2, 4]}, grid="cdiv(N, BLOCK * ITEMS)",
                             block="BLOCK", outputs="out", sizes={"N": N}, counters="off",
                             reference=lambda out, x, a, n: a * x)
    for candidate in result.candidates:
        expected = "ok" if candidate["params"]["ITEMS"] == 1 else "wrong_result"
        assert candidate["status"] == expected, candidate
    assert result.params["ITEMS"] == 1


def test_a_kernel_wrong_everywhere_has_no_best(gpu):
    x = np.random.default_rng(1).random(N, dtype=np.float32)
    result = cuda_tuner.tune(SCALE, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": N},
                             params={"BLOCK": [64, 128], "ITEMS": [1, 2]}, grid="cdiv(N, BLOCK * ITEMS)",
                             block="BLOCK", outputs="out", sizes={"N": N}, counters="off", name="scale_wrong",
                             reference=lambda out, x, a, n: a * x + 0.5)
    assert result.best is None and result.params == {}
    assert {c["status"] for c in result.candidates} == {"wrong_result"}, result.candidates
    assert "TuneResult(scale_wrong" in repr(result)


def test_best_with_dispatch_serves_the_dispatch_table_entry(gpu, binary):
    # The shipped transpose tuned at two sizes in one run (one template version, one dispatch table).
    done = subprocess.run([binary, "tune", "transpose", "--sizes", "1024x1024,2048x1024", "--counters", "off"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    for size in [(1024, 1024), (2048, 1024)]:
        entry = cuda_tuner.best("transpose", size=size, dispatch=True)
        own = cuda_tuner.best("transpose", size=size)
        assert entry and own, (entry, own)
        assert "dispatch table entry" in entry.note, entry.note
        assert set(entry.params) == set(own.params) and entry.block and entry.grid


def test_several_sizes_tuned_in_one_call_are_served_with_their_dispatch_table(gpu):
    sizes = [{"N": 1 << 16}, {"N": 1 << 20}, {"N": 1 << 22}]
    rng = np.random.default_rng(1)
    args = []
    for size in sizes:
        x = rng.random(size["N"], dtype=np.float32)
        args.append({"out": np.empty_like(x), "x": x, "a": 2.0, "n": size["N"]})
    results = cuda_tuner.tune(SCALE, "scale", args, params={"BLOCK": [64, 128, 256], "ITEMS": [1, 2, 4]},
                              grid="cdiv(N, BLOCK * ITEMS)", block="BLOCK", outputs="out", sizes=sizes,
                              counters="off", reference=lambda out, x, a, n: a * x)
    assert [r.size for r in results] == ["65536", "1048576", "4194304"]
    for size, result in zip(sizes, results):
        assert {c["status"] for c in result.candidates} == {"ok"}, result.candidates
        own = cuda_tuner.best("scale", size=(size["N"],))
        assert own and own.params == result.params and own.note, own
        entry = cuda_tuner.best("scale", size=(size["N"],), dispatch=True)
        assert entry and "dispatch table entry" in entry.note, entry.note
