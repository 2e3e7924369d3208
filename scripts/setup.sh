#!/usr/bin/env bash
# Create .venv (if missing) and install the project with every extra the workflow and the
# tests use (transformers, LLM translation, command line, Spark) and the development tools.
# torch comes first, pinned to 2.13.0: on these machines that is the CPU build on local
# disk; an unpinned torch would pull a multi-GB CUDA build. constraints.txt pins every
# other package, so that the metrics a fresh clone computes match the committed ones.
#
#   bash scripts/setup.sh                    # BLIS with its portable kernels: the committed metrics
#   bash scripts/setup.sh --native-kernels   # BLIS's wheel, kernels chosen for this CPU: faster
#                                            # training, models that differ from the committed ones
set -euo pipefail
cd "$(dirname "$0")/.."
native_kernels=false
for argument in "$@"; do
  case "$argument" in
    --native-kernels) native_kernels=true ;;
    *) echo "usage: bash scripts/setup.sh [--native-kernels]  (unknown option: $argument)" >&2
       exit 2 ;;
  esac
done
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -c constraints.txt torch==2.13.0
.venv/bin/python -m pip install --quiet -c constraints.txt -e ".[dev,trf,llm,cli,spark]"
if [ "$native_kernels" = true ]; then
  # BLIS's own wheel picks the kernels of this CPU (AVX2, AVX-512, ...) when it runs; it
  # replaces a portable build made by an earlier set-up.
  if .venv/bin/python -m scripts.kernels --check-blis >/dev/null; then
    .venv/bin/python -m pip install --quiet -c constraints.txt --no-deps --only-binary blis \
      --force-reinstall blis
  fi
  .venv/bin/python -m scripts.kernels
# BLIS (thinc's and spaCy's matrix products) rebuilt from source with its portable generic
# kernels only, so that every x86-64 CPU trains the same models (scripts/kernels.py); the
# build needs a C compiler and takes about three minutes, once.
elif ! .venv/bin/python -m scripts.kernels --check-blis >/dev/null; then
  .venv/bin/python -m pip install --quiet -c constraints.txt cython setuptools
  BLIS_ARCH="$(.venv/bin/python -c 'from scripts.kernels import BLIS_ARCH; print(BLIS_ARCH)')" \
    .venv/bin/python -m pip install --quiet -c constraints.txt --no-deps \
    --no-binary blis --no-build-isolation --no-cache-dir --force-reinstall blis
  .venv/bin/python -m scripts.kernels --check-blis
fi
