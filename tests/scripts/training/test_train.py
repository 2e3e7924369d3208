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


def test_the_times_file_names_the_device(monkeypatch) -> None:
    from scripts.training import train

    assert train.device_name(-1) == "cpu"
    import torch

    monkeypatch.setattr(torch.cuda, "get_device_name", lambda gpu_id: f"Test GPU {gpu_id}")
    assert train.device_name(1) == "Test GPU 1"

    def no_cuda(gpu_id):
        raise AssertionError("Torch not compiled with CUDA enabled")

    monkeypatch.setattr(torch.cuda, "get_device_name", no_cuda)
    assert train.device_name(0) == "cuda:0"
