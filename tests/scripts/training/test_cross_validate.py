"""scripts/training/cross_validate.py: folds over the training split only; leakage summed
over folds."""

import pytest
import spacy
import typer
from spacy.tokens import DocBin

from scripts.corpus.split import load_docs
from scripts.training.cross_validate import sum_leakage, write_training_folds


def write_letters(path, texts):
    nlp = spacy.blank("de")
    docs = []
    for text in texts:
        doc = nlp(text)
        doc.user_data["doc_id"] = text.split()[0]
        docs.append(doc)
    path.parent.mkdir(parents=True, exist_ok=True)
    DocBin(docs=docs, store_user_data=True).to_disk(path)


@pytest.fixture
def splits(tmp_path):
    write_letters(tmp_path / "splits" / "de" / "train.spacy",
                  [f"brief{i} Text." for i in range(5)])
    write_letters(tmp_path / "splits" / "de" / "dev.spacy", ["entwicklung Text."])
    write_letters(tmp_path / "splits" / "de" / "test.spacy", ["pruefung Text."])
    return tmp_path / "splits"


def letter_ids(path):
    return [doc.user_data["doc_id"] for doc in load_docs(path)]


def test_a_fold_holds_out_every_kth_training_letter_and_keeps_the_dev_split(splits, tmp_path):
    write_training_folds(splits, "de", 3, 1, tmp_path / "fold1")
    assert letter_ids(tmp_path / "fold1" / "de" / "test.spacy") == ["brief1", "brief4"]
    assert letter_ids(tmp_path / "fold1" / "de" / "train.spacy") == ["brief0", "brief2",
                                                                       "brief3"]
    assert letter_ids(tmp_path / "fold1" / "de" / "dev.spacy") == ["entwicklung"]


def test_no_test_letter_of_the_document_split_is_used(splits, tmp_path):
    for fold in range(3):
        write_training_folds(splits, "de", 3, fold, tmp_path / f"fold{fold}")
        used = {name for split in ("train", "dev", "test")
                for name in letter_ids(tmp_path / f"fold{fold}" / "de" / f"{split}.spacy")}
        assert "pruefung" not in used


def test_bad_folds_are_refused(splits, tmp_path):
    with pytest.raises(typer.BadParameter, match="--fold"):
        write_training_folds(splits, "de", 3, 3, tmp_path / "out")
    with pytest.raises(typer.BadParameter, match="5 training documents"):
        write_training_folds(splits, "de", 6, 0, tmp_path / "out")


def test_leakage_is_summed_over_the_folds():
    reports = [{"spans": 100, "leaked": 7, "names_and_ids": {"spans": 30, "leaked": 2}},
               {"spans": 80, "leaked": 3, "names_and_ids": {"spans": 10, "leaked": 0}}]
    assert sum_leakage(reports) == {
        "folds": 2, "spans": 180, "leaked": 10,
        "names_and_ids": {"spans": 40, "leaked": 2, "leak_rate": 0.05}}


def run_folds(monkeypatch, tmp_path, **options):
    """The workflow steps `cross_validate.main` runs (module, arguments), none of them run."""
    from scripts.training import cross_validate

    calls = []
    monkeypatch.setattr(cross_validate, "run", lambda module, *args: calls.append((module, args)))
    settings = {"config": tmp_path / "cpu.cfg", "lang": "de", "train_lang": "", "n_folds": 3,
                "seed": 0, "max_steps": 30, "jobs": 1, "work_dir": tmp_path / "cv",
                "metrics_dir": tmp_path / "metrics", "training_split_only": False,
                "leakage": False, "override": [], "gpu_id": -1, "suffix": "",
                "reuse_models": False}
    cross_validate.main(**{**settings, **options})
    return calls


def test_every_fold_trains_with_the_steps_and_the_config_overrides(monkeypatch, tmp_path):
    calls = run_folds(monkeypatch, tmp_path, n_folds=2, override=["--paths.encoder=/encoders/e5"])
    trainings = [args for module, args in calls if module == "scripts.training.train"]
    assert len(trainings) == 2
    for args in trainings:
        assert args[-2:] == ("--override=--training.max_steps=30",
                             "--override=--paths.encoder=/encoders/e5")
    assert calls[-1][0] == "scripts.evaluation.evaluate" and calls[-1][1][0] == "aggregate"


def test_the_transformer_folds_train_one_multilingual_ner_on_the_gpu(monkeypatch, tmp_path):
    calls = run_folds(monkeypatch, tmp_path, config=tmp_path / "transformer.cfg",
                      train_lang="xx", jobs=2, gpu_id=0, suffix="_trf")
    by_module = {}
    for module, args in calls:
        by_module.setdefault(module, []).append(args)
    for args in by_module["scripts.training.train"]:
        assert args[args.index("--langs") + 1] == "xx"
        assert args[args.index("--gpu-id") + 1] == "0"
    for fold, args in enumerate(by_module["scripts.pipelines.assemble"]):
        assert args[args.index("--ner-model") + 1] == str(
            tmp_path / "cv" / f"fold{fold}" / "models" / "xx" / "model-best")
        assert args[args.index("--suffix") + 1] == "_trf"
    *folds, aggregate = by_module["scripts.evaluation.evaluate"]
    assert [args[args.index("--output") + 1] for args in folds] == [
        str(tmp_path / "metrics" / f"de_trf_fold{fold}.json") for fold in range(3)]
    assert all(args[args.index("--gpu-id") + 1] == "0" for args in folds)
    assert aggregate[0] == "aggregate"
    assert aggregate[-1] == str(tmp_path / "metrics" / "de_cv_trf.json")
    # on a GPU the folds run one after another: each is scored before the next is split
    modules = [module for module, _ in calls]
    assert modules[:8] == ["scripts.corpus.split", "scripts.training.train",
                           "scripts.pipelines.assemble", "scripts.evaluation.evaluate"] * 2


def test_cpu_folds_keep_their_command_lines_without_a_device(monkeypatch, tmp_path):
    calls = run_folds(monkeypatch, tmp_path)
    assert not any("--gpu-id" in args for _, args in calls)
    assert not any("--ner-model" in args for module, args in calls
                   if module == "scripts.pipelines.assemble")


def test_reused_fold_models_are_only_assembled_and_scored_again(monkeypatch, tmp_path):
    (tmp_path / "cv" / "fold1" / "models" / "de" / "model-best").mkdir(parents=True)
    calls = run_folds(monkeypatch, tmp_path, reuse_models=True)
    trained = [args[1] for module, args in calls if module == "scripts.training.train"]
    assert trained == [str(tmp_path / "cv" / "fold0" / "splits"),
                       str(tmp_path / "cv" / "fold2" / "splits")]
    assembled = [module for module, _ in calls if module == "scripts.pipelines.assemble"]
    assert len(assembled) == 3
