"""scripts.evaluation.ablation_tables: the docs' tables made from ablate_rules' files."""

import pytest
import srsly
import typer

from scripts.evaluation import ablation_tables


def scores(r, p, f1, names, ids):
    return {"strict_micro": {"r": r, "p": p, "f1": f1}, "names_caught": names, "ids_caught": ids}


def variants(all_on, without_recase, without_cues):
    return {"all": all_on, "without deid_recase": without_recase,
            "without deid_id_cues": without_cues}


SAME_DE = {"letters": scores(0.8, 0.7, 0.75, 1.0, 1.0),
           "synthetic": scores(0.7, 0.6, 0.65, 0.9, 0.9)}
SAME_FA = {"letters": scores(0.9, 0.8, 0.85, 1.0, None),
           "synthetic": scores(0.8, 0.7, 0.75, 1.0, 1.0)}
LANGUAGES = {
    "de": variants(SAME_DE, SAME_DE, {"letters": SAME_DE["letters"],
                                      "synthetic": scores(0.6, 0.6, 0.6, 0.9, 0.8)}),
    "fa": variants(SAME_FA, SAME_FA, {"letters": SAME_FA["letters"],
                                      "synthetic": scores(0.7, 0.8, 0.75, 1.0, 0.6)}),
}


def test_the_mean_change_of_each_switched_off_component_per_source():
    table = ablation_tables.ablation_table(LANGUAGES).splitlines()
    assert table[0].startswith("| switched off | letters R |")
    assert table[2] == ("| without `deid_recase` | +0.000 | +0.000 | +0.000 | +0.000 | "
                        "+0.000 | +0.000 | +0.000 | +0.000 |")
    # other genres: R -0.1 in both; P 0 and +0.1; IDs -0.1 and -0.4; letters' IDs of fa unmeasured
    assert table[3] == ("| without `deid_id_cues` | +0.000 | +0.000 | +0.000 | +0.000 | "
                        "-0.100 | +0.050 | +0.000 | -0.250 |")


def test_the_recase_table_reads_without_then_with_and_marks_what_is_unmeasured():
    languages = {"fa": dict(LANGUAGES["fa"])}
    languages["fa"]["without deid_recase"] = {
        "letters": scores(0.9, 0.8, 0.8, 0.5, None), "synthetic": scores(0.8, 0.7, 0.7, 0.4, 1.0)}
    row = ablation_tables.recase_table(languages).splitlines()[2]
    assert row == "| fa | 0.800 → 0.850 | 0.50 → 1.00 | 0.700 → 0.750 | 0.40 → 1.00 | 1.00 → 1.00 |"


def test_the_command_prints_a_file_and_refuses_a_missing_one(tmp_path, capsys):
    path = tmp_path / "ablation.json"
    srsly.write_json(path, {"languages": LANGUAGES})
    ablation_tables.main(path, recase=False)
    assert "without `deid_id_cues`" in capsys.readouterr().out
    with pytest.raises(typer.Exit) as exit_info:
        ablation_tables.main(tmp_path / "none.json", recase=False)
    assert exit_info.value.exit_code == 1 and "no file" in capsys.readouterr().err
    srsly.write_json(path, {"languages": {}})
    with pytest.raises(typer.Exit):
        ablation_tables.main(path, recase=False)
    assert "no language" in capsys.readouterr().err


def test_a_change_that_rounds_to_zero_has_no_minus_sign():
    assert ablation_tables.signed(-0.0004) == "+0.000"
    assert ablation_tables.signed(-0.0006) == "-0.001"
