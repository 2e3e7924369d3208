"""The workflow steps of project.yml, each run as `python -m scripts.<folder>.<step>`.

Importing the package pins the kernels of numpy (its OpenBLAS and its own vector loops) for
the step and the processes it starts, before numpy loads, so that every x86-64 CPU computes
the same numbers (scripts/kernels.py).
"""

import os

# The OpenBLAS core the workflow computes with: its portable SSE2 kernels, which every
# x86-64 CPU runs (OpenBLAS would otherwise pick them by CPU).
OPENBLAS_CORETYPE = "Katmai"
# numpy's vector loops (exp, log, tanh, ...) of the AVX-512 levels, which numpy would pick on
# CPUs that have them; they round differently from the AVX2 loops (x86-64-v3) that every
# other x86-64 CPU of the last decade runs, and the trained models differ.
NUMPY_DISABLED_CPU_FEATURES = "X86_V4 AVX512_ICL AVX512_SPR"

os.environ["OPENBLAS_CORETYPE"] = OPENBLAS_CORETYPE
os.environ["NPY_DISABLE_CPU_FEATURES"] = NUMPY_DISABLED_CPU_FEATURES
