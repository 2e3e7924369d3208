"""The workflow steps of project.yml, each run as `python -m scripts.<folder>.<step>`.

Importing the package pins the kernels of numpy's OpenBLAS for the step and the processes it
starts, before numpy loads, so that every x86-64 CPU computes the same numbers
(scripts/kernels.py).
"""

import os

# The OpenBLAS core the workflow computes with: its portable SSE2 kernels, which every
# x86-64 CPU runs (OpenBLAS would otherwise pick them by CPU).
OPENBLAS_CORETYPE = "Katmai"

os.environ["OPENBLAS_CORETYPE"] = OPENBLAS_CORETYPE
