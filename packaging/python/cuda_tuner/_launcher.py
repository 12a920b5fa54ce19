"""The `tuner` command of the wheel: replaces itself with the binary installed in this package."""
import os
import sys


def binary() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "tuner")


def main() -> None:
    tool = binary()
    os.execv(tool, [tool] + sys.argv[1:])
