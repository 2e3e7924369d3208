"""Faker-based, locale-aware surrogates for PHI (see `generator.SurrogateGenerator`)."""

from spacy_deid.anonymize.surrogates.generator import DocumentSession, SurrogateGenerator, group_age

__all__ = ["DocumentSession", "SurrogateGenerator", "group_age"]
