"""Tune a bfloat16 kernel from PyTorch tensors, then launch the tuned configuration from PyTorch
(torch.utils.cpp_extension.load_inline) and from CuPy (cupy.RawKernel). docs/python.md walks
through it. Needs a CUDA GPU, PyTorch with CUDA, and for the CuPy part CuPy; load_inline needs nvcc
and a host compiler (it builds a PyTorch extension).

    pip install cuda-tuner torch cupy-cuda12x
    python tune_axpy_bf16.py             # tunes once (the results are stored), then launches
"""
import sys

import torch

import cuda_tuner

# The kernel, as it will be launched: BLOCK and ITEMS are macros the tuner sets per candidate.
KERNEL = r"""
#include <cuda_bf16.h>
extern "C" __global__ void axpy_bf16(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* y,
                                     float a, int n) {
  int i = (blockIdx.x * BLOCK + threadIdx.x) * ITEMS;
  for (int k = 0; k < ITEMS; ++k, ++i)
    if (i < n) out[i] = __float2bfloat16(a * __bfloat162float(x[i]) + __bfloat162float(y[i]));
}
"""


def tune(n: int) -> cuda_tuner.TuneResult:
    x = torch.rand(n, device="cuda").to(torch.bfloat16)
    y = torch.rand(n, device="cuda").to(torch.bfloat16)
    out = torch.empty_like(x)
    return cuda_tuner.tune(
        KERNEL, "axpy_bf16", {"out": out, "x": x, "y": y, "a": 0.5, "n": n},
        params={"BLOCK": [64, 128, 256, 512, 1024], "ITEMS": [1, 2, 4, 8]},
        constraints=["BLOCK * ITEMS <= 4096"],
        grid="cdiv(N, BLOCK * ITEMS)", block="BLOCK", sizes={"N": n}, outputs="out",
        # The PyTorch expression the kernel replaces, run once on copies of the arguments.
        reference=lambda out, x, y, a, n: torch.add(y, x, alpha=a),
        timing="graph", work_bytes="3 * 2 * N")


def launch_with_pytorch(config: cuda_tuner.Config):
    """A PyTorch extension built with the tuned parameters as macros; the grid as the description
    computes it (cdiv(N, BLOCK * ITEMS)), so it serves every n."""
    from torch.utils.cpp_extension import load_inline
    wrapper = r"""
torch::Tensor axpy(torch::Tensor x, torch::Tensor y, double a) {
  auto out = torch::empty_like(x);
  int n = static_cast<int>(x.numel());
  axpy_bf16<<<(n + BLOCK * ITEMS - 1) / (BLOCK * ITEMS), BLOCK>>>(
      reinterpret_cast<__nv_bfloat16*>(out.data_ptr()), reinterpret_cast<const __nv_bfloat16*>(x.data_ptr()),
      reinterpret_cast<const __nv_bfloat16*>(y.data_ptr()), static_cast<float>(a), n);
  return out;
}
"""
    tag = "_".join(f"{k}{v}" for k, v in config.params.items())
    module = load_inline(name=f"axpy_bf16_{tag}", cpp_sources="torch::Tensor axpy(torch::Tensor x, torch::Tensor y, "
                         "double a);", cuda_sources=KERNEL + wrapper, functions=["axpy"],
                         extra_cuda_cflags=[f"-D{k}={v}" for k, v in config.params.items()])
    return module.axpy


def launch_with_cupy(config: cuda_tuner.Config, x, y, a: float):
    """A RawKernel compiled with the tuned parameters, launched with the tuned grid and block."""
    import cupy
    kernel = cupy.RawKernel(KERNEL, "axpy_bf16", options=tuple(f"-D{k}={v}" for k, v in config.params.items()))
    out = torch.empty_like(x)
    # CuPy has no bfloat16 type: it sees the tensors' memory through DLPack as 16-bit integers.
    as_cupy = [cupy.from_dlpack(t.view(torch.int16)) for t in (out, x, y)]
    kernel(tuple(config.grid), tuple(config.block), (*as_cupy, cupy.float32(a), cupy.int32(x.numel())))
    return out


def main() -> int:
    n = 1 << 24
    config = cuda_tuner.best("axpy_bf16", size=(n,))
    if not config:
        print(f"not tuned yet ({config.note}); tuning", file=sys.stderr)
        print(tune(n))
        config = cuda_tuner.best("axpy_bf16", size=(n,))
    print("tuned:", config)
    x = torch.rand(n, device="cuda").to(torch.bfloat16)
    y = torch.rand(n, device="cuda").to(torch.bfloat16)
    expected = torch.add(y, x, alpha=0.5)
    axpy = launch_with_pytorch(config)
    assert torch.allclose(axpy(x, y, 0.5).float(), expected.float(), rtol=2 ** -6, atol=0)
    print("PyTorch extension: right")
    try:
        out = launch_with_cupy(config, x, y, 0.5)
        torch.cuda.synchronize()
        assert torch.allclose(out.float(), expected.float(), rtol=2 ** -6, atol=0)
        print("CuPy RawKernel: right")
    except ImportError:
        print("CuPy is not installed: its launch was not tried")
    return 0


if __name__ == "__main__":
    sys.exit(main())
