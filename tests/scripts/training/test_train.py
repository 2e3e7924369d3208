from pathlib import Path

from scripts.training.train import longest_first, overrides_for, split_overrides, train_command


def test_overrides_become_separate_arguments() -> None:
    assert split_overrides(["--training.max_steps=1500", "--paths.x=a=b"]) == [
        "--training.max_steps", "1500", "--paths.x", "a=b"]


def test_only_the_multilingual_model_gets_its_own_overrides_and_they_come_last() -> None:
    common = ["--training.max_steps", "1500"]
    own = ["--training.max_steps", "2000"]
    assert overrides_for("de", common, own) == common
    assert overrides_for("xx", common, own) == common + own
    command = train_command(Path("configs/cpu.cfg"), Path("splits"), Path("training"), "xx", -1,
                            overrides_for("xx", common, own))
    assert command[-4:] == common + own
    assert command[command.index("--nlp.tokenizer.lang") + 1] == "xx"
    assert command[command.index("--paths.train") + 1] == str(Path("splits/xx/train.spacy"))


def test_the_multilingual_model_trains_first_and_the_rest_keep_their_order() -> None:
    assert longest_first(["de", "en", "xx", "ar"]) == ["xx", "de", "en", "ar"]
    assert longest_first(["pl", "de"]) == ["pl", "de"]
