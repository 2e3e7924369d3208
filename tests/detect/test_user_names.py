import pytest

from tests.annotated_docs import annotated, blank


def pipeline(lang="de", config=None):
    nlp = blank(lang)
    nlp.add_pipe("deid_user_names", config=config or {})
    return nlp


def with_entities(nlp, text, entities):
    return nlp.get_pipe("deid_user_names")(annotated(nlp, text, entities))


def usernames(doc):
    return [e.text for e in doc.ents if e.label_ == "NAME_USERNAME"]


@pytest.mark.parametrize(("lang", "text", "name", "login"), [
    ("de", "Befund: Dr. Jonas Weidenbach. Freigabe: jweidenbach", "Jonas Weidenbach",
     "jweidenbach"),
    ("en", "Seen by Laura Penhallow, RN. Entered by lpenhallow2", "Laura Penhallow",
     "lpenhallow2"),
    ("tr", "Onay: Dr. Kerem Ağaoğlu. Kullanıcı: rad_kagaoglu", "Kerem Ağaoğlu",
     "rad_kagaoglu"),
    ("ru", "Врач Жуковская Лада Сергеевна. Исп.: zhukovskaya_ls", "Жуковская Лада Сергеевна",
     "zhukovskaya_ls"),
    ("uk", "Лікар Гнатюк Олег. Підписано: o.hnatiuk", "Гнатюк Олег", "o.hnatiuk"),
    ("ar", "الطبيب سامر القحطاني. توقيع: sqahtani", "سامر القحطاني", "sqahtani"),
    ("fa", "پزشک پریسا دهقان‌پور. امضا: p.dehghanpour", "پریسا دهقان‌پور", "p.dehghanpour"),
])
def test_a_login_made_from_a_detected_name_is_a_username(lang, text, name, login):
    doc = with_entities(pipeline(lang), text, [(name, "NAME_DOCTOR")])
    assert usernames(doc) == [login]


def test_initials_count_only_in_brackets_after_the_name():
    nlp = pipeline("it")
    text = "TSRM: Rocco Lanfranchi (RL). Esame RL negativo. (RL)"
    doc = with_entities(nlp, text, [("Rocco Lanfranchi", "NAME_OTHER")])
    assert [(e.text, e.start_char) for e in doc.ents if e.label_ == "NAME_USERNAME"] == [
        ("RL", 24)]


def test_the_initials_window_is_a_setting():
    text = "Pflege: Greta Hollmann, Stationsleitung der Klinik für Innere Medizin (GH)"
    assert usernames(with_entities(pipeline("de"), text, [("Greta Hollmann", "NAME_OTHER")])) == []
    doc = with_entities(pipeline("de", {"window": 8}), text, [("Greta Hollmann", "NAME_OTHER")])
    assert usernames(doc) == ["GH"]


def test_ordinary_words_surnames_alone_and_addresses_are_left_alone():
    nlp = pipeline("en")
    text = ("Dr. Bea Rain reviewed. rain expected; bains; e-mail b.rain@example.org; "
            "see www.brain.example or /home/brain/notes. Login: brain")
    doc = with_entities(nlp, text, [("Bea Rain", "NAME_DOCTOR")])
    assert usernames(doc) == ["brain"]


def test_short_latin_spellings_of_arabic_names_are_not_whole_words():
    # "علي" may be spelt "li": too short to stand for the whole name in "ml"
    nlp = pipeline("ar")
    text = "الطبيب محمد علي. جرعة 5 ml"
    doc = with_entities(nlp, text, [("محمد علي", "NAME_DOCTOR")])
    assert usernames(doc) == []


def test_existing_entities_win_and_people_without_two_words_are_skipped():
    nlp = pipeline("de")
    text = "Herr Brandauer, Benutzer kbrandauer. Dr. Kai Brandauer; Ausweis kbrandauer"
    doc = with_entities(nlp, text, [("Brandauer", "NAME_PATIENT"), ("kbrandauer", "ID")])
    assert usernames(doc) == []
    doc = with_entities(nlp, text, [("kbrandauer", "ID"),
                                    ("Kai Brandauer", "NAME_DOCTOR")])
    assert [(e.text, e.label_) for e in doc.ents if e.text == "kbrandauer"] == [
        ("kbrandauer", "ID"), ("kbrandauer", "NAME_USERNAME")]


def test_a_login_takes_the_place_of_its_role_read_as_a_title():
    nlp = pipeline("tr")
    text = "Raporu yazan: Prof. Dr. Cem Yalınkaya\nOnay: PROF-cyalinkaya – 12.03.2024"
    doc = with_entities(nlp, text, [("Prof. Dr.", "NAME_TITLE"),
                                    ("Cem Yalınkaya", "NAME_DOCTOR"), ("PROF", "NAME_TITLE")])
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("Prof. Dr.", "NAME_TITLE"), ("Cem Yalınkaya", "NAME_DOCTOR"),
        ("PROF-cyalinkaya", "NAME_USERNAME")]


@pytest.mark.parametrize("config", [{"min_whole": 1}, {"window": -1}])
def test_bad_settings_are_refused(config):
    with pytest.raises(ValueError, match="deid_user_names"):
        pipeline("de", config)


@pytest.mark.parametrize(("lang", "min_shortened", "text", "name", "login"), [
    ("en", 4, "Call taken by: Abby Nordholm, RN (anordh). Cancelled, anordh",
     "Abby Nordholm", "anordh"),
    ("ru", 3, "Врач Лапшина Елена Фёдоровна. Исп.: lap_ef", "Лапшина Елена Фёдоровна",
     "lap_ef"),
])
def test_a_login_may_shorten_a_name_word_to_min_shortened_letters(lang, min_shortened, text,
                                                                   name, login):
    assert usernames(with_entities(pipeline(lang), text, [(name, "NAME_DOCTOR")])) == []
    doc = with_entities(pipeline(lang, {"min_shortened": min_shortened}), text,
                        [(name, "NAME_DOCTOR")])
    assert set(usernames(doc)) == {login}


def test_a_name_word_shortened_below_min_shortened_letters_is_no_login():
    text = "Validated by Kira Schellhorn. Signed: ksch"
    doc = with_entities(pipeline("en", {"min_shortened": 4}), text,
                        [("Kira Schellhorn", "NAME_DOCTOR")])
    assert usernames(doc) == []


def test_min_shortened_below_min_whole_is_refused():
    with pytest.raises(ValueError, match="min_shortened"):
        pipeline("en", {"min_shortened": 2})


@pytest.mark.parametrize(("lang", "text", "name"), [
    ("en", "Call taken by: Abby Nordholm, RN. Cancelled, Anordh", "Abby Nordholm"),
    ("ar", "الطبيب تامر عفوريان. tavor 1 mg", "تامر عفوريان"),
])
def test_shortened_name_words_need_a_cased_script_and_a_login_without_capitals(lang, text, name):
    doc = with_entities(pipeline(lang, {"min_shortened": 4}), text, [(name, "NAME_DOCTOR")])
    assert usernames(doc) == []
