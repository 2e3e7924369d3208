"""Read INCEpTION exports (UIMA CAS JSON and XMI) into plain text, PHI spans and sentences.

Offsets in UIMA CAS count UTF-16 code units; they are converted to Python string
offsets, and a leading byte-order mark is removed with every offset shifted.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

from spacy_deid.schema import PHI_LABELS
from spacy_deid.translate.inline_tags import CharSpan

PHI_TYPE = "webanno.custom.PHI"
SENTENCE_TYPE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"
SOFA_TYPE = "uima.cas.Sofa"
BYTE_ORDER_MARK = "\ufeff"
UNLABELLED_AGE = re.compile(r"[0-9]{1,3}")


class CasFormatError(ValueError):
    """A malformed INCEpTION export; the message names the file and the position."""


@dataclass
class CasDocument:
    """One annotated document: its name, plain text, PHI spans and sentence spans."""

    name: str
    text: str
    spans: list[CharSpan]
    sentences: list[tuple[int, int]]


@dataclass
class RawAnnotation:
    """An annotation as found in the export, offsets still in UTF-16 code units."""

    begin: int
    end: int
    kind: str | None


def document_name(path: Path) -> str:
    """`Albers.txt_phi.json` -> `Albers`: the name shared by every language's copy."""
    return path.name.split(".", 1)[0]


def _utf16_to_index(text: str) -> list[int]:
    """Map each UTF-16 offset (0..len) to a Python string index."""
    mapping: list[int] = []
    for index, char in enumerate(text):
        mapping.append(index)
        if ord(char) > 0xFFFF:
            mapping.append(index)
    mapping.append(len(text))
    return mapping


def label_for(annotation: RawAnnotation, text: str, source: str) -> str:
    """The label of a PHI annotation, applying the documented rule for a missing `kind`.

    Rule: a span without a label whose text is a number of one to three digits is an AGE
    (GraSCCo_PHI has exactly one such span); any other unlabelled span is an error.
    """
    if annotation.kind:
        if annotation.kind not in PHI_LABELS:
            raise CasFormatError(f"{source}: offset {annotation.begin}: unknown PHI label "
                                 f"{annotation.kind!r}")
        return annotation.kind
    if UNLABELLED_AGE.fullmatch(text[annotation.begin : annotation.end].strip()):
        return "AGE"
    raise CasFormatError(f"{source}: offset {annotation.begin}: PHI span without a label "
                         f"that is not a one- to three-digit age")


def build_document(name: str, sofa: str, phi: list[RawAnnotation],
                   sentences: list[tuple[int, int]], source: str) -> CasDocument:
    """Turn raw CAS annotations into a CasDocument (BOM removed, offsets made Python offsets)."""
    to_index = _utf16_to_index(sofa)
    units = len(to_index) - 1

    def convert(begin: int, end: int) -> tuple[int, int]:
        if not 0 <= begin <= end <= units:
            raise CasFormatError(f"{source}: annotation [{begin}, {end}) lies outside the text "
                                 f"of length {units}")
        return to_index[begin], to_index[end]

    shift = len(sofa) - len(sofa.lstrip(BYTE_ORDER_MARK))
    text = sofa[shift:]
    spans = []
    for annotation in phi:
        begin, end = convert(annotation.begin, annotation.end)
        label = label_for(RawAnnotation(begin, end, annotation.kind), sofa, source)
        # a span that starts on the byte-order mark starts on the first real character
        begin = max(begin, shift)
        if end <= begin:
            raise CasFormatError(f"{source}: offset {annotation.begin}: span covers only the "
                                 f"byte-order mark")
        spans.append(CharSpan(begin - shift, end - shift, label))
    sentence_spans = []
    for begin, end in sentences:
        begin, end = convert(begin, end)
        sentence_spans.append((max(begin - shift, 0), max(end - shift, 0)))
    return CasDocument(name, text, sorted(spans), sorted(sentence_spans))


def read_cas_json(path: Path) -> CasDocument:
    """Read an INCEpTION UIMA CAS JSON export."""
    source = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        structures = data["%FEATURE_STRUCTURES"]
    except json.JSONDecodeError as error:
        raise CasFormatError(f"{source}:{error.lineno}:{error.colno}: invalid JSON: "
                             f"{error.msg}") from error
    except (KeyError, TypeError) as error:
        raise CasFormatError(f"{source}: no %FEATURE_STRUCTURES list") from error
    sofas = [s for s in structures if s.get("%TYPE") == SOFA_TYPE and "sofaString" in s]
    if not sofas:
        raise CasFormatError(f"{source}: no uima.cas.Sofa with a sofaString")
    phi = [RawAnnotation(int(s["begin"]), int(s["end"]), s.get("kind"))
           for s in structures if s.get("%TYPE") == PHI_TYPE]
    sentences = [(int(s["begin"]), int(s["end"]))
                 for s in structures if s.get("%TYPE") == SENTENCE_TYPE]
    return build_document(document_name(Path(path)), sofas[0]["sofaString"], phi, sentences,
                          source)


def _local_name(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def read_cas_xmi(path: Path) -> CasDocument:
    """Read an INCEpTION UIMA CAS XMI export (custom PHI layer, DKPro sentences)."""
    source = str(path)
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        line, column = error.position
        raise CasFormatError(f"{source}:{line}:{column}: invalid XML") from error
    sofa = None
    phi: list[RawAnnotation] = []
    sentences: list[tuple[int, int]] = []
    for element in root:
        name = _local_name(element.tag)
        if name == "Sofa" and "sofaString" in element.attrib:
            sofa = element.attrib["sofaString"]
        elif name == "PHI" and element.tag.startswith("{http:///webanno/custom.ecore}"):
            phi.append(RawAnnotation(int(element.attrib["begin"]), int(element.attrib["end"]),
                                     element.attrib.get("kind")))
        elif name == "Sentence":
            sentences.append((int(element.attrib["begin"]), int(element.attrib["end"])))
    if sofa is None:
        raise CasFormatError(f"{source}: no cas:Sofa with a sofaString")
    return build_document(document_name(Path(path)), sofa, phi, sentences, source)
