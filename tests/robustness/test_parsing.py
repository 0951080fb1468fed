"""Item 4: bounded parsing.  YAML takes no aliases and has a size limit, JSON a size and a
depth limit, a truncated ``.json.gz`` is a data error, a byte-order mark and ``\\r\\n``
line ends are read one way for files and stdin, a wrong encoding is named by file and
line, and ``arena serve`` answers a hostile body with a 4xx, never a 500."""

from __future__ import annotations

import gzip
import io
import json
import re

import pytest

from tests.robustness.helpers import invoke, refused, write_experiment

LAUGHS = "\n".join(
    ["lol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"lol{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
) + "\n"


@pytest.mark.parametrize(
    ("extra", "line", "expect"),
    [
        (LAUGHS, 10, "alias *a0 refused"),  # a billion laughs: 10^9 strings from nine lines
        ("loop: &self [*self]\n", 9, "alias *self refused"),  # recursive
        ("description: &d x\nmore: *d\n", 10, "alias *d refused"),  # even a harmless one: one rule
    ],
    ids=["billion-laughs", "recursive", "plain-alias"],
)
@pytest.mark.parametrize("verb", ["validate", "run"])
def test_yaml_aliases_are_refused_naming_file_and_line(verb, extra, line, expect, tmp_path, testset, capsys):
    config = write_experiment(tmp_path / "exp.yaml", testset, extra)
    argv = [verb, config] + (["--out", tmp_path / "runs", "--no-progress"] if verb == "run" else [])
    refused(argv, capsys, f"{config}:{line}", expect)
    assert not (tmp_path / "runs").exists()


def test_an_oversized_yaml_file_is_refused_before_it_is_parsed(tmp_path, testset, capsys, monkeypatch):
    from arena.specs import yamlio

    monkeypatch.setattr(yamlio, "MAX_YAML_BYTES", 1024)
    config = write_experiment(tmp_path / "exp.yaml", testset, "description: " + "x" * 2000 + "\n")
    refused(["validate", config], capsys, f"{config}:", "at most 1024 bytes")


@pytest.mark.parametrize(
    ("name", "content", "expect"),
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000, "nested more than 200 levels"),
        ("deep-object.json", '{"a": ' * 300 + "1" + "}" * 300, "nested more than 200 levels"),
        ("cut.json", '{"templates": {"a": ', "malformed JSON"),
        ("latin.json", "{\"name\": \"Gr\xf6\xdfe\"}", ":1: not valid UTF-8"),
    ],
    ids=["deep-array", "deep-object", "cut", "latin-1"],
)
def test_json_limits_and_damage_are_data_errors(name, content, expect, tmp_path, capsys):
    path = tmp_path / name
    path.write_bytes(content.encode("latin-1"))
    refused(["template", "--spec", path, "--all"], capsys, str(path), expect)


@pytest.mark.parametrize("keep", [0.5, 0.9, 10], ids=["half", "most", "header-only"])
def test_a_truncated_json_gz_is_a_data_error(keep, tmp_path, capsys):
    data = gzip.compress(json.dumps({"templates": {f"t{i}": "x" * 50 for i in range(200)}}).encode())
    path = tmp_path / "spec.json.gz"
    path.write_bytes(data[: int(len(data) * keep)] if keep < 1 else data[:keep])
    refused(["template", "--spec", path, "--all"], capsys, str(path), "damaged gzip file")


def test_a_json_gz_that_is_no_gzip_is_a_data_error(tmp_path, capsys):
    path = tmp_path / "spec.json.gz"
    path.write_text('{"templates": {}}', encoding="utf-8")
    refused(["template", "--spec", path, "--all"], capsys, str(path), "damaged gzip file")


@pytest.mark.parametrize(
    "encode",
    [lambda text: text.encode("utf-8"), lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
     lambda text: text.replace("\n", "\r\n").encode("utf-8")],
    ids=["plain", "bom", "crlf"],
)
def test_a_config_with_a_bom_or_crlf_reads_as_the_plain_one(encode, tmp_path, testset, capsys):
    """Must not fire: a byte-order mark and Windows line ends are the same config."""
    config = write_experiment(tmp_path / "exp.yaml", testset)
    config.write_bytes(encode(config.read_text(encoding="utf-8")))
    status, stdout, stderr = invoke(["validate", config], capsys)
    assert status == 0 and "experiment 'robust'" in stdout, stderr


def _corrupt(capsys, monkeypatch, data: bytes, *extra: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    return invoke(["corrupt", "--zellig", "placeholder-ding", "--format", "jsonl", "--no-progress", *extra], capsys)


@pytest.mark.parametrize(
    ("data", "inputs"),
    [
        (b"Das Haus ist alt.\nEr kam.\n", ["Das Haus ist alt.", "Er kam."]),
        (b"\xef\xbb\xbfDas Haus ist alt.\r\nEr kam.\r\n", ["Das Haus ist alt.", "Er kam."]),  # BOM and CRLF dropped
    ],
    ids=["plain", "bom-crlf"],
)
def test_corrupt_reads_stdin_by_the_one_rule(data, inputs, capsys, monkeypatch):
    status, stdout, stderr = _corrupt(capsys, monkeypatch, data)
    assert status == 0, stderr
    assert [json.loads(line)["input"] for line in stdout.splitlines()] == inputs


def test_corrupt_refuses_a_lone_cr_by_the_text_policy(capsys, monkeypatch):
    status, stdout, stderr = _corrupt(capsys, monkeypatch, b"Das Haus\rist alt.\nEr kam.")  # no line end, no text
    assert status == 2 and "<stdin>:1: the line holds a line break" in stderr and stdout == "", stderr


def test_corrupt_names_the_line_of_latin_1_input(capsys, monkeypatch, tmp_path):
    data = "Das Haus ist alt.\nDie Größe stimmt.\n".encode("latin-1")
    status, stdout, stderr = _corrupt(capsys, monkeypatch, data)
    assert status == 2 and "<stdin>:2: not valid UTF-8" in stderr and "Traceback" not in stderr, stderr
    path = tmp_path / "latin.txt"
    path.write_bytes(data)
    refused(["corrupt", "--zellig", "placeholder-ding", "--input", path, "--no-progress"], capsys, f"{path}:2: not valid")


# -- arena serve: the same limits on every endpoint -------------------------------------------

HOST = "127.0.0.1:8765"
ORIGIN = f"http://{HOST}"


@pytest.fixture
def client(tmp_path, testset):
    from arena.engine import InProcessBackend, prepare
    from arena.people.web import Arena, create_app
    from arena.specs.config import load_experiment
    from performers.catalog import CATALOG

    experiment = load_experiment(write_experiment(tmp_path / "exp.yaml", testset))
    run_dir, rounds = prepare(experiment, CATALOG, tmp_path / "runs", InProcessBackend(CATALOG))
    app = create_app(Arena(run_dir, rounds, None, experiment.name), None, [HOST])
    client = app.test_client()
    page = client.get("/", base_url=ORIGIN)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    client.post("/login", data={"name": "ann", "csrf": csrf}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    return client, csrf


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"[" * 30_000 + b"]" * 30_000, 400),  # deep: the parser's recursion, once an HTTP 500
        (b'{"round": ' * 20 + b"1" + b"}" * 20, 400),
        (b'{"round": "x", "choice": 0' , 400),  # cut
        (b"\xff\xfe{}", 400),  # not UTF-8
        (b'{"round": "' + b"x" * 100_000 + b'", "choice": 0}', 413),  # above the body limit
        (b"null", 400),
    ],
    ids=["deep-array", "deep-object", "cut", "not-utf8", "too-large", "null"],
)
def test_serve_answers_a_hostile_body_with_a_4xx(body, status, client):
    client, csrf = client
    response = client.post("/api/judge", data=body, content_type="application/json", base_url=ORIGIN,
                           headers={"X-CSRF-Token": csrf, "Origin": ORIGIN})
    assert response.status_code == status, response.get_data(as_text=True)
    assert "error" in response.get_json()


def test_serve_still_takes_a_good_judgement(client):
    """Must not fire: a well-formed judgement is written."""
    client, csrf = client
    round_id = client.get("/api/next", base_url=ORIGIN).get_json()["round"]
    response = client.post("/api/judge", json={"round": round_id, "choice": 1}, base_url=ORIGIN,
                           headers={"X-CSRF-Token": csrf, "Origin": ORIGIN})
    assert response.status_code == 200 and response.get_json()["written"], response.get_data(as_text=True)
