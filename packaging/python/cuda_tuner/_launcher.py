"""The `tuner` command of the wheel: replaces itself with the binary installed in this package."""
import os
import sys


def installed_binary() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "tuner")


def binary() -> str:
    """The `tuner` executable the Python functions drive: $TUNER_BINARY when set (a build's
    build/bin/tuner, as the tests use), else the one installed inside this package."""
    return os.environ.get("TUNER_BINARY") or installed_binary()


def main() -> None:
    tool = installed_binary()
    os.execv(tool, [tool] + sys.argv[1:])
