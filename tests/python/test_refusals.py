"""Every refusal of tune(): a bad argument is a TypeError or ValueError naming it, raised before the
tool runs (TUNER_BINARY names no file here, so a run would be a TunerError instead); what only the
tool can judge (a Python construct its translation does not take) is a ValueError with its message."""
import numpy as np
import pytest

import cuda_tuner
from kernels import SCALE

N = 1000


@pytest.fixture
def no_tool(monkeypatch, tmp_path):
    monkeypatch.setenv("TUNER_BINARY", str(tmp_path / "no-such-tuner"))


def tune(**changes):
    x = np.ones(N, np.float32)
    arguments = dict(source=SCALE, kernel="scale", args={"out": np.empty_like(x), "x": x, "a": 2.0, "n": N},
                     params={"BLOCK": [64, 128], "ITEMS": [1, 2]}, grid="cdiv(N, BLOCK * ITEMS)", block="BLOCK",
                     outputs="out", sizes={"N": N}, reference=lambda out, x, a, n: a * x)
    arguments.update(changes)
    return cuda_tuner.tune(arguments.pop("source"), arguments.pop("kernel"), arguments.pop("args"), **arguments)


REFUSALS = [
    # The arguments.
    (dict(args=[1, 2]), TypeError, r"args is a dict of the kernel's arguments"),
    (dict(args={"out": np.zeros(N, np.float32), "x": np.zeros((4, 4), np.float32)[:, 0], "a": 1.0, "n": N}),
     ValueError, r"argument 'x' is not contiguous"),
    (dict(args={"out": np.zeros(N, np.float32), "x": np.zeros(N, bool), "a": 1.0, "n": N}), TypeError,
     r"argument 'x': a NumPy array of bool has no element type"),
    (dict(args={"out": np.zeros(N, np.float32), "x": np.zeros(N, np.float32), "a": 1.0, "n": 2**31}), ValueError,
     r"argument 'n' = 2147483648 does not fit its type int"),
    (dict(args={"out": np.zeros(N, np.float32), "x": [1.0] * N, "a": 1.0, "n": N}), TypeError,
     r"argument 'x' is a list"),
    (dict(args={"out": np.zeros(N, np.float32), "1x": np.zeros(N, np.float32), "a": 1.0, "n": N}), ValueError,
     r"argument '1x' is not a name"),
    (dict(types={"y": "float"}), ValueError, r"types names 'y', which is no argument"),
    # Outputs.
    (dict(outputs="a"), ValueError, r"outputs names 'a', which is a scalar; the buffers are out, x"),
    (dict(outputs="y"), ValueError, r"outputs names 'y', which is no argument"),
    (dict(outputs=[]), ValueError, r"outputs names no argument"),
    # Parameters, sizes, constraints and expressions.
    (dict(params={}), TypeError, r"params is a dict of each tuning parameter's values"),
    (dict(params={"BLOCK": []}), ValueError, r"params\['BLOCK'\] has no values"),
    (dict(params={"BLOCK": [64, 64]}), ValueError, r"params\['BLOCK'\] lists a value twice"),
    (dict(params={"BLOCK": [64.5]}), TypeError, r"params\['BLOCK'\] holds 64.5; a parameter's values are whole"),
    (dict(params={"BLOCK": 64}), TypeError, r"params\['BLOCK'\] is a int; give its values"),
    (dict(params={"N": [1]}), ValueError, r"parameter 'N' is also a size"),
    (dict(sizes={"N": 0}), ValueError, r"sizes\['N'\] = 0: a size is a positive whole number"),
    (dict(constraints=["BLOCK * ITEM <= 256"]), ValueError,
     r"constraints\[0\] 'BLOCK \* ITEM <= 256': 'ITEM' is no tuning parameter or size .*did you mean 'ITEMS'\?"),
    (dict(constraints=["BLOCK <= 256 &&"]), ValueError, r"constraints\[0\] .* is not a Python expression"),
    (dict(constraints=[256]), TypeError, r"constraints\[0\] is a int; a constraint is a Python expression"),
    (dict(grid="cdiv(M, BLOCK)"), ValueError, r"grid\[0\]: 'M' is no tuning parameter or size"),
    (dict(block=["BLOCK", 1, 1, 1]), ValueError, r"block has 4 dimensions"),
    (dict(shared_bytes="BLOCK * 4 * ITEMZ"), ValueError, r"shared_bytes: 'ITEMZ' is no tuning parameter or size"),
    (dict(atol="1e-6 * BLOCK"), ValueError, r"atol: 'BLOCK' is no tuning parameter or size"),
    (dict(name="my-kernel"), ValueError, r"name 'my-kernel' is not a name"),
    (dict(source="no_such_file.cu"), ValueError, r"source 'no_such_file.cu' is no file"),
    (dict(kernel=""), TypeError, r"kernel is the kernel's name as C\+\+ writes it"),
    # The reference.
    (dict(reference=None), TypeError, r"reference is required"),
    (dict(reference=3), TypeError, r"reference is a int"),
    (dict(reference={"out": np.ones(N + 1, np.float32)}), ValueError,
     r"the expected array for output 'out' has shape \(1001,\); the output 'out' has shape \(1000,\)"),
    (dict(reference={"x": np.ones(N, np.float32)}), ValueError, r"expected arrays are needed for every output"),
    (dict(args={"out": np.zeros(N, np.uint16), "x": np.zeros(N, np.float32), "a": 1.0, "n": N},
          types={"out": "bfloat16"}, reference={"out": np.ones(N, np.float32)}), TypeError,
     r"the expected array for output 'out' is float; the output is bfloat16"),
    (dict(reference=lambda out, x, a, n: np.ones((10, 100), np.float32)), ValueError,
     r"the reference's result for output 'out' has shape \(10, 100\)"),
    (dict(reference=lambda out, x, a, n: (x, x)), ValueError, r"the reference returned 2 arrays; there are 1"),
    (dict(reference=lambda out, x, a, n: 1.0), TypeError, r"the reference's result for output 'out' is a float"),
    (dict(reference=lambda out, x, a, n: x / 0), ValueError, r"output 'out' is NaN or infinite at element 0"),
]


@pytest.mark.parametrize("changes,error,message", REFUSALS, ids=[m[:40] for _, _, m in REFUSALS])
def test_a_bad_argument_is_refused_naming_it_before_anything_runs(no_tool, changes, error, message):
    with np.errstate(divide="ignore", invalid="ignore"):
        with pytest.raises(error, match=message):
            tune(**changes)


def test_the_reference_runs_on_copies(no_tool):
    x = np.ones(N, np.float32)

    def reference(out, x, a, n):
        x *= 3  # in place, on its copy
        out[:] = x
    made = cuda_tuner.template(SCALE, "scale", {"out": np.zeros(N, np.float32), "x": x, "a": 2.0, "n": N},
                               params={"BLOCK": [64]}, grid="cdiv(N, BLOCK)", block="BLOCK", outputs="out",
                               sizes={"N": N}, reference=reference, constraints=())
    try:
        assert np.all(x == 1)
        assert np.all(np.load(made.folder + "/expected/out.npy") == 3)
        assert np.all(np.load(made.folder + "/data/x.npy") == 1)  # the data are the caller's
    finally:
        made.remove()


def test_a_construct_the_tool_does_not_translate_is_a_value_error_with_its_message(binary):
    with pytest.raises(ValueError, match=r"^constraints\[1\]: 'BLOCK & 64': the bitwise operator '&' has no "
                                         r"counterpart in the template syntax"):
        tune(constraints=["BLOCK <= 128", "BLOCK & 64"])
    with pytest.raises(ValueError, match=r"^params\['ITEMS'\]: .*"):
        tune(params={"BLOCK": [64], "ITEMS": "[i for i in rnge(3)]"})


def test_without_the_tool_a_run_is_a_tuner_error(no_tool):
    with pytest.raises(cuda_tuner.TunerError, match=r"cannot run .*no-such-tuner.*TUNER_BINARY") as raised:
        tune()
    assert raised.value.exit_code == 127


def two_sizes(**changes):
    arguments = dict(sizes=[{"N": 1000}, {"N": 2000}],
                     args=[{"out": np.zeros(n, np.float32), "x": np.ones(n, np.float32), "a": 2.0, "n": n}
                           for n in (1000, 2000)])
    arguments.update(changes)
    return tune(**arguments)


SEVERAL_SIZES = [
    (dict(sizes=[]), ValueError, r"sizes is an empty list"),
    (dict(sizes=[{"N": 1000}, {"M": 2000}]), ValueError, r"sizes: \['M'\] are not the variables of the first size"),
    (dict(sizes=[{"N": 1000}, {"N": 1000}]), ValueError, r"sizes lists \{'N': 1000\} twice"),
    (dict(args=[{"out": np.zeros(1000, np.float32), "x": np.ones(1000, np.float32), "a": 2.0, "n": 1000}]),
     ValueError, r"args: with 2 sizes give a list of 2, one per size"),
    (dict(args=[{"out": np.zeros(n, np.float32), "x": np.ones(n, t), "a": 2.0, "n": n}
                for n, t in ((1000, np.float32), (2000, np.float64))]),
     ValueError, r"the arguments at size \{'N': 2000\} are .*'double'.*at the first size they are"),
    (dict(reference={"out": np.ones(1000, np.float32)}), TypeError, r"with several sizes give a list of expected"),
    (dict(reference=[{"out": np.ones(1000, np.float32)}]), ValueError, r"reference: with 2 sizes give a list of 2"),
]


@pytest.mark.parametrize("changes,error,message", SEVERAL_SIZES, ids=[m[:40] for _, _, m in SEVERAL_SIZES])
def test_several_sizes_are_refused_naming_what_differs(no_tool, changes, error, message):
    with pytest.raises(error, match=message):
        two_sizes(**changes)


def test_constraints_no_configuration_satisfies_are_refused(binary):
    with pytest.raises(ValueError, match=r"^constraints: no configuration satisfies every constraint"):
        tune(constraints=["BLOCK > N"])
    # At one of several sizes is enough to be a space.
    made = cuda_tuner.template(SCALE, "scale", [{"out": np.zeros(n, np.float32), "x": np.ones(n, np.float32),
                                                  "a": 2.0, "n": n} for n in (100, 1000)],
                               params={"BLOCK": [64, 128], "ITEMS": [1]}, grid="cdiv(N, BLOCK)", block="BLOCK",
                               outputs="out", sizes=[{"N": 100}, {"N": 1000}], reference=lambda out, x, a, n: a * x,
                               constraints=["BLOCK > N"])
    made.remove()
