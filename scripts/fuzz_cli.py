#!/usr/bin/env python3
"""Fuzzes what a user can hand the tuner: mutated template descriptions, option lists and imports.

Each case writes one mutated copy of a shipped description (kernel_templates/*.toml: keys dropped,
duplicated, retyped or misspelt, odd and huge values, markup, unicode, truncation) into a fresh
folder, or mutates the options of a valid command line, or mutates a file someone else publishes
(a T1 description with odd Python-like values and conditions for its evaluator, a Kernel Tuner
cache, a T4 file: deep nesting, huge strings and numbers, truncation, gzip), then runs
build/bin/tuner on it (`kernels`, `explore --arch sm_90 --json` on small spaces, `occupancy ...`,
refused options of `tune`, `query`, `report` and `simulate`, `import t1`, `import
kernel-tuner-cache|t4` into a database of the case's own) with HOME, XDG_DATA_HOME, TUNER_DB and
the working folder all fresh and empty, and checks:

  - it ends by itself within its time limit (30 s, or 660 s where NVRTC compiles: the compile pool
    gives a candidate 300 s), never by a signal; cases over 60 s are listed as slow;
  - its exit code is 0 or 2 (3 only where a GPU was asked for; exactly 2 for an option value that is
    refused by definition), never 1 for bad input;
  - with --json and exit 0, stdout is one JSON document;
  - with exit 2, stderr has one message line (warnings about other templates aside);
  - nothing is written where it should not be: the template folder keeps its bytes, the working
    folder, HOME, the data folder and TMPDIR stay empty (no database, no staging folder left); the
    cache may grow;
  - with exit 2, the message quotes little of the input (under 2,000 bytes).

Short deterministic run (CTest):  scripts/fuzz_cli.py --seed 1 --cases 100
Long run on demand:               scripts/fuzz_cli.py --minutes 30 [--keep failures/]
Python 3 standard library only. Exit status 1 when a case failed, with each failure described.
"""

import argparse
import gzip
import json
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
SLOW_S = 60
SHIPPED = REPO / "kernel_templates"
FIXTURES = REPO / "tests" / "fixtures"

ODD_NUMBERS = ["0", "-1", "1.5", "1e308", "9223372036854775807", "9223372036854775808",
               "18446744073709551616", "-9223372036854775808", "nan", "inf", "-inf", "0x10", "1_000"]
ODD_STRINGS = ['""', '" "', '"<script>alert(1)</script>"', '"$(touch pwned)"', '"`id`"', '"../../x"',
               '"caf\u00e9 \u202eevil"', '"\U0001F680"', '"a\\nb"', '"a\\u0000b"', '"' + "x" * 5000 + '"',
               '"&amp;<b>\'"', '"W * H"', '"W / 0"', '"TILE % 0"', '"sin(W)"', '"(("', '"-W"', '"W / 3"',
               '"nosuch + 1"', '"1e300 * 1e300"', '"W * H * W * H * W * H"', '"cdiv(W, 0)"']
ODD_VALUES = ODD_NUMBERS + ODD_STRINGS + ["true", "[]", "[1, \"a\"]", "{}", "[[1]]", "{ a = 1 }",
                                         "[0]", "[-1]", "[9223372036854775807]", "[1, 1]", "[1.5]",
                                         '["a"]', "[" + ", ".join(str(v) for v in range(200)) + "]"]
# Numbers that keep a description valid TOML but make odd configurations.
ODD_SMALL_NUMBERS = [0, 1, 3, 7, 17, 33, 255, 256, 1023, 1025, 2048, 4096, 65535, 65536, 49153, 1 << 31, 1 << 53]
INSERTIONS = ["[[param]]\nname = \"X\"\nvalues = [1]", "[[param]]\nname = \"int\"\nvalues = [1]",
              "[[size]]\nname = \"W\"\ndefault = 1", "[weird]\nkey = 1", "constraintS = [\"X > 1\"]",
              "[[arg]]\nname = \"extra\"\ntype = \"float\"\nlength = \"-W\"", "\ufeff", "\x00", "[launch]"]

# Valid command lines to mutate; DIR is the case's template folder, which holds fz_small.
BASE_LINES = [
    ["kernels", "--json"],
    ["kernels", "transpose"],
    ["explore", "fz_small", "--arch", "sm_90", "--size", "4096x4096", "--json", "--templates", "{DIR}"],
    ["occupancy", "--arch", "sm_90", "--threads", "256", "--regs", "32", "--smem", "4096", "--json"],
    ["occupancy", "--arch", "sm_86", "--threads-per-sm", "1536", "--smem-per-sm", "16K", "--reserved-smem", "0",
     "--threads", "1024", "--regs", "32", "--smem", "8K"],
    ["occupancy", "--arch", "sm_90", "--threads", "256", "--regs", "48", "--vary", "regs", "--json"],
    ["occupancy", "--kernel", "transpose", "--arch", "sm_90", "--param", "TILE=32", "--json"],
]
ODD_OPTION_VALUES = ODD_NUMBERS + ["", " ", "-", "--json", "256K", "1K", "sm_90a", "SM_90", "compute_90", "9.0",
                                   "sm_80a", "sm_121f", "<b>", "$(id)", "caf\u00e9", "a\nb", "x" * 3000,
                                   "8192x", "0x0", "1x2x3x4", "9007199254740993", "TILE=17", "TILE=", "=1",
                                   "VARIANT=tiled", "threads", "regs", "smem", "all", "0,0", "-1,0"]
EXTRA_OPTIONS = ["--bogus", "--json", "--gpu", "--arch", "--size", "--param", "--kernel", "--templates", "--db",
                 "--threads", "--regs", "--list-archs", "--svg", "--vary", "--shard", "-h"]

# Options refused by definition, so the command must exit 2 before any GPU or database is touched.
REFUSED = {
    "tune": [["--budget", "-1"], ["--budget-seconds", "-1"], ["--budget-seconds", "nan"], ["--budget-seconds", "inf"],
             ["--timeout-floor", "0"], ["--timeout-floor", "-5"], ["--seed", "-1"], ["--gpu", "-1"],
             ["--gpus", "-1"], ["--gpus", ""], ["--size", ""], ["--size", "0"], ["--size", "9223372036854775807"],
             ["--strategy", "bogus"], ["--gpu", "0", "--gpus", "0"], ["--budget", "1e3"], ["--shard", "0/2"],
             ["--shard", "3/2"], ["--shard", ""], ["--shard", "1/2", "--strategy", "genetic"]],
    "query": [["--gpu", "-1"], ["--size", ""], ["--size", "8x"], ["--gpu", "0", "--device", "H100"]],
    "simulate": [["--runs", "0"], ["--seed", "-1"], ["--budget", "-1"], ["--size", ""], ["--strategy", "bogus"]],
    "report": [["--size", ""], ["--format", "pdf"], ["-o", "/no/such/folder/r.html"]],
}


def shrink_spaces(rng, lines):
    """Keeps the first value of every parameter (and label), two of at most two parameters: at most
    four candidates, so that explore compiles little."""
    values = [i for i, line in enumerate(lines) if line.split("=", 1)[0].strip() == "values"]
    wider = set(rng.sample(values, min(2, len(values))))
    out, keep = [], 1
    for i, line in enumerate(lines):
        key = line.split("=", 1)[0].strip()
        if key == "values":
            keep = 2 if i in wider else 1
        if key in ("values", "labels") and "[" in line and "]" in line:
            items = line[line.index("[") + 1:line.rindex("]")].split(",")
            line = line[:line.index("[")] + "[" + ",".join(items[:keep]) + "]" + line[line.rindex("]") + 1:]
        out.append(line)
    return out


def rename(lines, name, source):
    """A new name, so that the copy never shadows the shipped template, and its source named."""
    out = [f'name = "{name}"' if line.startswith("name =") and i < 3 else line for i, line in enumerate(lines)]
    if not any(line.startswith("source =") for line in out):
        out.insert(1, f'source = "{source}"')
    return out


def key_lines(lines):
    return [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]


def mutate_description(rng, lines):
    """One to three mutations of a description's lines; returns the lines and what was done."""
    done = []
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        kind = rng.choice(["renumber", "renumber", "drop", "duplicate", "misspell", "retype", "insert", "truncate",
                           "crlf"])
        keyed = key_lines(lines)
        numbered = [i for i in keyed if re.search(r"\d", lines[i].split("#")[0].split("=", 1)[1])]
        if kind == "renumber" and numbered:
            i = rng.choice(numbered)
            key, value = lines[i].split("=", 1)
            numbers = list(re.finditer(r"\d+", value))
            hit = rng.choice(numbers)
            value = value[:hit.start()] + str(rng.choice(ODD_SMALL_NUMBERS)) + value[hit.end():]
            lines[i] = key + "=" + value
            done.append(f"renumbered line {i + 1}: {lines[i][:80]!r}")
        elif kind == "drop" and lines:
            i = rng.randrange(len(lines))
            done.append(f"dropped line {i + 1}: {lines[i]!r}")
            del lines[i]
        elif kind == "duplicate" and lines:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            done.append(f"duplicated line {i + 1}")
        elif kind == "misspell" and keyed:
            i = rng.choice(keyed)
            key, rest = lines[i].split("=", 1)
            key = key.strip()
            variants = [key + "s", key[:-1], key.upper(), key[::-1], key.replace("_", ""), key + "_", "\u00e9" + key]
            lines[i] = rng.choice(variants) + " =" + rest
            done.append(f"misspelt line {i + 1}: {lines[i][:60]!r}")
        elif kind == "retype" and keyed:
            i = rng.choice(keyed)
            lines[i] = lines[i].split("=", 1)[0] + "= " + rng.choice(ODD_VALUES)
            done.append(f"retyped line {i + 1}: {lines[i][:80]!r}")
        elif kind == "insert":
            i = rng.randrange(len(lines) + 1)
            lines[i:i] = rng.choice(INSERTIONS).split("\n")
            done.append(f"inserted at line {i + 1}")
        elif kind == "truncate":
            text = "\n".join(lines)
            cut = rng.randrange(len(text) + 1)
            lines = text[:cut].split("\n")
            done.append(f"truncated at byte {cut}")
        elif kind == "crlf":
            lines = [line + "\r" for line in lines]
            done.append("CRLF line ends")
    return lines, done


def mutate_options(rng, args):
    args = list(args)
    kind = rng.choice(["value", "value", "drop", "duplicate", "extra", "swap", "positional"])
    values = [i for i in range(1, len(args)) if not args[i].startswith("-") and args[i - 1].startswith("--")]
    if kind == "value" and values:
        args[rng.choice(values)] = rng.choice(ODD_OPTION_VALUES)
    elif kind == "drop" and len(args) > 1:
        del args[rng.randrange(1, len(args))]
    elif kind == "duplicate" and len(args) > 2:
        i = rng.randrange(1, len(args) - 1)
        args += args[i:i + 2]
    elif kind == "extra":
        args.insert(rng.randrange(1, len(args) + 1), rng.choice(EXTRA_OPTIONS))
        if rng.random() < 0.6:
            args.insert(rng.randrange(1, len(args) + 1), rng.choice(ODD_OPTION_VALUES))
    elif kind == "swap" and len(args) > 2:
        i, j = rng.randrange(1, len(args)), rng.randrange(1, len(args))
        args[i], args[j] = args[j], args[i]
    else:
        args.insert(1, rng.choice(ODD_OPTION_VALUES))
    return args


class Case:
    def __init__(self, number, args, allowed, note, files=None):
        self.number, self.args, self.allowed, self.note, self.files = number, args, allowed, note, files or {}


def template_case(rng, number, shipped):
    path = rng.choice(shipped)
    original = path.read_text().split("\n")
    name = "fz_" + path.stem
    source = next((line.split('"')[1] for line in original if line.startswith("source =")), path.stem + ".cu")
    lines = rename(shrink_spaces(rng, original), name, source)
    lines, done = mutate_description(rng, lines)
    size = rng.choice([[], [], ["--size", "64"], ["--size", "1x1x1"], ["--size", "9007199254740992"]])
    command = rng.choice([["kernels", "--json"], ["kernels", name],
                          ["explore", name, "--arch", "sm_90", "--json"] + size, ["explore", name, "--arch", "sm_90"],
                          ["occupancy", "--kernel", name, "--arch", "sm_90", "--json"] + size])
    note = f"{path.name} as {name}.toml: " + "; ".join(done)
    return Case(number, command + ["--templates", "{DIR}"], {0, 2}, note, {name + ".toml": "\n".join(lines)})


def small_template(rng):
    """transpose with at most four candidates, as fz_small."""
    lines = (SHIPPED / "transpose.toml").read_text().split("\n")
    return {"fz_small.toml": "\n".join(rename(shrink_spaces(rng, lines), "fz_small", "transpose.cu"))}


def options_case(rng, number):
    if rng.random() < 0.3:
        command = rng.choice(sorted(REFUSED))
        refused = rng.choice(REFUSED[command])
        args = [command] + (["transpose"] if command != "report" else []) + refused + ["--db", "{DATA}/t.db"]
        return Case(number, args, {2}, "refused by definition: " + " ".join(refused))
    args = mutate_options(rng, rng.choice(BASE_LINES))
    allowed = {0, 2}
    if "--gpu" in args or (args[0] == "occupancy" and "--arch" not in args):
        allowed.add(3)  # a GPU was asked for; without one that is exit 3
    return Case(number, args, allowed, "mutated options", small_template(rng))


# Python-like values and conditions that once crashed, hung or misled T1's evaluator, and their kin.
ODD_PYTHON = ["[x for x in range(100000) if x < max(range(100000))]", "[1__0]", "[10_]", "[010]", "[0x_f]",
              "list(range(10**9))", "[2**i for i in range(10000)]", "2**10000", "[" * 3000 + "]" * 3000,
              "(" * 3000 + "1" + ")" * 3000, " and ".join(["block_size_x > 0"] * 5000), "[1e400]", "[1e308*10]",
              "max(range(0))", "[i for i in range(100000) if i in [k for k in range(100000)]]", "[" + "1," * 200000 + "]",
              "block_size_x // 0 == 1", "block_size_x in range(10**8)", "[x for x in [1, 2] for y in [3]]",
              "[True, False]", "[-0]", "[1.0, 2.0]", "[1, 2] + (3,)", "tile_size ** -1 > 0", "'a'", "lambda: 1",
              "[" + "9" * 5000 + "]", "x" * 100000, "block_size_x * tile_size <= 2048 and block_size_x <= 1024"]
# Values for a results file's fields: deep, long, out of range, of another type.
ODD_JSON = [None, True, -1, 1e308, "x" * 100000, "NVIDIA " + "G" * 5000, [], {}, [[[[[]]]]], "CompilationFailedConfig",
            "2023-12-22 09:54:05+00:00", "nan"]
RAW_JSON = ["[" * 100000 + "]" * 100000, "1e400", "-1e400", "1" * 400, '"' + "\\u0000" * 1000 + '"', "NaN", "Infinity"]


def mutate_json(rng, value, depth=0):
    """One value somewhere in a parsed document replaced by an odd one; returns a description."""
    if isinstance(value, dict) and value and (depth < 2 or rng.random() < 0.7):
        key = rng.choice(list(value))
        if rng.random() < 0.8 and isinstance(value[key], (dict, list)) and value[key]:
            return mutate_json(rng, value[key], depth + 1)
        value[key] = rng.choice(ODD_JSON)
        return f"field {key!r} replaced"
    if isinstance(value, list) and value:
        i = rng.randrange(len(value))
        if isinstance(value[i], (dict, list)) and value[i] and rng.random() < 0.8:
            return mutate_json(rng, value[i], depth + 1)
        value[i] = rng.choice(ODD_JSON)
        return f"item {i} replaced"
    return "unchanged"


def mutate_text(rng, text):
    """Text-level damage to a JSON document: raw odd values, truncation, a trailing comma, blanks."""
    kind = rng.choice(["raw", "raw", "truncate", "comma", "spaces", "entries"])
    if kind == "raw":
        at = [m.end() for m in re.finditer(r": ", text)]
        i = rng.choice(at) if at else 0
        end = re.search(r"[,}\]]", text[i:])
        stop = i + end.start() if end else len(text)
        return text[:i] + rng.choice(RAW_JSON) + text[stop:], "a raw odd value"
    if kind == "truncate":
        cut = rng.randrange(len(text) + 1)
        return text[:cut], f"truncated at byte {cut}"
    if kind == "comma":
        return text.rstrip().rstrip("}").rstrip() + ",", "ends after a comma"
    if kind == "spaces":
        return " " * rng.choice([1000, 1 << 20]) + text + rng.choice(["", "bad"]), "blanks around it"
    lines = text.split("\n")
    entries = [line for line in lines if line.startswith('"') and "{" in line]
    if entries:
        extra = [rng.choice(entries)] * rng.choice([2, 1000, 50000])
        i = lines.index(entries[0])
        lines[i:i] = extra
    return "\n".join(lines), "entries repeated"


def import_case(rng, number):
    """A mutated T1 description, Kernel Tuner cache or T4 file, imported."""
    kind = rng.choice(["t1", "t1", "kernel-tuner-cache", "t4"])
    if kind == "t1":
        doc = json.loads((FIXTURES / "t1" / "vector_add.json").read_text())
        if rng.random() < 0.6:
            target = rng.choice([("ConfigurationSpace", "TuningParameters", rng.randrange(2), "Values"),
                                 ("ConfigurationSpace", "Conditions", 0, "Expression")])
            holder = doc
            for step in target[:-1]:
                holder = holder[step]
            holder[target[-1]] = rng.choice(ODD_PYTHON)
            note = "T1 " + ".".join(str(t) for t in target) + " = " + repr(holder[target[-1]])[:80]
            text = json.dumps(doc)
        else:
            note = "T1 " + mutate_json(rng, doc)
            text, done = mutate_text(rng, json.dumps(doc, indent=1)) if rng.random() < 0.5 else (json.dumps(doc), "")
            note += "; " + done
        files = {"in.json": text, "vector_add.cu": (FIXTURES / "t1" / "vector_add.cu").read_text()}
        return Case(number, ["import", "t1", "{DIR}/in.json", "-o", "{OUT}/kernels"], {0, 2}, note, files)
    source = FIXTURES / "results" / ("vector_add_cache.json" if kind == "kernel-tuner-cache" else "vector_add_t4.json")
    text = source.read_text()
    if rng.random() < 0.5:
        doc = json.loads(text)
        note = mutate_json(rng, doc)
        text = json.dumps(doc, indent=None if kind == "t4" else 0)
    else:
        text, note = mutate_text(rng, text)
    gzipped = rng.random() < 0.3
    files = {"in.json": gzip.compress(text.encode()) if gzipped else text}
    args = ["import", kind, "{DIR}/in.json", "--template", "vector_add", "--gpu-model", "Fuzz GPU", "--templates",
            "{VECTOR_ADD}", "--db", "{OUT}/t.db", "--json"]
    return Case(number, args, {0, 2}, f"{kind}{' gzipped' if gzipped else ''}: {note}", files)


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def message_lines(stderr):
    """The lines of error messages: not warnings, and not indented continuations of a message."""
    return [line for line in stderr.splitlines() if line and not line.startswith(("warning:", " "))]


def written_on_request(args):
    """Files the command line asks for (--svg FILE), which may appear in the working folder."""
    return {pathlib.Path(args[i + 1]).name for i in range(len(args) - 1) if args[i] == "--svg"}


def check(case, args, result, limit, before, folders):
    problems = []
    if result is None:
        return [f"still running after {limit} s"]
    code = result.returncode
    if code < 0:
        problems.append(f"killed by signal {-code}")
    elif code not in case.allowed:
        problems.append(f"exit {code}, expected one of {sorted(case.allowed)}")
    if code == 0 and "--json" in args and not {"-h", "--help"} & set(args):
        try:
            json.loads(result.stdout)
        except ValueError as error:
            problems.append(f"--json output does not parse: {error}")
    if code == 2 and len(message_lines(result.stderr)) != 1:
        problems.append(f"exit 2 with {len(message_lines(result.stderr))} message lines")
    if snapshot(folders["templates"]) != before:
        problems.append("the template folder changed")
    if code == 2 and len(result.stderr) > 2000:
        problems.append(f"a message of {len(result.stderr)} bytes: it quotes too much of the input")
    for what in ("work", "home", "data", "tmp"):
        written = {p.name for p in folders[what].iterdir()} - (written_on_request(args) if what == "work" else set())
        if written:
            problems.append(f"something was written in the {what} folder: " + ", ".join(sorted(written)))
    return problems


def run_case(tuner, case, root, cache):
    folders = {what: root / what for what in ("templates", "work", "home", "data", "tmp")}
    for folder in folders.values():
        folder.mkdir(parents=True)
    for pattern in ("*.cu", "*.cuh", "*.h"):
        for source in SHIPPED.glob(pattern):
            shutil.copy(source, folders["templates"])
    for name, text in case.files.items():
        data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        (folders["templates"] / name).write_bytes(data)
    out = root / "out"  # where an import may write: its template folder, its database
    out.mkdir()
    args = [a.replace("{DIR}", str(folders["templates"])).replace("{DATA}", str(folders["data"]))
            .replace("{OUT}", str(out)).replace("{VECTOR_ADD}", str(cache.parent / "vector_add")) for a in case.args]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folders["home"]),
           "XDG_DATA_HOME": str(folders["data"]), "XDG_CACHE_HOME": str(cache), "TUNER_DB": "",
           "TMPDIR": str(folders["tmp"]),
           "LD_LIBRARY_PATH": os.environ.get("LD_LIBRARY_PATH", "")}
    # A compile may take up to the compile pool's deadline (300 s per candidate) before it is called
    # a failure; a case slower than SLOW_S is listed, a case past its limit is a hang.
    limit = 660 if args[0] == "explore" or "--kernel" in args else 30
    before = snapshot(folders["templates"])
    start = time.monotonic()
    try:
        result = subprocess.run([tuner] + args, cwd=folders["work"], env=env, capture_output=True, text=True,
                                errors="replace", timeout=limit)
    except subprocess.TimeoutExpired:
        result = None
    elapsed = time.monotonic() - start
    problems = check(case, args, result, limit, before, folders)
    return args, result, elapsed, problems


def keep_failure(keep, case, args, result, problems, root):
    target = pathlib.Path(keep) / f"case-{case.number}"
    shutil.copytree(root / "templates", target / "templates", dirs_exist_ok=True)
    (target / "report.txt").write_text(
        "args: " + json.dumps(args) + "\nnote: " + case.note + "\nproblems: " + "; ".join(problems) +
        ("\nexit: %d\nstdout:\n%s\nstderr:\n%s" % (result.returncode, result.stdout[-4000:], result.stderr[-4000:])
         if result else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tuner", default=str(REPO / "build" / "bin" / "tuner"))
    parser.add_argument("--seed", type=int, default=None, help="default: random, printed")
    parser.add_argument("--cases", type=int, default=None, help="run this many cases")
    parser.add_argument("--minutes", type=float, default=None, help="run cases for this long")
    parser.add_argument("--keep", default=None, help="copy each failing case into this folder")
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(1 << 32)
    if options.cases is None and options.minutes is None:
        options.cases = 100
    rng = random.Random(seed)
    shipped = sorted(SHIPPED.glob("*.toml"))
    deadline = time.monotonic() + options.minutes * 60 if options.minutes else None
    counts, failures, slowest, slow = {}, 0, (0.0, ""), []
    print(f"fuzz_cli: seed {seed}, tuner {options.tuner}", flush=True)
    with tempfile.TemporaryDirectory(prefix="tuner-fuzz-") as scratch:
        cache = pathlib.Path(scratch) / "cache"
        # The template the results files are of, as `import t1` makes it from the T1 fixture.
        subprocess.run([options.tuner, "import", "t1", str(FIXTURES / "t1" / "vector_add.json"), "-o",
                        str(pathlib.Path(scratch) / "vector_add")], check=True, capture_output=True)
        number = 0
        while (options.cases is None or number < options.cases) and (deadline is None or time.monotonic() < deadline):
            number += 1
            draw = rng.random()
            case = (template_case(rng, number, shipped) if draw < 0.35 else
                    options_case(rng, number) if draw < 0.7 else import_case(rng, number))
            root = pathlib.Path(scratch) / f"case-{number}"
            args, result, elapsed, problems = run_case(options.tuner, case, root, cache)
            key = f"{args[0]} exit {result.returncode if result else 'timeout'}"
            counts[key] = counts.get(key, 0) + 1
            slowest = max(slowest, (elapsed, " ".join(args)[:120]))
            if elapsed > SLOW_S:
                slow.append(f"case {number}, {elapsed:.0f} s: {' '.join(args)[:100]} ({case.note[:160]})")
            if problems:
                failures += 1
                print(f"FAIL case {number}: {'; '.join(problems)}\n  args: {json.dumps(args)[:300]}\n"
                      f"  {case.note[:300]}\n  stderr: {(result.stderr if result else '')[-600:]!r}", flush=True)
                if options.keep:
                    keep_failure(options.keep, case, args, result, problems, root)
            shutil.rmtree(root, ignore_errors=True)
    print(f"fuzz_cli: {number} cases, {failures} failed; slowest {slowest[0]:.1f} s ({slowest[1]})")
    for key in sorted(counts):
        print(f"  {key}: {counts[key]}")
    for line in slow:
        print(f"  slow (over {SLOW_S} s, within its limit): {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
