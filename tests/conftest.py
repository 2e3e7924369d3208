"""Shared test settings."""

import os

from hypothesis import settings

# No per-example deadline: test outcomes must not depend on how busy the machine is.
# In CI the examples are derived from each test's name, so a commit's result is the same
# on every run; elsewhere they are drawn afresh, so property tests keep searching.
settings.register_profile("spacy-deid", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("spacy-deid")
