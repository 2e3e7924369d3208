"""`spacy-deid review`: the HTML report's structure; originals marked by label on one side,
the anonymized output, free of the originals, on the other."""

from html.parser import HTMLParser

from tests.cli.helpers import write
from tests.cli_output import plain_output

LETTER = "Patientin Anna Berg kam am 12.03.2021 in die Klinik.\nMax Huber begleitete sie."


class Regions(HTMLParser):
    """Text inside the elements of given classes, per element; the displaCy labels."""

    WATCHED = ("document", "original", "anonymized", "checks")

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str | None] = []
        self.found: dict[str, list[str]] = {name: [] for name in self.WATCHED}
        self.marks = 0
        self.labels: list[str] = []
        self.in_label = False
        self.title = ""
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        watched = next((c for c in classes if c in self.WATCHED), None)
        if watched:
            self.found[watched].append("")
        self.marks += tag == "mark" and "entity" in classes
        self.in_label = tag == "span" and any(self.stack) and "original" in self.stack
        self.in_title = tag == "title"
        if tag not in ("br", "meta"):
            self.stack.append(watched)

    def handle_endtag(self, tag):
        if tag not in ("br", "meta") and self.stack:
            self.stack.pop()
        self.in_label = self.in_title = False

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if self.in_label:
            self.labels.append(data.strip())
        for name in set(self.stack) - {None}:
            self.found[name][-1] += data


def parse(path) -> Regions:
    regions = Regions()
    regions.feed(path.read_text(encoding="utf-8"))
    return regions


def test_the_report_marks_originals_and_shows_clean_output(cli, tmp_path):
    source, output, report = tmp_path / "in", tmp_path / "out", tmp_path / "report"
    write(source / "a.txt", LETTER)
    write(source / "b.txt", "Anna Berg")
    assert cli("run", source, output).exit_code == 0
    result = cli("review", output, report, "--per-document", "--sample", "5")
    assert result.exit_code == 0, result.output
    regions = parse(report / "index.html")
    assert regions.title.startswith("De-identification review, run ")
    assert len(regions.found["document"]) == len(regions.found["original"]) == 2
    assert regions.marks == 4
    assert sorted(regions.labels) == ["DATE", "NAME_PATIENT", "NAME_PATIENT", "NAME_PATIENT"]
    assert "Anna Berg" in regions.found["original"][0]
    for anonymized in regions.found["anonymized"]:
        assert anonymized.startswith("Anonymized output")
        for original in ("Anna Berg", "Max Huber", "12.03.2021"):
            assert original not in anonymized
    assert "in die Klinik." in regions.found["anonymized"][0]
    assert all("no detected original appears" in c for c in regions.found["checks"])
    pages = sorted((report / "documents").glob("*.html"))
    assert [p.name for p in pages] == ["0001.html", "0002.html"]
    assert len(parse(pages[0]).found["original"]) == 1


def test_the_report_flags_a_leak_and_stays_out_of_output(cli, tmp_path):
    source, output = tmp_path / "in", tmp_path / "out"
    write(source / "a.txt", LETTER)
    assert cli("run", source, output).exit_code == 0
    write(output / "a.txt", LETTER)  # as if the output had not been anonymized
    result = cli("review", output, tmp_path / "report")
    assert result.exit_code == 0, result.output
    checks = parse(tmp_path / "report" / "index.html").found["checks"][0]
    assert "“Anna Berg” still appears" in checks
    inside = cli("review", output, output / "report")
    assert inside.exit_code == 2 and "original text" in plain_output(inside)
