import spacy

from scripts.corpus.retokenize import main


def test_each_language_gets_its_own_tokenizer(tmp_path):
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {
        "@tokenizers": "spacy_deid.Tokenizer.v1", "lang": "xx"}}})
    nlp.add_pipe("sentencizer")
    nlp.to_disk(tmp_path / "multi")
    main(tmp_path / "multi", tmp_path / "out", langs="tr,de")
    turkish = spacy.load(tmp_path / "out" / "tr" / "model-best")
    german = spacy.load(tmp_path / "out" / "de" / "model-best")
    assert turkish.config["nlp"]["tokenizer"]["lang"] == "tr"
    assert turkish.pipe_names == ["sentencizer"]
    # German keeps its abbreviation exceptions; the multilingual tokenizer has none of them
    assert [t.text for t in german("z.B. heute")] == ["z.B.", "heute"]
    assert [t.text for t in turkish("Ankara'da")] == ["Ankara", "'", "da"]
