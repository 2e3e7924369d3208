"""LearnedData: what a rule component learned goes to one JSON file and comes back."""

import pytest

from spacy_deid.detect.learned_data import LearnedData


class Words(LearnedData):
    data_file = "words.json"
    factory = "words_component"

    def __init__(self, words=()):
        self.words = set(words)

    def learned(self):
        return {"words": sorted(self.words)}

    def load_learned(self, data):
        self.words = set(data["words"])


def test_bytes_round_trip():
    assert Words().from_bytes(Words({"und", "et"}).to_bytes()).words == {"und", "et"}


def test_disk_round_trip_writes_one_json_file(tmp_path):
    Words({"و"}).to_disk(tmp_path / "component")
    assert [p.name for p in (tmp_path / "component").iterdir()] == ["words.json"]
    assert Words().from_disk(tmp_path / "component").words == {"و"}


def test_a_missing_file_names_the_component_and_the_path(tmp_path):
    with pytest.raises(ValueError, match=r"words_component: .*words\.json is missing"):
        Words().from_disk(tmp_path)


class Cues(LearnedData):
    data_file = "cues.json"
    factory = "cues_component"

    def __init__(self, cues):
        self.cues = cues

    def learned(self):
        return {"cues": self.cues}

    def load_learned(self, data):
        self.cues = data["cues"]


def test_the_same_learned_mapping_saves_to_the_same_bytes_whatever_its_order(tmp_path):
    one = Cues({"Station": "ID", "Zimmer": "ID", "Frau": "NAME_PATIENT"})
    two = Cues({"Frau": "NAME_PATIENT", "Zimmer": "ID", "Station": "ID"})
    one.to_disk(tmp_path / "one")
    two.to_disk(tmp_path / "two")
    assert (tmp_path / "one" / "cues.json").read_bytes() == \
        (tmp_path / "two" / "cues.json").read_bytes()
    assert one.to_bytes() == two.to_bytes()
    assert Cues({}).from_disk(tmp_path / "two").cues == one.cues
