#!/usr/bin/env bash
# The packages as users install them, each running the offline commands with neither the source
# tree nor the build folder on the way: the .tar.gz unpacked and then moved elsewhere (the install is
# relocatable), the .deb with `dpkg -i` (as root only: it installs under /usr, and is removed
# after), and the wheel in a fresh virtual environment (nvidia-cuda-nvrtc comes from PyPI). Each
# must take the templates it installed, not the source tree's. Each carries the licence: the
# .tar.gz its LICENSE, the .debs Debian's copyright file, the wheel its metadata. Run after
# scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=$PWD

(cd build && cpack -G "TGZ;DEB" >/dev/null)
scripts/build_wheel.sh >/dev/null
# The machine the build is for, as CMake found it (x86_64, aarch64), names the packages.
machine=$(sed -n 's/^set(CMAKE_SYSTEM_PROCESSOR "\(.*\)")$/\1/p' build/CMakeFiles/[0-9]*/CMakeSystem.cmake | head -1)
tarball=$(ls "build/packages/tuner-"*"-linux-$machine.tar.gz")
deb=$(ls build/packages/tuner_*.deb)
dev_deb=$(ls build/packages/tuner-dev_*.deb)
wheel=$(ls build/wheels/cuda_tuner-*.whl)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp tests/fixtures/schema_v5.db "$work/fixture.db"
export HOME=$work/home XDG_CACHE_HOME=$work/cache XDG_DATA_HOME=$work/data
unset TUNER_TEMPLATES TUNER_DB TUNER_BINARY
cd "$work"

fail() { echo "package_smoke: $*" >&2; exit 1; }

# smoke LABEL TOOL TEMPLATES_DIR: the offline commands, and where the templates came from.
smoke() {
  local label=$1 tool=$2 templates=$3
  "$tool" kernels >/dev/null || fail "$label: tuner kernels failed"
  "$tool" kernels transpose --json | grep -q "\"description\": \"$templates/transpose.toml\"" ||
    fail "$label: transpose was not read from $templates"
  "$tool" explore transpose --arch sm_90 >/dev/null || fail "$label: tuner explore failed"
  "$tool" occupancy --arch sm_90 --threads 256 --regs 32 --smem 4096 >/dev/null || fail "$label: tuner occupancy failed"
  cp fixture.db "$label.db"
  "$tool" db upgrade --db "$label.db" >/dev/null || fail "$label: tuner db upgrade failed"
  "$tool" report transpose --db "$label.db" -o "$label.html" >/dev/null || fail "$label: tuner report failed"
  grep -q "<svg" "$label.html" || fail "$label: the report has no chart"
  echo "package_smoke: $label ok ($tool)"
}

# The tarball, unpacked, then moved: it must still find its templates.
mkdir unpacked
tar -xzf "$source_dir/$tarball" -C unpacked
mv unpacked/tuner-* moved
for f in bin/tuner bin/tuner-slurm share/man/man1/tuner.1 share/man/man1/tuner-tune.1 share/bash-completion/completions/tuner \
  include/tuner/tuned_config.h include/tuner/base/gpu_identity.h lib/cmake/tuner_query/tuner_query-config.cmake \
  share/tuner/examples/query/CMakeLists.txt share/doc/tuner/LICENSE share/doc/tuner/NOTICE; do
  [ -e "moved/$f" ] || fail "the tarball has no $f"
done
cmp -s moved/share/doc/tuner/LICENSE "$source_dir/LICENSE" || fail "the tarball's LICENSE is not the repository's"

# The .debs as Debian has them (read with dpkg-deb, no root needed): a maintainer, a machine-readable
# copyright file and no LICENSE, man pages gzipped, the libraries in tuner-dev, which depends on what
# find_package(tuner_query) finds.
check_deb() {
  local file=$1 package=$2 listing
  listing=$(dpkg-deb -c "$file" | awk '{print $NF}')
  [ -n "$(dpkg-deb -f "$file" Maintainer)" ] || fail "$package has no Maintainer"
  grep -qx "./usr/share/doc/$package/copyright" <<<"$listing" || fail "$package has no copyright file"
  dpkg-deb --fsys-tarfile "$file" | tar -xO "./usr/share/doc/$package/copyright" | head -1 |
    grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    fail "$package's copyright file is not in Debian's machine-readable format"
  ! grep -q "/LICENSE$" <<<"$listing" || fail "$package has a LICENSE file beside its copyright file"
  ! grep -q '/man/man1/.*\.1$' <<<"$listing" || fail "$package has man pages that are not gzipped"
  echo "$listing"
}
runtime_files=$(check_deb "$source_dir/$deb" tuner)
dev_files=$(check_deb "$source_dir/$dev_deb" tuner-dev)
grep -qx './usr/share/man/man1/tuner-tune.1.gz' <<<"$runtime_files" || fail "tuner has no tuner-tune.1.gz"
! grep -q '^./usr/include/\|\.a$' <<<"$runtime_files" || fail "tuner holds headers or static libraries"
grep -qx './usr/include/tuner/tuned_config.h' <<<"$dev_files" || fail "tuner-dev has no tuned_config.h"
grep -q 'libsqlite3-dev' <<<"$(dpkg-deb -f "$source_dir/$dev_deb" Depends)" || fail "tuner-dev does not depend on libsqlite3-dev"
smoke tarball "$work/moved/bin/tuner" "$work/moved/share/tuner/kernel_templates"

if [ "$(id -u)" -eq 0 ] && command -v dpkg >/dev/null; then
  dpkg -i "$source_dir/$deb" >/dev/null
  trap 'dpkg -r tuner >/dev/null; rm -rf "$work"' EXIT
  smoke deb /usr/bin/tuner /usr/share/tuner/kernel_templates
else
  echo "package_smoke: the .deb was built but not installed (dpkg -i needs root)"
fi

# The wheel's metadata: its licence and readme, and the licence's text.
python3 - "$source_dir/$wheel" <<'CHECK' || fail "the wheel's metadata lacks its licence or readme"
import sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
names = wheel.namelist()
metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
assert "License-Expression: Apache-2.0" in metadata, metadata
assert "Description-Content-Type: text/markdown" in metadata, metadata
assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
assert any(n.endswith(".dist-info/licenses/NOTICE") for n in names), names
CHECK

# The wheel's tag names the newest glibc the binary needs.
python3 -m venv venv
venv/bin/pip install -q "$source_dir/$wheel"
site=$(venv/bin/python -c 'import cuda_tuner, os; print(os.path.dirname(cuda_tuner.__file__))')
floor=$(objdump -T "$site/bin/tuner" | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1 | sed 's/GLIBC_//; s/\./_/')
[[ $wheel == *"manylinux_${floor}_${machine}.whl" ]] || fail "$wheel is not tagged for glibc $floor, which the binary needs"
nvrtc=$(ldd "$site/bin/tuner" | sed -n 's/.*libnvrtc.so.13 => \(.*\) (0x.*/\1/p')
[ "$(realpath "$nvrtc")" = "$(dirname "$site")/nvidia/cu13/lib/libnvrtc.so.13" ] ||
  fail "the wheel's tuner does not load the nvidia-cuda-nvrtc wheel's libnvrtc: $(ldd "$site/bin/tuner" | grep nvrtc)"
smoke wheel "$work/venv/bin/tuner" "$site/share/tuner/kernel_templates"
# The Python lookup: the fixture holds only an older version of transpose for the H100.
venv/bin/python -c '
import cuda_tuner
found = cuda_tuner.tuned_config("transpose", size=(8192, 8192), db="wheel.db", device="NVIDIA H100 80GB HBM3")
assert [r["status"] for r in found["results"]] == ["only_stale"], found
try:
    cuda_tuner.tuned_config("transpose", db="wheel.db", gpu=-1)
    raise SystemExit("a bad --gpu was not refused")
except cuda_tuner.TunerError as e:
    assert e.exit_code == 2, e
' || fail "cuda_tuner.tuned_config did not read the database"
echo "package_smoke: the Python lookup ok"
# Tuning from Python with the wheel's own binary and NumPy from PyPI: the template written from NumPy
# arrays, a Python constraint translated by the tool, every candidate compiled offline; then tune(),
# which on a machine without a GPU must raise the tool's no-GPU error (exit 3), and tunes on one.
venv/bin/python - <<'PYTHON' || fail "cuda_tuner.tune did not work from the wheel"
import numpy as np
import cuda_tuner

source = r"""
extern "C" __global__ void scale(float* out, const float* x, float a, int n) {
  int i = blockIdx.x * BLOCK * ITEMS + threadIdx.x;
  for (int k = 0; k < ITEMS; ++k, i += BLOCK)
    if (i < n) out[i] = a * x[i];
}
"""
n = 100000
x = np.linspace(-1, 1, n, dtype=np.float32)
space = dict(params={"BLOCK": [64, 128, 256], "ITEMS": [1, 2, 4]}, constraints=["BLOCK * ITEMS <= 512"],
             grid="cdiv(N, BLOCK * ITEMS)", block="BLOCK", outputs="out", sizes={"N": n},
             reference=lambda out, x, a, n: a * x)
made = cuda_tuner.template(source, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": n}, **space)
explored = made.explore("sm_90")
assert sorted((c["params"]["BLOCK"], c["params"]["ITEMS"]) for c in explored["candidates"]) == [
    (64, 1), (64, 2), (64, 4), (128, 1), (128, 2), (128, 4), (256, 1), (256, 2)], explored["candidates"]
made.remove()
try:
    result = cuda_tuner.tune(source, "scale", {"out": np.empty_like(x), "x": x, "a": 2.0, "n": n}, **space)
    assert result.best is not None, result
    print("package_smoke: tuned from Python on a GPU:", result)
except cuda_tuner.TunerError as error:
    assert error.exit_code == 3 and error.args[0].startswith("tuner tune: "), (error.exit_code, error)
    print("package_smoke: no GPU here; tune() raised the tool's message:", error)
PYTHON
echo "package_smoke: tuning from Python ok"
