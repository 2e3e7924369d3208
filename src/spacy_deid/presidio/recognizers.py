"""Presidio recognizers per language: Presidio's predefined ones plus the project's own.

`build_recognizers(lang)` returns the recognizers that the `deid_presidio_patterns`
component runs for one of the ten languages:

* Presidio's predefined pattern recognizers: phone numbers (python-phonenumbers,
  with the region of the language), e-mail, URL, IBAN, IP address, credit card;
* Presidio's country-specific recognizers where they exist for our countries
  (German tax, insurance and ID numbers, Italian fiscal code, Polish PESEL,
  Turkish national ID, US SSN/ITIN/NPI/MBI, ...);
* the project's own `PatternRecognizer`s where Presidio has none: dates in the
  locale's numeric and month-name formats, postal codes of the locale, and case /
  insurance / record numbers announced by a context word.

All patterns are written for ASCII digits; the component runs them on a copy of the
text in which Arabic-Indic and Persian digits are replaced one-for-one by ASCII
digits (`normalize_digits`), so offsets are unchanged. Every entity type that a
recognizer emits is mapped to a fine PHI label by `spacy_deid.schema.fine_label`.
"""

from __future__ import annotations

import phonenumbers
import regex as re
import tldextract
from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    DeHealthInsuranceRecognizer,
    DeIdCardRecognizer,
    DePassportRecognizer,
    DePlzRecognizer,
    DeSocialSecurityRecognizer,
    DeTaxIdRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    ItFiscalCodeRecognizer,
    ItIdentityCardRecognizer,
    ItPassportRecognizer,
    PhoneRecognizer,
    PlPeselRecognizer,
    TrNationalIdRecognizer,
    UrlRecognizer,
    UsItinRecognizer,
    UsSsnRecognizer,
)

from spacy_deid.lang import validate_language
from spacy_deid.schema import (
    CASE_NUMBER_ENTITY,
    DATE_ENTITY,
    DICTATION_SIGN_ENTITY,
    HOSPITAL_ENTITY,
    POSTAL_CODE_ENTITY,
    STREET_ENTITY,
    fine_label,
)

# Entity types of the project's own recognizers.
PHONE_ENTITY = "PHONE_NUMBER"


# Region used by python-phonenumbers to read national numbers (no +CC prefix).
PHONE_REGION_BY_LANGUAGE: dict[str, str] = {
    "de": "DE", "en": "US", "fr": "FR", "it": "IT", "pl": "PL",
    "ru": "RU", "uk": "UA", "tr": "TR", "ar": "SY", "fa": "IR",
}

# Context words are matched as lowercase substrings of the five words before a match
# (Presidio's LemmaContextAwareEnhancer, substring mode), so stems cover inflections.
PHONE_CONTEXT: dict[str, list[str]] = {
    "de": ["tel", "telefon", "fon", "handy", "mobil", "ruf", "durchwahl"],
    "en": ["tel", "phone", "cell", "mobile", "call", "pager"],
    "fr": ["tél", "tel", "téléphone", "portable", "mobile"],
    "it": ["tel", "telefono", "cellulare", "cell"],
    "pl": ["tel", "telefon", "kom", "komórk"],
    "ru": ["тел", "телефон", "мобильн", "моб"],
    "uk": ["тел", "телефон", "мобільн", "моб"],
    "tr": ["tel", "telefon", "cep", "gsm"],
    "ar": ["هاتف", "الهاتف", "جوال", "الجوال", "موبايل", "تلفون", "هاتفه"],
    "fa": ["تلفن", "تماس", "همراه", "موبایل"],
}
FAX_WORDS: dict[str, list[str]] = {
    "de": ["fax", "telefax"],
    "en": ["fax"],
    "fr": ["fax", "télécopie"],
    "it": ["fax"],
    "pl": ["faks", "fax"],
    "ru": ["факс"],
    "uk": ["факс"],
    "tr": ["faks", "fax"],
    "ar": ["فاكس"],
    "fa": ["دورنگار", "فکس", "فاکس"],
}
CASE_NUMBER_CONTEXT: dict[str, list[str]] = {
    "de": ["fallnummer", "fall-nr", "fallnr", "aufnahmenummer", "patientennummer", "pat.-nr",
           "versicherten", "kvnr", "aktenzeichen", "az", "nummer", "nr"],
    "en": ["case", "record", "mrn", "id", "insurance", "member", "policy", "number",
           "no."],
    "fr": ["dossier", "numéro", "n°", "assurance", "sécurité", "ipp"],
    "it": ["pratica", "cartella", "numero", "n.", "tessera", "assicura"],
    "pl": ["historii", "hist", "nr", "numer", "pesel", "ubezpiecz"],
    "ru": ["истории", "номер", "№", "полис", "снилс", "карт"],
    "uk": ["історії", "номер", "№", "поліс", "карт"],
    "tr": ["dosya", "numara", "no", "protokol", "sigorta", "kimlik"],
    "ar": ["رقم", "الحالة", "الملف", "التأمين"],
    "fa": ["شماره", "پرونده", "بیمه", "ملی"],
}
POSTAL_CODE_CONTEXT: dict[str, list[str]] = {
    "de": ["plz", "postleitzahl", "anschrift", "straße", "str."],
    "en": ["zip", "postal"],
    "fr": ["postal", "cp", "cedex"],
    "it": ["cap"],
    "pl": ["pocztowy", "ul."],
    "ru": ["индекс"],
    "uk": ["індекс"],
    "tr": ["posta", "pk"],
    "ar": ["ص.ب", "صندوق", "البريدي"],
    "fa": ["پستی", "کدپستی"],
}
DATE_CONTEXT: dict[str, list[str]] = {
    "de": ["datum", "geb.", "geboren", "seit", "vom", "bis", "aufnahme", "entlass", "stationär"],
    "en": ["date", "born", "dob", "since", "from", "until", "admitted", "discharge"],
    "fr": ["date", "né", "née", "depuis", "jusqu", "admis", "sortie"],
    "it": ["data", "nato", "nata", "dal", "fino", "ricover", "dimess"],
    "pl": ["data", "ur.", "urodz", "dnia", "przyjęt", "wypis", "od dnia"],
    "ru": ["дата", "родил", "поступ", "выписан", "числа"],
    "uk": ["дата", "народж", "надійш", "виписан", "числа"],
    "tr": ["tarih", "doğum", "itibaren", "yatış", "taburcu"],
    "ar": ["تاريخ", "مواليد", "منذ", "بتاريخ", "القبول", "التخريج"],
    "fa": ["تاریخ", "متولد", "بستری", "ترخیص"],
}

# Month names (and stems that cover inflected forms) of each locale; matched case-insensitively.
MONTHS: dict[str, list[str]] = {
    "de": ["jan(?:uar)?", "feb(?:ruar)?", "märz", "mär", "apr(?:il)?", "mai", "juni?",
           "juli?", "aug(?:ust)?", "sep(?:t(?:ember)?)?", "okt(?:ober)?", "nov(?:ember)?",
           "dez(?:ember)?"],
    "en": ["jan(?:uary)?", "feb(?:ruary)?", "mar(?:ch)?", "apr(?:il)?", "may", "june?",
           "july?", "aug(?:ust)?", "sep(?:t(?:ember)?)?", "oct(?:ober)?", "nov(?:ember)?",
           "dec(?:ember)?"],
    "fr": ["janv(?:ier)?", "févr(?:ier)?", "fevr(?:ier)?", "mars", "avr(?:il)?", "mai",
           "juin", "juil(?:let)?", "août", "aout", "sept(?:embre)?", "oct(?:obre)?",
           "nov(?:embre)?", "déc(?:embre)?", "dec(?:embre)?"],
    "it": ["genn(?:aio)?", "gen", "febb(?:raio)?", "feb", "marzo", "mar", "apr(?:ile)?",
           "maggio", "mag", "giugno", "giu", "luglio", "lug", "agosto", "ago",
           "sett(?:embre)?", "set", "ott(?:obre)?", "nov(?:embre)?", "dic(?:embre)?"],
    "pl": ["styczeń", "stycznia", "styczniu", "luty", "lutego", "lutym", "marzec", "marca",
           "marcu", "kwiecień", "kwietnia", "kwietniu", "maj", "maja", "maju", "czerwiec",
           "czerwca", "czerwcu", "lipiec", "lipca", "lipcu", "sierpień", "sierpnia",
           "sierpniu", "wrzesień", "września", "wrześniu", "październik", "października",
           "październiku", "listopad", "listopada", "listopadzie", "grudzień", "grudnia",
           "grudniu", "sty", "lut", "kwi", "cze", "lip", "sie", "wrz", "paź", "lis", "gru"],
    "ru": ["январь", "января", "январе", "февраль", "февраля", "феврале", "март", "марта",
           "марте", "апрель", "апреля", "апреле", "май", "мая", "мае", "июнь", "июня", "июне",
           "июль", "июля", "июле", "август", "августа", "августе", "сентябрь", "сентября",
           "сентябре", "октябрь", "октября", "октябре", "ноябрь", "ноября", "ноябре",
           "декабрь", "декабря", "декабре", "янв", "фев", "апр", "авг", "сен", "окт", "ноя",
           "дек"],
    "uk": ["січень", "січня", "січні", "лютий", "лютого", "лютому", "березень", "березня",
           "березні", "квітень", "квітня", "квітні", "травень", "травня", "травні", "червень",
           "червня", "червні", "липень", "липня", "липні", "серпень", "серпня", "серпні",
           "вересень", "вересня", "вересні", "жовтень", "жовтня", "жовтні", "листопад",
           "листопада", "листопаді", "грудень", "грудня", "грудні"],
    "tr": ["ocak", "şubat", "mart", "nisan", "mayıs", "haziran", "temmuz", "ağustos",
           "eylül", "ekim", "kasım", "aralık"],
    "ar": ["كانون الثاني", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول",
           "تشرين الأول", "تشرين الثاني", "كانون الأول", "يناير", "فبراير", "مارس", "أبريل",
           "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"],
    "fa": ["ژانویه", "فوریه", "مارس", "آوریل", "مه", "ژوئن", "ژوئیه", "اوت", "سپتامبر",
           "اکتبر", "نوامبر", "دسامبر", "فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد",
           "شهریور", "مهر", "آبان", "آذر", "دی", "بهمن", "اسفند"],
}

# Scores of the project's own patterns, before context enhancement (+0.35).
STRONG, MEDIUM, WEAK = 0.85, 0.6, 0.2

DIGIT_TRANSLATION = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")

# Own patterns are case-sensitive unless they say (?i); no IGNORECASE globally, so a
# "capitalised word after a postal code" cue means what it says.
OWN_PATTERN_FLAGS = re.DOTALL | re.MULTILINE

NOT_BEFORE = r"(?<![\w./:-])"
NOT_AFTER = r"(?![\w/-]|\.\d)"
DAY = r"(?:0?[1-9]|[12]\d|3[01])"
MONTH = r"(?:0?[1-9]|1[0-2])"
YEAR = r"(?:1[89]\d\d|20\d\d)"
YEAR2 = r"\d\d"


def normalize_digits(text: str) -> str:
    """Replace Arabic-Indic and Persian digits by ASCII digits, one character for one."""
    return text.translate(DIGIT_TRANSLATION)


# Presidio's e-mail check reads the public-suffix list, which tldextract fetches from the
# internet by default; this extractor uses only the snapshot shipped with tldextract.
OFFLINE_TLD_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


# An attribute name and "=" before an unquoted attribute value: `<a href=x@klinik.de>`.
ATTRIBUTE_NAME_RE = re.compile(r"[A-Za-z][\w:-]*=")


def inside_tag(text: str, position: int) -> bool:
    """Whether `position` lies inside an HTML/XML tag: a `<` opens before it on its line
    and no `>` closes that tag before it."""
    line_start = text.rfind("\n", 0, position) + 1
    return text.rfind("<", line_start, position) > text.rfind(">", line_start, position)


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's e-mail recognizer, validating domains without network access.

    Presidio's pattern allows "=" in the part before the "@", so inside a tag it takes
    the attribute name along (`href=x@klinik.de`); a match that starts with an attribute
    name inside a tag starts after its "=", so that the markup is not replaced.
    """

    def validate_result(self, pattern_text: str) -> bool:  # noqa: D102
        return OFFLINE_TLD_EXTRACT(pattern_text).fqdn != ""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                regex_flags: int | None = None) -> list[RecognizerResult]:  # noqa: D102
        results = super().analyze(text, entities, nlp_artifacts, regex_flags)
        for result in results:
            attribute = ATTRIBUTE_NAME_RE.match(text, result.start, result.end)
            if attribute and inside_tag(text, result.start):
                result.start = attribute.end()
        return results


class PlausibleUrlRecognizer(UrlRecognizer):
    """Presidio's URL recognizer, without its matches that only look like a domain.

    Presidio also accepts a URL without scheme ("klinik.de"), so every abbreviation
    glued to a word that happens to be a top-level domain matches: "Dr.me", "geb.am",
    "Gent.mo", "No.lu", "Mening.ne". In the training letters of all ten languages its
    scheme-less matches were 28, none of them a URL. A match without a scheme now counts
    only if it starts with "www", has a path, or is a lower-case host whose name before
    the top-level domain has at least `MIN_BARE_HOST` characters ("uniklinik-ulm.de").
    Punctuation that ends the sentence after a path ("…/radiologie,") and the quotes of a
    quoted URL (`href="https://…"`) are left out.
    """

    MIN_BARE_HOST = 4

    def validate_result(self, pattern_text: str) -> bool | None:  # noqa: D102
        return None if plausible_url(pattern_text.strip("\"'"), self.MIN_BARE_HOST) else False

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                regex_flags: int | None = None) -> list[RecognizerResult]:  # noqa: D102
        results = super().analyze(text, entities, nlp_artifacts, regex_flags)
        for result in results:
            match = text[result.start:result.end]
            result.start += len(match) - len(match.lstrip("\"'"))
            result.end = result.start + len(text[result.start:result.end].rstrip(".,;:!?\"'"))
        return results


def plausible_url(text: str, min_bare_host: int) -> bool:
    """Whether `text` reads as a URL rather than an abbreviation before a word."""
    lowered = text.lower()
    if "://" in text or lowered.startswith("www") or "/" in text:
        return True
    *names, _suffix = text.split(".")
    return text == lowered and bool(names) and len(names[-1]) >= min_bare_host


class LocalePhoneRecognizer(PhoneRecognizer):
    """Presidio's phone recognizer, scoring possible-but-invalid numbers lower.

    It matches with python-phonenumbers' lenient POSSIBLE level, so that well-formed
    numbers which the numbering plan does not know (common in synthetic letters) are
    still found, and gives them `possible_score` instead of `SCORE`: a context word
    such as "Tel." then lifts them over the threshold.
    """

    def __init__(self, lang: str, score: float = 0.4, possible_score: float = 0.2) -> None:
        super().__init__(supported_language=lang,
                         supported_regions=(PHONE_REGION_BY_LANGUAGE[lang],),
                         context=PHONE_CONTEXT[lang] + FAX_WORDS[lang], leniency=0,
                         name="PhoneRecognizer")
        self.SCORE = score
        self.possible_score = possible_score

    def _get_recognizer_result(self, match, text, region, nlp_artifacts):  # noqa: D102
        result = super()._get_recognizer_result(match, text, region, nlp_artifacts)
        if not phonenumbers.is_valid_number(match.number):
            result.score = self.possible_score
        return result


def _month_alternation(lang: str) -> str:
    names = sorted(MONTHS[lang], key=len, reverse=True)
    # Persian writes the ezafe on a month name before a year or a day ("ژانویهٔ ۲۰۱۸").
    ending = "(?:\u0654|\u200c?ی)?" if lang == "fa" else r"\.?"
    return "(?i:" + "|".join(names) + ")" + ending


def date_patterns(lang: str) -> list[Pattern]:
    """Numeric and month-name date formats of `lang`'s locale, with their scores."""
    month_name = _month_alternation(lang)
    year_or_short = rf"(?:{YEAR}|'?{YEAR2})"
    # Russian writes "13 июля 2025 г."; the annotations keep the "г." with month-name dates.
    year_mark = r"(?:\s?г\.)?" if lang == "ru" else ""
    patterns = [
        Pattern("day-month-year, same separator", rf"{NOT_BEFORE}{DAY}([./-]){MONTH}\1"
                rf"(?:{YEAR}|{YEAR2}){NOT_AFTER}", STRONG),
        Pattern("month/day/year (US)", rf"{NOT_BEFORE}{MONTH}/{DAY}/(?:{YEAR}|{YEAR2})"
                rf"{NOT_AFTER}", STRONG),
        Pattern("ISO or Persian year-month-day", rf"{NOT_BEFORE}{YEAR}([./-]){MONTH}\1{DAY}"
                rf"{NOT_AFTER}", STRONG),
        Pattern("month and year", rf"{NOT_BEFORE}{MONTH}[./]{YEAR}{NOT_AFTER}", MEDIUM),
        Pattern("year and month", rf"{NOT_BEFORE}{YEAR}/{MONTH}{NOT_AFTER}",
                MEDIUM if lang == "fa" else WEAK),
        Pattern("day/month without year", rf"{NOT_BEFORE}{DAY}/{MONTH}{NOT_AFTER}",
                WEAK if lang != "en" else 0.0),
        Pattern("year alone", rf"{NOT_BEFORE}{YEAR}(?![\w/-]|[.:]\d)", MEDIUM),
        Pattern("day month-name year", rf"(?<!\w){DAY}(?:\.|er|°|th|st|nd|rd)?\s+{month_name}"
                rf"(?:,?\s+{year_or_short}{year_mark})?(?!\w)", STRONG),
        Pattern("month-name day, year", rf"(?<!\w){month_name}\s+{DAY}(?:st|nd|rd|th)?,?"
                rf"\s+{YEAR}(?!\w)", STRONG),
        Pattern("month-name day", rf"(?<!\w){month_name}\s+{DAY}(?:st|nd|rd|th)?(?!\w)",
                MEDIUM),
        Pattern("month-name year", rf"(?<!\w){month_name}\s+{YEAR}{year_mark}(?!\w)",
                STRONG),
        Pattern("month-name short year", rf"(?<!\w){month_name}\s+'?{YEAR2}(?!\w)", MEDIUM),
        Pattern("month name alone", rf"(?<!\w){month_name}(?!\w)", WEAK),
        Pattern("month/2-digit year", rf"{NOT_BEFORE}{MONTH}/{YEAR2}{NOT_AFTER}", MEDIUM),
        Pattern("month/day without year", rf"{NOT_BEFORE}{MONTH}/{DAY}{NOT_AFTER}", WEAK),
        Pattern("day.month without year", rf"{NOT_BEFORE}{DAY}\.(?:0[1-9]|1[0-2])\.?"
                r"(?![\w/-]|\.\d)", WEAK),
    ]
    if lang == "de":
        patterns.append(Pattern("day.month. without year", rf"{NOT_BEFORE}{DAY}\.{MONTH}\."
                                r"(?!\d)", MEDIUM))
    return patterns


def postal_code_patterns(lang: str) -> list[Pattern]:
    """Postal code shapes of `lang`'s country, strongest when a place name follows."""
    # "426008 г. Ижевск", "61022 м. Харків": a locality abbreviation may stand before the name
    city = r"(?=,?\s+(?:г\.\s?|м\.\s?)?\p{Lu})"
    shapes = {
        "de": r"\d{5}", "fr": r"\d{5}", "it": r"\d{5}", "tr": r"\d{5}", "uk": r"\d{5}",
        "en": r"\d{5}(?:-\d{4})?", "pl": r"\d{2}-\d{3}", "ru": r"\d{6}", "ar": r"\d{4,5}",
        "fa": r"\d{5}-?\d{5}",
    }
    shape = shapes[lang]
    patterns = [
        Pattern("postal code before a place name", rf"{NOT_BEFORE}{shape}(?![\w-]){city}",
                MEDIUM),
        Pattern("postal code", rf"{NOT_BEFORE}{shape}(?![\w-])", WEAK),
    ]
    if lang == "en":
        patterns.append(Pattern("ZIP after a state code", rf"(?<=\b\p{{Lu}}{{2}}\s){shape}"
                                r"(?![\w-])", STRONG))
    return patterns


def case_number_patterns(lang: str) -> list[Pattern]:
    """Case, record and insurance numbers: long digit runs, trusted only with context."""
    return [
        Pattern("digit run of 6-12", rf"{NOT_BEFORE}\d{{6,12}}(?![\w-]|[.,]\d)", WEAK),
        Pattern("letter prefix and digits", rf"{NOT_BEFORE}\p{{Lu}}{{1,3}}[-/]?\d{{6,12}}"
                r"(?![\w-])", WEAK),
    ]


def dictation_sign_patterns() -> list[Pattern]:
    """The dictation sign under a report ("SevK.": three letters of the author's first name
    and the initial of the surname, then a dot), in any cased script. In the training
    letters of all ten languages this shape, dot included, is a NAME_USERNAME every time
    it occurs (8 of 8) and never anything else."""
    return [Pattern("dictation sign", r"(?<![\w.])\p{Lu}\p{Ll}{2}\p{Lu}\.(?!\w)", MEDIUM)]


# Scores of patterns that are sure: they replace any entity they overlap (the override
# score of `deid_presidio_patterns`).
CERTAIN = 1.0


def phone_after_cue_patterns(lang: str) -> list[Pattern]:
    """A phone or fax number right after the language's phone or fax word ("Tel.", "Fax:",
    "mobil"): the whole run of digit groups that follows, as far as spaces, slashes, hyphens
    and brackets join them ("0171-23 45 678", "0 96 21 / 4 71 12"), with three digits or
    more. Presidio's phone recognizer and the NER often take only the first groups of such
    a number and leave the subscriber number behind; this pattern is sure, so it takes the
    place of the shorter spans it covers."""
    words = sorted({word for word in PHONE_CONTEXT[lang] + FAX_WORDS[lang]}, key=len,
                   reverse=True)
    cue = "(?i:" + "|".join(re.escape(word) for word in words) + ")"
    group = r"\(?\+?\d[\d)]*"
    number = rf"{group}(?:(?:[ \t]?[/–-][ \t]?|[ \t])\(?{group}){{0,7}}"
    return [Pattern("number after a phone or fax word",
                    rf"(?<=(?<!\w){cue}\.?(?:[ \t]?(?i:nr|no)\.?)?[ \t]?:?[ \t]{{0,3}})"
                    rf"(?=(?:[\d()+ \t/–-]*?\d){{3}}){number}(?<=\d)(?![.,:]?\d)",
                    CERTAIN)]


# German street names: a word ending in a street word with a house number ("Lindenweg 14",
# "Robert-Koch-Str. 17"), or a name before a street word ("Bergheimer Straße 133").
# Compounds of these words that are not streets ("Bettplatz 8", "Rückweg 2 km") are left out.
STREET_SUFFIXES_DE = (r"straße|strasse|strße|str\.|weg|gasse|allee|platz|damm|ufer|steige?|pfad"
                      r"|chaussee|kamp|graben|wall|zeile|stieg|promenade|twiete|gässchen")
STREET_WORDS_DE = (r"Straße|Strasse|Str\.|Weg|Gasse|Allee|Platz|Damm|Ufer|Steige?|Pfad"
                   r"|Chaussee|Ring|Landstraße|Heerstraße|Dorfstraße|Hauptstraße")
NOT_STREETS_DE = ("Bett|Arbeits|Park|Stell|Sitz|Pflege|Heim|Therapie|Reha|Kita|Studien|Rück"
                  "|Zugangs|Aus|Um|Ab|Hin|Lösungs|Behandlungs|Infektions|Übertragungs|Zu|Fuß"
                  "|Lebens|Leidens|Liege|Warte|Bahn")
HOUSE_NUMBER = (r"\d{1,4}(?: ?[a-zA-Z](?![\w.-]))?(?: ?[-–/] ?\d{1,4}[a-z]?)?(?![\w,.]?\d)"
                r"(?! ?(?:km|m|min|h|Std|Tage?n?|Wochen?|Monate?n?|Jahre?n?|mg|ml|mm|cm|%|x"
                r"|mal)\b)")


def street_patterns(lang: str) -> list[Pattern]:
    """Street and house number (German only; other languages: none)."""
    if lang != "de":
        return []
    name = (rf"(?<![\w.-])(?!(?:{NOT_STREETS_DE})(?:platz|weg|gasse|pfad|damm))"
            rf"(?:\p{{Lu}}\p{{Ll}}+ (?:{STREET_WORDS_DE})|(?:\p{{Lu}}[\p{{L}}.]*-)+"
            rf"(?:{STREET_WORDS_DE})|\p{{Lu}}\p{{Ll}}*(?:{STREET_SUFFIXES_DE}))")
    return [Pattern("street and house number", rf"{name} ?{HOUSE_NUMBER}", STRONG)]


# German hospital names: a hospital word ("Krankenhaus", "Klinikum", "Fachklinik",
# "St.-Marien-Krankenhaus") and the name after it, 1-3 capitalised words on the same line
# ("Klinik Hohe Warte Bayreuth", "Klinikum St. Elisabeth Straubing", "Klinik am Dünsberg");
# or a hyphenated name compound alone ("Christian-Drosten-Klinik"). A department ("Klinik
# für Innere Medizin", "Hals-Nasen-Ohren-Klinik") or a day after "am" is not a name.
HOSPITAL_WORDS_DE = "Krankenhaus|Klinik|Klinikum|Spital|Hospital"
NOT_HOSPITAL_NAMES_DE = ("Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag|Wochenende"
                         "|Morgen|Vormittag|Mittag|Nachmittag|Abend|Januar|Februar|März|April"
                         "|Mai|Juni|Juli|August|September|Oktober|November|Dezember")


def hospital_patterns(lang: str) -> list[Pattern]:
    """Hospital names (German only; other languages: none)."""
    if lang != "de":
        return []
    word = (rf"(?!(?:{NOT_HOSPITAL_NAMES_DE})(?!\p{{L}}))"
            r"\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)*")
    suffix = "(?:krankenhaus|klinik|klinikum|spital|hospital)"
    compound = rf"(?!Hals-Nasen-Ohren|Mund-Kiefer)(?:\p{{Lu}}[\p{{L}}.]*-)+(?:{HOSPITAL_WORDS_DE})"
    head = rf"(?:{compound}|\p{{Lu}}\p{{Ll}}*{suffix}|{HOSPITAL_WORDS_DE})"
    link = r"(?:St\.|Sankt|am|an der|im|der|des|Am|An der|Zum|Zur) "
    return [Pattern("hospital word and name",
                    rf"(?<![\w.-])(?:{head} (?:{link})?{word}(?: (?:St\. )?{word}){{0,2}}"
                    rf"|{compound})(?![\w-])", MEDIUM)]


def _own_recognizer(entity: str, name: str, patterns: list[Pattern], context: list[str],
                    lang: str) -> PatternRecognizer:
    return PatternRecognizer(supported_entity=entity, name=name, patterns=patterns,
                             context=context, supported_language=lang,
                             global_regex_flags=OWN_PATTERN_FLAGS)


def own_recognizers(lang: str) -> list[EntityRecognizer]:
    """The project's own recognizers for `lang` (dates, postal codes, case numbers,
    dictation signs, phone numbers after a phone word; German streets and hospitals)."""
    places = [
        _own_recognizer(entity, f"{prefix}_{lang}", patterns, [], lang)
        for entity, prefix, patterns in ((STREET_ENTITY, "DeidStreet", street_patterns(lang)),
                                         (HOSPITAL_ENTITY, "DeidHospital",
                                          hospital_patterns(lang)))
        if patterns
    ]
    return [
        *places,
        _own_recognizer(PHONE_ENTITY, f"DeidPhoneAfterCue_{lang}",
                        phone_after_cue_patterns(lang), [], lang),
        _own_recognizer(DATE_ENTITY, f"DeidDate_{lang}", date_patterns(lang),
                        DATE_CONTEXT[lang], lang),
        _own_recognizer(POSTAL_CODE_ENTITY, f"DeidPostalCode_{lang}", postal_code_patterns(lang),
                        POSTAL_CODE_CONTEXT[lang], lang),
        _own_recognizer(CASE_NUMBER_ENTITY, f"DeidCaseNumber_{lang}", case_number_patterns(lang),
                        CASE_NUMBER_CONTEXT[lang], lang),
        _own_recognizer(DICTATION_SIGN_ENTITY, f"DeidDictationSign_{lang}",
                        dictation_sign_patterns(), [], lang),
    ]


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


def build_recognizers(lang: str, phone_score: float = 0.4, possible_phone_score: float = 0.2,
                      extra_context: dict[str, list[str]] | None = None
                      ) -> list[EntityRecognizer]:
    """All recognizers for `lang`; `extra_context` adds context words per fine label."""
    validate_language(lang)
    recognizers = (generic_recognizers(lang, phone_score, possible_phone_score)
                   + country_recognizers(lang) + own_recognizers(lang))
    for recognizer in recognizers:
        labels = {fine_label(entity) for entity in recognizer.supported_entities}
        for label in sorted(labels):
            words = (extra_context or {}).get(label, [])
            recognizer.context = list(recognizer.context or []) + [w.lower() for w in words]
    return recognizers
