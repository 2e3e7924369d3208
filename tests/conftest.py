"""Shared test settings."""

from hypothesis import settings

# No per-example deadline: test outcomes must not depend on how busy the machine is.
settings.register_profile("spacy-deid", deadline=None)
settings.load_profile("spacy-deid")
