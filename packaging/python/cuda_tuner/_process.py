"""Running the tool: its progress passed through to the caller's stderr as it comes, its stdout kept,
Ctrl-C forwarded to it as the tool expects (the first stops the sweep after the candidate in flight,
with what was measured stored; a second stops at once)."""
import codecs
import os
import signal
import subprocess
import sys
import threading
from typing import List, Optional, TextIO


class TunerError(RuntimeError):
    """The tool refused or failed; `exit_code` is its exit code (README, "Commands": 1 the work failed,
    2 bad usage or input, 3 no usable GPU or driver, 4 a bad database, 130 interrupted) and `stderr`
    all it said there."""

    def __init__(self, message: str, exit_code: int, stderr: str = ""):
        super().__init__(message)
        self.exit_code = exit_code
        self.stderr = stderr


class Completed:
    def __init__(self, command: List[str], exit_code: int, stdout: str, stderr: str, interrupts: int):
        self.command = command
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr
        self.interrupts = interrupts  # how many Ctrl-C the caller pressed while it ran

    def error(self) -> TunerError:
        """The tool's last line on stderr (its one-line message, "tuner tune: ...") and exit code."""
        lines = [line.strip() for line in self.stderr.replace("\r", "\n").split("\n") if line.strip()]
        message = lines[-1] if lines else f"{os.path.basename(self.command[0])} exited with {self.exit_code}"
        return TunerError(message, self.exit_code, self.stderr)


def _pump(stream, sink: List[str], echo: Optional[TextIO]) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    fd = stream.fileno()
    while True:
        chunk = os.read(fd, 65536)
        text = decoder.decode(chunk, final=not chunk)
        if text:
            sink.append(text)
            if echo is not None:
                echo.write(text)
                echo.flush()
        if not chunk:
            return


def run(command: List[str], echo: Optional[TextIO] = None, env: Optional[dict] = None) -> Completed:
    """Runs the tool to its end; `echo` (sys.stderr by default) receives its stderr as it comes.

    The tool runs in a process group of its own, so a Ctrl-C at the terminal reaches Python alone,
    which forwards exactly one SIGINT per Ctrl-C: the tool's first stops the sweep cleanly."""
    echo = sys.stderr if echo is None else echo
    group = {"process_group": 0} if sys.version_info >= (3, 11) else {"preexec_fn": os.setpgrp}
    try:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env=env, **group)
    except OSError as error:
        raise TunerError(f"cannot run {command[0]}: {error.strerror} (set TUNER_BINARY to a tuner executable, "
                         f"or install the cuda-tuner wheel)", 127) from None
    out: List[str] = []
    err: List[str] = []
    threads = [threading.Thread(target=_pump, args=(child.stdout, out, None), daemon=True),
               threading.Thread(target=_pump, args=(child.stderr, err, echo), daemon=True)]
    for thread in threads:
        thread.start()
    interrupts = 0
    while True:
        try:
            child.wait()
            break
        except KeyboardInterrupt:
            interrupts += 1
            if child.poll() is None:
                child.send_signal(signal.SIGINT)
    for thread in threads:
        thread.join()
    child.stdout.close()
    child.stderr.close()
    return Completed(command, child.returncode, "".join(out), "".join(err), interrupts)
