"""tune() running the tool: its failures as TunerError with its one-line message and exit code (the
no-GPU message among them), its progress passed through to stderr, and Ctrl-C forwarded once, the
sweep stopping cleanly with what it measured (a stand-in tool that behaves as `tuner tune` does)."""
import signal
import stat
import sys
import threading
import time

import numpy as np
import pytest

import cuda_tuner
from conftest import usable_gpus
from kernels import SCALE

N = 1000


def tune(**options):
    x = np.ones(N, np.float32)
    return cuda_tuner.tune(SCALE, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": N},
                           params={"BLOCK": [64, 128], "ITEMS": [1, 2]}, grid="cdiv(N, BLOCK * ITEMS)",
                           block="BLOCK", outputs="out", sizes={"N": N}, reference=lambda out, x, a, n: a * x,
                           **options)


def test_without_a_gpu_tune_raises_the_tools_no_gpu_message_and_exit_code(binary, capfd):
    count, _ = usable_gpus()
    if count:
        pytest.skip(f"this machine has {count} usable GPU(s): the no-GPU message cannot be seen here")
    with pytest.raises(cuda_tuner.TunerError) as raised:
        tune()
    assert raised.value.exit_code == 3
    message = str(raised.value)
    assert message.startswith("tuner tune: ") and "GPU" in message, message
    assert "\n" not in message
    assert message in capfd.readouterr().err  # the tool's stderr reached the caller's


def test_a_usage_error_of_the_tool_is_a_tuner_error_with_exit_code_2(binary):
    with pytest.raises(cuda_tuner.TunerError, match=r"^tuner tune: .*strategy.*") as raised:
        tune(strategy="fastest")
    assert raised.value.exit_code == 2


def test_the_command_names_the_template_folder_and_the_options(tmp_path):
    x = np.ones(N, np.float32)
    made = cuda_tuner.template(SCALE, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": N},
                               params={"BLOCK": [64]}, grid="cdiv(N, BLOCK)", block="BLOCK", outputs="out",
                               sizes={"N": N}, reference={"out": 2 * x}, folder=tmp_path / "t")
    command = made.command({"strategy": "random", "budget": 5, "seed": 1, "timing": "graph", "db": tmp_path / "x.db",
                            "force": True}, ["--counters", "off"])
    assert command[1:] == ["tune", "scale", "--templates", str(tmp_path / "t"), "--json", "--strategy", "random",
                           "--budget", "5", "--seed", "1", "--timing", "graph", "--db", str(tmp_path / "x.db"),
                           "--force", "--counters", "off"]


FAKE_TUNER = """\
#!{python}
# Behaves as `tuner tune --json` does on Ctrl-C: the first SIGINT stops the sweep after the candidate in
# flight, prints the document of what was measured and exits 130; it counts the SIGINTs it got.
import json, signal, sys, time
got = []
signal.signal(signal.SIGINT, lambda *_: got.append(1))
sys.stderr.write("tuner tune: 1/4  best 0.0100 ms\\n"); sys.stderr.flush()
while not got:
    time.sleep(0.01)
time.sleep(0.5)  # a second SIGINT would arrive meanwhile
print(json.dumps({{"kernel": "scale", "size": "1000", "interrupted": True, "sigints": len(got),
                  "best": {{"params": {{"BLOCK": 64, "ITEMS": 1}}, "time_ms": 0.01, "status": "ok"}},
                  "candidates": [{{"params": {{"BLOCK": 64, "ITEMS": 1}}, "time_ms": 0.01, "status": "ok"}}]}}))
sys.stderr.write("tuner tune: interrupted; 1 candidate(s) stored. Run the same command to resume.\\n")
sys.exit(130)
"""


@pytest.fixture
def fake_tuner(tmp_path, monkeypatch):
    path = tmp_path / "fake-tuner"
    path.write_text(FAKE_TUNER.format(python=sys.executable))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("TUNER_BINARY", str(path))
    return path


def test_ctrl_c_is_forwarded_once_and_the_result_so_far_is_kept(fake_tuner, capfd):
    main = threading.main_thread().ident

    def press_ctrl_c():
        time.sleep(0.5)
        signal.pthread_kill(main, signal.SIGINT)  # as the terminal's Ctrl-C reaches Python

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    with pytest.raises(cuda_tuner.Interrupted) as raised:
        tune()
    assert isinstance(raised.value, KeyboardInterrupt)
    result = raised.value.result
    assert result.interrupted and result.json["sigints"] == 1  # one SIGINT: the tool's clean stop
    assert result.params == {"BLOCK": 64, "ITEMS": 1} and result.time_ms == 0.01
    err = capfd.readouterr().err
    assert "tuner tune: 1/4  best 0.0100 ms" in err and "interrupted; 1 candidate(s) stored" in err


def test_the_result_holds_the_best_its_time_and_turns_into_a_dataframe():
    document = {"kernel": "scale", "size": "1000", "interrupted": False,
                "best": {"params": {"BLOCK": 64}, "time_ms": 0.5, "status": "ok",
                         "launch": {"grid": [16, 1, 1], "block": [64, 1, 1], "shared_bytes": 0}},
                "leaders": [{"params": {"BLOCK": 64}, "time_ms": 0.5}],
                "candidates": [{"params": {"BLOCK": 64}, "time_ms": 0.5, "status": "ok"},
                               {"params": {"BLOCK": 128}, "time_ms": None, "status": "wrong_result"}]}
    result = cuda_tuner.TuneResult(document)
    assert result.params == {"BLOCK": 64} and result.time_ms == 0.5
    assert result.grid == [16, 1, 1] and result.block == [64, 1, 1] and result.shared_bytes == 0
    assert len(result.leaders) == 1 and "BLOCK=64 0.5000 ms" in repr(result)
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match=r"needs pandas"):
            result.to_pandas()
        pytest.skip("pandas is not installed: to_pandas() says so (pip install pandas)")
    frame = result.to_pandas()
    assert list(frame["BLOCK"]) == [64, 128] and list(frame["status"]) == ["ok", "wrong_result"]


def test_best_of_nothing_stored_is_a_false_config_with_the_tools_note(binary, tmp_path):
    found = cuda_tuner.best("scale", size=(1000,), db=str(tmp_path / "empty.db"), device="H100")
    assert not found and found.status == "not_found" and found.note
    assert found.param("BLOCK", 128) == 128


def test_best_with_dispatch_asks_the_library_s_dispatch_of_this_gpu(binary, tmp_path):
    with pytest.raises(cuda_tuner.TunerError, match=r"^tuner query: --dispatch and --device") as raised:
        cuda_tuner.best("scale", size=(1000,), device="H100", dispatch=True)
    assert raised.value.exit_code == 2
    if usable_gpus()[0] == 0:
        with pytest.raises(cuda_tuner.TunerError, match=r"^tuner query: this command needs a CUDA GPU") as raised:
            cuda_tuner.best("scale", size=(1000,), dispatch=True)
        assert raised.value.exit_code == 3
