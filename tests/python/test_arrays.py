"""Arguments as Python passes them (cuda_tuner/_arrays.py): each array library's arrays and the
scalars, turned into an element type, a shape and the bits of a .npy data file; and what is refused,
naming the argument."""
import numpy as np
import pytest

from cuda_tuner._arrays import HOST, Argument, convert
from cuda_tuner._checks import _same_device

NUMPY_TYPES = [(np.float32, "float"), (np.float64, "double"), (np.float16, "half"), (np.int32, "int"),
               (np.uint32, "uint"), (np.int64, "int64"), (np.uint64, "uint64"), (np.int8, "int8"),
               (np.uint8, "uint8"), (np.int16, "int16"), (np.uint16, "uint16")]


@pytest.mark.parametrize("dtype,expected", NUMPY_TYPES)
def test_numpy_arrays_take_their_dtype_as_the_element_type(dtype, expected):
    a = (np.arange(12) % 7).astype(dtype).reshape(3, 4)
    arg = convert("x", a)
    assert arg.is_buffer and arg.type == expected and arg.shape == (3, 4) and arg.length == 12
    assert arg.device == HOST and arg.library == "numpy"
    assert arg.bits.tobytes() == a.tobytes()


def test_a_non_contiguous_array_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"argument 'x' is not contiguous"):
        convert("x", np.zeros((4, 4), np.float32)[:, 1])


def test_a_big_endian_array_is_refused():
    with pytest.raises(ValueError, match=r"argument 'x' is big-endian"):
        convert("x", np.zeros(4, ">f4"))


@pytest.mark.parametrize("value", [np.zeros(3, bool), np.zeros(3, np.complex64)])
def test_arrays_of_no_element_type_are_refused(value):
    with pytest.raises(TypeError, match=r"argument 'x': a NumPy array of .* has no element type"):
        convert("x", value)


def test_an_empty_array_is_refused():
    with pytest.raises(ValueError, match=r"argument 'x' is empty"):
        convert("x", np.zeros(0, np.float32))


def test_bfloat16_bits_in_a_uint16_array_are_declared_with_types():
    bits = np.array([0x3F80, 0xC000], np.uint16)  # 1.0, -2.0
    arg = convert("x", bits, "bfloat16")
    assert arg.type == "bfloat16" and arg.bits.tobytes() == bits.tobytes()


def test_raw_two_byte_records_are_declared_with_types():
    arg = convert("x", np.zeros(4, np.uint16).view("V2"), "half")
    assert arg.type == "half" and arg.bits.dtype == np.float16


def test_a_declared_type_must_fit_the_bits_and_not_reinterpret_floats():
    with pytest.raises(TypeError, match=r"'x': .* 4-byte elements, but types\['x'\] = 'bfloat16' has 2"):
        convert("x", np.zeros(4, np.float32), "bfloat16")
    with pytest.raises(TypeError, match=r"would reinterpret their bits"):
        convert("x", np.zeros(4, np.float32), "int")
    with pytest.raises(ValueError, match=r"types\['x'\] = 'float32' is no element type"):
        convert("x", np.zeros(4, np.float32), "float32")


def test_void_arrays_need_a_declared_type():
    with pytest.raises(TypeError, match=r"give one with types=\{'x': ...\}"):
        convert("x", np.zeros(4, np.uint16).view("V2"))


@pytest.mark.parametrize("value,kind,text", [(3, "int", "3"), (-7, "int", "-7"), (0.5, "float", "0.5"),
                                             (np.float64(0.25), "double", "0.25"), (np.int64(2**40), "int64",
                                                                                    str(2**40)),
                                             (np.uint8(200), "uint8", "200"), (np.float16(1.5), "half", "1.5")])
def test_scalars(value, kind, text):
    arg = convert("s", value)
    assert not arg.is_buffer and arg.type == kind and arg.value_text == text


def test_scalars_are_checked_against_their_type():
    with pytest.raises(ValueError, match=r"argument 'n' = 4294967296 does not fit its type int .*numpy.int64"):
        convert("n", 2**32)
    with pytest.raises(ValueError, match=r"argument 'n' = 1.5 is not a whole number"):
        convert("n", 1.5, "int")
    with pytest.raises(ValueError, match=r"argument 'a' = nan: a scalar must be a finite number"):
        convert("a", float("nan"))
    with pytest.raises(TypeError, match=r"argument 'flag' is a bool"):
        convert("flag", True)
    with pytest.raises(TypeError, match=r"argument 'x' is a str"):
        convert("x", "1.0")
    assert convert("a", 0.5, "bfloat16").type == "bfloat16"


class HostDLPack:
    """Only __dlpack__ and __dlpack_device__, as a host array of another library has."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


@pytest.mark.skipif(not hasattr(np, "from_dlpack"), reason="this NumPy has no from_dlpack (1.22 or newer has)")
def test_a_host_dlpack_object_is_read_through_numpy():
    a = np.arange(6, dtype=np.float32)
    arg = convert("x", HostDLPack(a))
    assert arg.library == "dlpack" and arg.type == "float" and arg.device == HOST
    assert arg.bits.tobytes() == a.tobytes()


class DeviceInterface:
    """A device array known only by __cuda_array_interface__ (Numba's, JAX's)."""

    def __init__(self, strides=None):
        self.__cuda_array_interface__ = {"shape": (4, 4), "typestr": "<f4", "data": (0, False), "version": 3,
                                         "strides": strides}


def _missing(*modules):
    for module in modules:
        try:
            __import__(module)
            return False
        except ImportError:
            pass
    return True


@pytest.mark.skipif(not _missing("cupy", "torch"), reason="CuPy or PyTorch is installed: it would copy the array")
def test_a_cuda_array_interface_needs_cupy_or_torch_to_be_copied():
    with pytest.raises(TypeError, match=r"argument 'x' \(DeviceInterface\) .*install CuPy or PyTorch"):
        convert("x", DeviceInterface())


def test_a_strided_cuda_array_interface_is_refused():
    with pytest.raises(ValueError, match=r"argument 'x' is not contiguous"):
        convert("x", DeviceInterface(strides=(4, 16)))


def _buffer(name, device):
    arg = Argument(name, np.zeros(1, np.float32))
    arg.is_buffer, arg.device, arg.shape = True, device, (1,)
    return arg


def test_a_host_array_beside_device_arrays_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"argument 'b' is in host memory .* while 'a' is on cuda:0: the kernel "
                                         r"reads device memory"):
        _same_device([_buffer("a", "cuda:0"), _buffer("b", HOST)])


def test_arrays_on_two_gpus_are_refused():
    with pytest.raises(ValueError, match=r"several GPUs \(cuda:0, cuda:1\)"):
        _same_device([_buffer("a", "cuda:0"), _buffer("b", "cuda:1")])
    _same_device([_buffer("a", HOST), _buffer("b", HOST)])  # all on the host: fine


# PyTorch and CuPy on the CPU side: where their wheels are installed.

def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    arg = convert("x", t)
    assert arg.library == "torch" and arg.type == "float" and arg.shape == (2, 3) and arg.device == HOST
    assert arg.bits.tobytes() == t.numpy().tobytes()
    b = torch.tensor([1.0, -2.0, 0.5], dtype=torch.bfloat16)
    arg = convert("b", b)
    assert arg.type == "bfloat16" and arg.bits.dtype == np.uint16
    assert arg.bits.tolist() == b.view(torch.int16).numpy().astype(np.uint16).tolist() == [0x3F80, 0xC000, 0x3F00]
    assert convert("h", torch.zeros(2, dtype=torch.float16)).type == "half"
    assert convert("i", torch.zeros(2, dtype=torch.int64)).type == "int64"
    if hasattr(torch, "float8_e4m3fn"):
        assert convert("f", torch.zeros(2, dtype=torch.float8_e4m3fn)).type == "fp8_e4m3"
    with pytest.raises(ValueError, match=r"argument 'x' is not contiguous"):
        convert("x", torch.zeros(4, 4).t())
    with pytest.raises(TypeError, match=r"argument 'x': a PyTorch tensor of torch.bool has no element type"):
        convert("x", torch.zeros(3, dtype=torch.bool))

# CuPy arrays exist only on a GPU: their conversion is tested by test_gpu.py.
