from __future__ import annotations

import pytest

from arena.errors import ConfigError
from arena.specs.conformance import assert_conforms, check_john
from performers.john.newstest import NewstestJohn, parse_years
from tests.conftest import DATA
from tests.performers.built import built


@pytest.mark.parametrize(
    "years, expected",
    [
        (2009, (2009,)),
        ("2009-2011", (2009, 2010, 2011)),
        ("2009,2011", (2009, 2011)),
        ([2012, "2009-2010", 2012], (2009, 2010, 2012)),
        ("2016 - 2016", (2016,)),
    ],
)
def test_parse_years(years, expected):
    assert parse_years(years) == expected


@pytest.mark.parametrize(
    "years, error, message",
    [
        ("2011-2009", ValueError, "runs backwards"),
        ("newstest", ValueError, "is not a year"),
        ([], ValueError, "no year"),
        (True, ConfigError, "expected a year"),
        (3.5, ConfigError, "expected a year"),
        (20090, ValueError, "plausible"),
    ],
)
def test_parse_years_rejects(years, error, message):
    with pytest.raises(error, match=message):
        parse_years(years)


def write_year(directory, year, english, german):
    (directory / f"newstest{year}.en").write_text(english, encoding="utf-8")
    (directory / f"newstest{year}.de").write_text(german, encoding="utf-8")


def test_ids_meta_and_order(tmp_path):
    write_year(tmp_path, 2010, "Good morning.\nA house.\n", "Guten Morgen.\nEin Haus.\n")
    write_year(tmp_path, 2009, "Hello there.\n", "Hallo du.\n")
    john = NewstestJohn(str(tmp_path), years="2009-2010")
    instances = list(john.instances())
    assert [i.id for i in instances] == ["newstest2009.1", "newstest2010.1", "newstest2010.2"]
    assert instances[2].reference == "Ein Haus."
    assert instances[2].meta == {
        "origin": "newstest2010", "line": 2, "year": 2010, "reference_kind": "human", "length": 2,
        "reference_length": 2,
    }
    assert_conforms(check_john(john), "newstest")
    assert [i.id for i in NewstestJohn(str(tmp_path), years="2009-2010", limit=1).instances()] == [
        "newstest2009.1", "newstest2010.1",
    ]


@pytest.mark.parametrize(
    "english, german, message",
    [
        ("a\nb\n", "A\n", r"newstest2009.en has 2 lines but .*newstest2009.de has 1"),
        ("a\n\nc\n", "A\nB\nC\n", r"newstest2009.en:2: empty line"),
        ("a\n", b"\xff\n", r"newstest2009.de:1: not valid UTF-8"),
    ],
)
def test_bad_files_name_file_and_line(tmp_path, english, german, message):
    (tmp_path / "newstest2009.en").write_text(english, encoding="utf-8")
    if isinstance(german, bytes):
        (tmp_path / "newstest2009.de").write_bytes(german)
    else:
        (tmp_path / "newstest2009.de").write_text(german, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        list(NewstestJohn(str(tmp_path), years=2009).instances())


def test_missing_year_is_reported_before_any_work(tmp_path):
    write_year(tmp_path, 2009, "a\n", "A\n")
    with pytest.raises(ValueError, match=r"newstest2010.en: file not found"):
        next(NewstestJohn(str(tmp_path), years="2009-2010").instances())


def test_bad_limit():
    with pytest.raises(ValueError, match="parameter 'limit' must be an integer ≥ 1 or null, not 0"):
        built(NewstestJohn, dir=".", limit=0)


def test_real_newstest(data_dir):
    john = NewstestJohn(str(DATA / "wmt" / "newstest"), years=[2009, 2016], limit=20)
    instances = list(john.instances())
    assert len(instances) == 40
    first = instances[0]
    assert first.id == "newstest2009.1" and first.source.startswith("Prague Stock Market")
    assert first.reference == "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus."
    assert instances[20].id == "newstest2016.1"
