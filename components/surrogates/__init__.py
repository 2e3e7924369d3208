"""Faker-based, locale-aware surrogates for PHI (see `generator.SurrogateGenerator`)."""

from .common import FAKER_LOCALE_BY_LANGUAGE
from .generator import DocumentSession, SurrogateGenerator, group_age

__all__ = ["FAKER_LOCALE_BY_LANGUAGE", "DocumentSession", "SurrogateGenerator", "group_age"]
