"""The template folder tune() writes (cuda_tuner/_description.py): its description, source, data and
expected files, and that the real tool accepts it and compiles every candidate (`tuner explore`,
no GPU needed)."""
import itertools
import os

import numpy as np

import cuda_tuner
from kernels import SCALE, SQUARE_HEADER, TEMPLATED

N = 10000


def scale_template(tmp_path, **changes):
    x = np.linspace(-1, 1, N, dtype=np.float32)
    arguments = dict(params={"BLOCK": [64, 128, 256], "ITEMS": range(1, 5)}, grid="cdiv(N, BLOCK * ITEMS)",
                     block="BLOCK", outputs="out", sizes={"N": N}, reference=lambda out, x, a, n: a * x,
                     folder=tmp_path / "scale" if tmp_path else None)
    arguments.update(changes)
    return cuda_tuner.template(SCALE, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": N}, **arguments), x


def test_the_description_holds_the_sizes_parameters_launch_arguments_and_check(tmp_path):
    made, _ = scale_template(tmp_path)
    with open(made.description) as f:
        text = f.read()
    for line in ['name = "scale"', 'kernel = "scale"', 'source = "kernel.cu"', '[[size]]\nname = "N"\ndefault = 10000',
                 'name = "BLOCK"\nvalues = [64, 128, 256]', 'name = "ITEMS"\nvalues = [1, 2, 3, 4]',
                 'grid = ["cdiv(N, BLOCK * ITEMS)"]', 'block = ["BLOCK"]',
                 'name = "out"\ntype = "float"\nlength = "10000"\noutput = true',
                 'name = "x"\ntype = "float"\nlength = "10000"\ninit = "file:data/x.npy"',
                 'name = "a"\ntype = "float"\nvalue = "2.0"', 'name = "n"\ntype = "int"\nvalue = "10000"',
                 'expected = { out = "expected/out.npy" }', '[work]\nbytes = "80000"']:
        assert line in text, line
    assert sorted(os.listdir(made.folder)) == ["data", "expected", "kernel.cu", "scale.toml"]


def test_inputs_and_expected_outputs_are_npy_files_numpy_reads_back(tmp_path):
    made, x = scale_template(tmp_path)
    assert np.array_equal(np.load(os.path.join(made.folder, "data", "x.npy")), x)
    assert np.array_equal(np.load(os.path.join(made.folder, "expected", "out.npy")), 2 * x)


def test_bfloat16_files_name_their_type_and_hold_its_bits(tmp_path):
    bits = np.array([0x3F80, 0x4000, 0xBF80], np.uint16)  # 1, 2, -1
    made = cuda_tuner.template(
        'extern "C" __global__ void neg(unsigned short* out, const unsigned short* x) '
        '{ int i = threadIdx.x; if (i < 3) out[i] = x[i] ^ 0x8000; }',
        "neg", {"out": np.zeros(3, np.uint16), "x": bits}, types={"out": "bfloat16", "x": "bfloat16"},
        params={"B": [32]}, grid=1, block="B", outputs="out", reference={"out": bits ^ 0x8000},
        folder=tmp_path / "neg")
    with open(os.path.join(made.folder, "data", "x.npy"), "rb") as f:
        raw = f.read()
    assert b"'descr': 'bfloat16'" in raw[:128] and b"'shape': (3,)" in raw[:128]  # ml_dtypes' name
    assert raw.endswith(bits.astype("<u2").tobytes()) and len(raw) % 64 == 6  # data after a 64-byte header
    with open(os.path.join(made.folder, "expected", "out.npy"), "rb") as f:
        raw = f.read()
    assert raw.endswith((bits ^ 0x8000).astype("<u2").tobytes())


def test_inouts_keep_their_contents_and_are_checked(tmp_path):
    acc = np.arange(4, dtype=np.float32)
    made = cuda_tuner.template(
        'extern "C" __global__ void inc(float* acc) { int i = threadIdx.x; if (i < 4) acc[i] += 1; }', "inc",
        {"acc": acc}, params={"B": [32, 64]}, grid=1, block="B", outputs=[], inouts="acc",
        reference=lambda acc: acc + 1, folder=tmp_path / "inc")
    with open(made.description) as f:
        text = f.read()
    assert 'name = "acc"\ntype = "float"\nlength = "4"\noutput = true\ninit = "file:data/acc.npy"' in text
    assert np.array_equal(np.load(os.path.join(made.folder, "expected", "acc.npy")), acc + 1)


def test_the_tool_accepts_the_description_and_compiles_every_candidate(tmp_path, binary):
    made, _ = scale_template(tmp_path)
    explored = made.explore("sm_90")
    assert explored["kernel"] == "scale"
    candidates = explored["candidates"]
    assert len(candidates) == 12
    assert explored["compile_errors"] == 0 and explored["invalid"] == 0
    assert all(c["compiled"] and not c["invalid_reason"] for c in candidates), candidates


def test_python_constraints_are_translated_by_the_tool_with_their_meaning_kept(tmp_path, binary):
    constraint = "BLOCK * ITEMS <= 512 and ITEMS % 2 == 0 or N // BLOCK > 100 > ITEMS"
    made, _ = scale_template(tmp_path, constraints=[constraint])
    with open(made.description) as f:
        text = f.read()
    assert f"# {constraint}" in text
    kept = [(b, i) for b, i in itertools.product([64, 128, 256], range(1, 5)) if eval(constraint, {"BLOCK": b,
                                                                                                    "ITEMS": i,
                                                                                                    "N": N})]
    explored = made.explore("sm_90")
    assert sorted((c["params"]["BLOCK"], c["params"]["ITEMS"]) for c in explored["candidates"]) == sorted(kept)


def test_t1_value_strings_are_computed_by_the_tool(tmp_path, binary):
    made, _ = scale_template(tmp_path, params={"BLOCK": "[2**i for i in range(5, 9)]", "ITEMS": [1, 2]})
    with open(made.description) as f:
        assert 'name = "BLOCK"\nvalues = [32, 64, 128, 256]' in f.read()


def test_a_templated_kernel_with_a_header_compiles(tmp_path, binary):
    x = np.ones(100, np.float32)
    made = cuda_tuner.template(TEMPLATED, "demo::squares<BLOCK>", {"out": np.empty_like(x), "x": x, "n": 100},
                               headers={"square.cuh": SQUARE_HEADER}, params={"BLOCK": [64, 128]},
                               grid="cdiv(100, BLOCK)", block="BLOCK", outputs="out",
                               reference=lambda out, x, n: x * x, folder=tmp_path / "squares")
    assert made.name == "squares"
    explored = made.explore("sm_90")
    assert [c["compiled"] for c in explored["candidates"]] == [True, True], explored


def test_a_source_file_is_used_where_it_is_with_its_headers(tmp_path, binary):
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    (kernels / "squares.cu").write_text(TEMPLATED)
    (kernels / "square.cuh").write_text(SQUARE_HEADER)
    x = np.ones(100, np.float32)
    made = cuda_tuner.template(kernels / "squares.cu", "demo::squares<BLOCK>",
                               {"out": np.empty_like(x), "x": x, "n": 100}, params={"BLOCK": [64, 128]},
                               grid="cdiv(100, BLOCK)", block="BLOCK", outputs="out", reference={"out": x * x},
                               folder=tmp_path / "from_file")
    with open(made.description) as f:
        assert f'source = "{kernels / "squares.cu"}"' in f.read()
    assert len(made.explore("sm_90")["candidates"]) == 2


def test_a_temporary_folder_is_removed_after_tune(binary, monkeypatch):
    made, _ = scale_template(None, folder=None)
    assert made.temporary and os.path.isdir(made.folder)
    made.remove()
    assert not os.path.exists(made.folder)


def test_a_template_without_sizes_is_accepted(tmp_path, binary):
    x = np.ones(100, np.float32)
    made = cuda_tuner.template(SCALE, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": 100},
                               params={"BLOCK": [32, 64], "ITEMS": [1]}, grid="cdiv(100, BLOCK)", block="BLOCK",
                               outputs="out", reference={"out": 2 * x}, folder=tmp_path / "no_sizes")
    with open(made.description) as f:
        assert "[[size]]" not in f.read()
    assert len(made.explore("sm_90")["candidates"]) == 2


def test_a_reference_kernel_of_the_source_is_the_check(tmp_path, binary):
    source = SCALE + r'''
extern "C" __global__ void scale_reference(float* out, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i];
}
'''
    x = np.ones(N, np.float32)
    made = cuda_tuner.template(source, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": N},
                               params={"BLOCK": [64, 128], "ITEMS": [1, 2]}, grid="cdiv(N, BLOCK * ITEMS)",
                               block="BLOCK", outputs="out", sizes={"N": N}, reference="scale_reference",
                               folder=tmp_path / "with_reference")
    with open(made.description) as f:
        text = f.read()
    assert "[check]\nkernel = \"scale_reference\"" in text and "expected = " not in text
    assert not os.path.exists(os.path.join(made.folder, "expected"))
    assert len(made.explore("sm_90")["candidates"]) == 4


def two_sizes(tmp_path, **changes):
    sizes = [{"N": 1000}, {"N": 4000}]
    args = []
    for size in sizes:
        x = np.linspace(0, 1, size["N"], dtype=np.float32)
        args.append({"out": np.empty_like(x), "x": x, "a": 2.0, "n": size["N"]})
    arguments = dict(params={"BLOCK": [64, 128], "ITEMS": [1, 2]}, grid="cdiv(N, BLOCK * ITEMS)", block="BLOCK",
                     outputs="out", sizes=sizes, reference=lambda out, x, a, n: a * x, folder=tmp_path / "sizes")
    arguments.update(changes)
    return cuda_tuner.template(SCALE, "scale", args, **arguments), args


def test_several_sizes_are_one_template_with_a_data_folder_per_further_size(tmp_path):
    made, args = two_sizes(tmp_path)
    with open(made.description) as f:
        text = f.read()
    for line in ['[[size]]\nname = "N"\ndefault = 1000', '[[data_size]]\nsize = "4000"\nfolder = "sizes/4000"',
                 'name = "x"\ntype = "float"\nlength = "N == 1000 ? 1000 : 4000"',
                 'name = "a"\ntype = "float"\nvalue = "2.0"', 'name = "n"\ntype = "int"\nvalue = "N == 1000 ? 1000 : 4000"',
                 'bytes = "N == 1000 ? 8000 : 32000"']:
        assert line in text, line
    assert np.array_equal(np.load(os.path.join(made.folder, "data", "x.npy")), args[0]["x"])
    assert np.array_equal(np.load(os.path.join(made.folder, "sizes", "4000", "data", "x.npy")), args[1]["x"])
    assert np.array_equal(np.load(os.path.join(made.folder, "sizes", "4000", "expected", "out.npy")), 2 * args[1]["x"])
    assert made.several_sizes and made.command({})[-2:] == ["--sizes", "captured"]


def test_several_sizes_with_expected_outputs_per_size(tmp_path):
    made, args = two_sizes(tmp_path, reference=[{"out": 3 * np.linspace(0, 1, 1000, dtype=np.float32)},
                                                 {"out": 3 * np.linspace(0, 1, 4000, dtype=np.float32)}])
    assert np.allclose(np.load(os.path.join(made.folder, "sizes", "4000", "expected", "out.npy"))[-1], 3)


def test_the_tool_accepts_every_size_and_its_data(tmp_path, binary):
    made, _ = two_sizes(tmp_path)
    assert len(made.explore("sm_90")["candidates"]) == 4
    # tune checks every size's lengths and data files before it looks for a GPU: exit 3 (no GPU) or a
    # result, never 2.
    try:
        result = made.tune(counters="off")
        assert [r.size for r in result] == ["1000", "4000"]
    except cuda_tuner.TunerError as error:
        assert error.exit_code == 3, error
