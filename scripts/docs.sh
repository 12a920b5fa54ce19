#!/usr/bin/env bash
# Builds the documentation site (mkdocs.yml, docs/) into build/site with warnings as errors.
# MkDocs and Material come from PyPI, pinned, into a virtual environment of their own
# (build/docs-venv). The command reference is made from the built tool's --help
# (docs/gen_reference.py): build it first (scripts/build.sh), or name another binary in TUNER_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build/docs-venv
requirements=("mkdocs==1.6.1" "mkdocs-material==9.8.2")
[ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
# Installed once per pin: a second run only checks what is there.
"$venv/bin/pip" install -q "${requirements[@]}"
# Material's banner about its end of life (May 2027) is not a warning of this site's.
export NO_MKDOCS_2_WARNING=1
"$venv/bin/mkdocs" build --strict --clean --site-dir build/site "$@"
echo "docs: build/site/index.html"
