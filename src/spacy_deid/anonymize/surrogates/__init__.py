"""Faker-based, locale-aware surrogates for PHI (see `generator.SurrogateGenerator`)."""

from spacy_deid.anonymize.surrogates.generator import DocumentSession, SurrogateGenerator, group_age
from spacy_deid.lang.locales import FAKER_LOCALE_BY_LANGUAGE

__all__ = ["FAKER_LOCALE_BY_LANGUAGE", "DocumentSession", "SurrogateGenerator", "group_age"]
