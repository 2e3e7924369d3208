"""Presidio's predefined recognizers, set up for one of the project's languages.

Presidio ships recognizers for phone numbers, e-mail addresses, URLs, IBANs, IP addresses and
credit cards that work in any language, and country-specific ones for identifiers with a
checksum or fixed shape; they are used as they are, apart from the project's subclasses for
phone numbers, e-mail addresses and URLs.
"""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    DeHealthInsuranceRecognizer,
    DeIdCardRecognizer,
    DePassportRecognizer,
    DePlzRecognizer,
    DeSocialSecurityRecognizer,
    DeTaxIdRecognizer,
    IbanRecognizer,
    IpRecognizer,
    ItFiscalCodeRecognizer,
    ItIdentityCardRecognizer,
    ItPassportRecognizer,
    PlPeselRecognizer,
    TrNationalIdRecognizer,
    UsItinRecognizer,
    UsSsnRecognizer,
)

from spacy_deid.presidio.recognizers.phones import LocalePhoneRecognizer
from spacy_deid.presidio.recognizers.web import OfflineEmailRecognizer, PlausibleUrlRecognizer


def generic_recognizers(lang: str, phone_score: float = 0.4,
                        possible_phone_score: float = 0.2) -> list[EntityRecognizer]:
    """Presidio's predefined locale-agnostic recognizers, set up for `lang`."""
    return [
        LocalePhoneRecognizer(lang, phone_score, possible_phone_score),
        OfflineEmailRecognizer(supported_language=lang, name="EmailRecognizer"),
        PlausibleUrlRecognizer(supported_language=lang, name="UrlRecognizer"),
        IbanRecognizer(supported_language=lang),
        IpRecognizer(supported_language=lang),
        CreditCardRecognizer(supported_language=lang),
    ]


# Presidio's country-specific recognizers for the countries of our languages (see
# labels.COUNTRY_BY_LANGUAGE). Noisy ones (driver licences, number plates, VAT) are
# left out: clinical letters rarely carry them and their patterns fire on case numbers.
COUNTRY_RECOGNIZERS: dict[str, tuple[type[EntityRecognizer], ...]] = {
    "de": (DePlzRecognizer, DeTaxIdRecognizer, DeHealthInsuranceRecognizer,
           DeSocialSecurityRecognizer, DeIdCardRecognizer, DePassportRecognizer),
    "en": (UsSsnRecognizer, UsItinRecognizer),
    "it": (ItFiscalCodeRecognizer, ItIdentityCardRecognizer, ItPassportRecognizer),
    "pl": (PlPeselRecognizer,),
    "tr": (TrNationalIdRecognizer,),
}


def country_recognizers(lang: str) -> list[EntityRecognizer]:
    """Presidio's country-specific recognizers for `lang`'s country (may be empty)."""
    return [cls(supported_language=lang) for cls in COUNTRY_RECOGNIZERS.get(lang, ())]
