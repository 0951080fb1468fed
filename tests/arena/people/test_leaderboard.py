"""A run with two people (scripted browser clients) and the toy Claude: both people, their
agreement and majority vote, and the model in one leaderboard."""

from __future__ import annotations

import json
import re

from arena.codec import dump, load
from arena.people.web import Arena, create_app
from arena.present.console import format_leaderboards
from arena.record import transcripts
from arena.record.rounds import Round
from arena.specs.config import load_experiment
from arena.stats.aggregate import cohen_kappa
from arena.stats.leaderboards import build
from arena.stats.run import RunData
from performers.catalog import CATALOG
from tests.arena.engine.helpers import run as run_engine
from tests.arena.people.helpers import planned, write_config

ORIGIN = "http://127.0.0.1:8765"


def scripted_person(app, name: str, answer) -> None:
    """A client that signs in and answers every round with ``answer(round)``."""
    client = app.test_client()
    page = client.get("/", base_url=ORIGIN).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    headers = {"Origin": ORIGIN, "X-CSRF-Token": csrf}
    client.post("/login", data={"name": name, "csrf": csrf}, base_url=ORIGIN, headers=headers)
    while not (data := client.get("/api/next", base_url=ORIGIN).get_json())["finished"]:
        response = client.post("/api/judge", json={"round": data["round"], "choice": answer(data["round"])},
                               base_url=ORIGIN, headers=headers)
        assert response.status_code == 200


def test_two_people_and_the_toy_claude_in_one_leaderboard(tmp_path, distil_dir):
    config = write_config(tmp_path, distil_dir, claudes="[{name: toy-en-de, alias: toy}]", limit=6)
    experiment, run_dir, rounds = planned(config, tmp_path / "runs")
    key = {r.id: r.corrupted for r in rounds}
    order = [r.id for r in rounds]
    arena = Arena(run_dir, rounds, experiment.time_budget.claude_seconds_per_pair, experiment.name)
    app = create_app(arena, None, ["127.0.0.1:8765"])
    # ann finds the corruption except in the 3rd round, bob except in the 2nd and 5th
    scripted_person(app, "ann", lambda r: key[r] if order.index(r) != 2 else 1 - key[r])
    scripted_person(app, "bob", lambda r: key[r] if order.index(r) not in (1, 4) else 1 - key[r])

    result = run_engine(load_experiment(config), CATALOG, tmp_path / "runs", progress=False)
    assert result.run_dir == run_dir and [load(Round, r).id for r in
                                          transcripts.read_jsonl(run_dir / transcripts.ROUNDS)] == order
    run = RunData.open(run_dir)
    typed = build(run)
    boards = json.loads(json.dumps(dump(typed)))  # JSON values as report/leaderboards.json holds them
    rows = {row["claude"]: row for row in boards["claudes"]}
    assert set(rows) == {"toy", "person:ann", "person:bob", "human"}
    assert rows["person:ann"]["S"] == 5 / 6 and rows["person:bob"]["S"] == 4 / 6
    assert all(row["rounds"] == 6 for row in rows.values())
    assert boards["johns"][0]["rounds"] == 18  # toy, ann and bob; not their majority vote
    # the majority: agreed rounds are right; the three split rounds go to the coin
    human = run.outcomes["human"]
    assert [o.judgement.resolved_by for o in human] == ["claude", "tie", "tie", "claude", "tie", "claude"]
    ann = [key[r] if i != 2 else 1 - key[r] for i, r in enumerate(order)]
    bob = [key[r] if i not in (1, 4) else 1 - key[r] for i, r in enumerate(order)]
    (agreement,) = boards["agreement"]
    assert agreement["people"] == ["person:ann", "person:bob"] and agreement["rounds"] == 6
    assert agreement["observed"] == 3 / 6 and agreement["kappa"] == cohen_kappa(ann, bob)
    text = format_leaderboards(typed)
    assert "person:ann" in text and "person:bob" in text and "toy" in text and "Cohen's kappa" in text
