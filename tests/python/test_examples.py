"""The examples of packaging/python/examples and docs/python.md: they need a GPU, PyTorch and CuPy to
run (the lead's H200 run: python packaging/python/examples/tune_axpy_bf16.py), so here they are
compiled, and the page's Python blocks parsed, so that neither rots unseen."""
import ast
import os
import py_compile
import re

from conftest import REPOSITORY


def test_the_example_scripts_compile(tmp_path):
    examples = os.path.join(REPOSITORY, "packaging", "python", "examples")
    scripts = [name for name in os.listdir(examples) if name.endswith(".py")]
    assert scripts
    for name in scripts:
        py_compile.compile(os.path.join(examples, name), cfile=str(tmp_path / (name + "c")), doraise=True)


def test_the_python_blocks_of_the_page_parse():
    with open(os.path.join(REPOSITORY, "docs", "python.md")) as f:
        page = f.read()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) >= 4
    for block in blocks:
        ast.parse(block)
