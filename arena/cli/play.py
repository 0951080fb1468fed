"""``arena play``: a person plays Claude or Zellig in the terminal on a run's rounds.

As Claude: each round shows the source and the two candidates in the arena's order;
one key answers (``1`` or ``2``: the corrupted one), ``q`` or Ctrl-C stops.  The
config's Claude time budget applies: an answer slower than
``time_budget.claude_seconds_per_pair`` is replaced by the arena's recorded coin, as
for models.  As Zellig: each instance shows its source and reference, prefilled for
editing; the edited text is the corruption (unchanged: none applies) and a phenomenon
is picked by number or typed.  Both resume where the person stopped.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from arena.cli import add_verb
from arena.errors import UsageError
from arena.text_policy import visible, visible_lines

EXAMPLES = """
  arena play experiments/quickstart.yaml --as claude --name ann
  arena play experiments/quickstart.yaml --as claude --name ann --rounds 20
  arena play experiments/quickstart.yaml --as zellig --name bob
Stop any time with q (or Ctrl-C); the same command resumes.  A person's transcripts
are RUN/people/NAME/; 'arena leaderboard RUN' ranks people beside the model Claudes."""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "play", "play Claude (judge rounds) or Zellig (corrupt instances) in the terminal",
                      EXAMPLES)
    parser.add_argument("config", help="experiment YAML file (its rounds are planned if not yet)")
    parser.add_argument("--as", dest="role", choices=("claude", "zellig"), required=True, help="the role to play")
    parser.add_argument("--name", required=True, help="your name: letters, digits, '_' or '-'")
    parser.add_argument("--out", default="runs", help="directory of the run directories (default: runs)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (dotted keys, repeatable)")
    parser.add_argument("--rounds", type=int, default=None, metavar="N", help="stop after N rounds (or instances)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars while planning")
    parser.add_argument("--live", action="store_true",
                        help="as Zellig: show the run's Claudes' scores of each edit (fooled or not) and the detector")
    parser.set_defaults(func=run)


def prepare(args):
    """The experiment, its run directory and its planned rounds (planned now if needed)."""
    from arena import api
    from arena.specs.config import load_experiment

    experiment = load_experiment(args.config, args.overrides)
    run_dir, rounds = api.prepare(experiment, args.out, progress=not args.no_progress)
    return experiment, run_dir, rounds


def run(args) -> int:
    from arena.record.people_store import check_name

    check_name(args.name)
    if args.rounds is not None and args.rounds < 1:
        raise UsageError("--rounds must be a positive integer")
    experiment, run_dir, rounds = prepare(args)
    print(f"run directory: {run_dir}")
    if args.role == "claude":
        return play_claude(experiment, run_dir, rounds, args.name, args.rounds)
    live = None
    if args.live:
        from arena.cli import catalog
        from arena.people.live import LiveScorer

        live = LiveScorer(experiment.claudes, catalog())
    return play_zellig(experiment, run_dir, rounds, args.name, args.rounds, live)


def read_key(prompt: str) -> str:
    """One key press (a line when stdin is not a terminal); Ctrl-C raises
    KeyboardInterrupt, Ctrl-D / end of input EOFError.  The terminal leaves line mode
    before the prompt appears and without flushing, so a key typed at once counts."""
    if not sys.stdin.isatty():
        print(prompt, end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.strip()[:1]
    import os
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        print(prompt, end="", flush=True)
        key = os.read(fd, 1).decode("utf-8", errors="replace")
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    if key in ("", "\x04"):
        raise EOFError
    print(key if key.isprintable() else "")
    return key


def play_claude(experiment, run_dir: Path, rounds, name: str, limit: int | None) -> int:
    from arena.people.session import ClaudeSession

    budget = experiment.time_budget.claude_seconds_per_pair
    session = ClaudeSession(run_dir, name, rounds, budget)
    print(f"playing Claude as {session.label}: which candidate is the corrupted one? 1 or 2 (q: stop)"
          + (f"; answer within {budget:g} s or a coin decides" if budget is not None else ""))
    played = 0
    stopped = False
    try:
        while limit is None or played < limit:
            r = session.next_round()
            if r is None:
                break
            done, total = session.progress()
            print(f"\n[{done + 1}/{total}]")  # no round id: it names the Zellig and the instance
            print(f"  source: {visible(r.instance.source)}")
            assert r.candidates is not None  # timeouts are skipped: every round left has candidates
            for index, text in enumerate(r.candidates):
                print(f"  {index + 1}  {visible(text)}")
            started = time.monotonic()
            key = read_key("corrupted? [1/2, q] ")
            while key not in ("1", "2", "q", "Q"):
                key = read_key("press 1, 2 or q: ")
            if key in ("q", "Q"):
                stopped = True
                break
            record, written = session.answer(r.id, int(key) - 1, time.monotonic() - started)
            if not written:
                print("  already judged (elsewhere); the first answer stands")
            elif record["resolved_by"] == "late":
                print(f"  late ({record['seconds']:.1f} s > {budget:g} s): the coin chose {record['choice'] + 1}")
            played += 1
    except (KeyboardInterrupt, EOFError):
        stopped = True
    done, total = session.progress()
    print(f"\n{done}/{total} rounds judged" + ("; run the same command to go on" if done < total else ""))
    if stopped or done:
        from arena.people.session import summary
        from arena.present.people import format_summary

        print(format_summary(summary(run_dir, name), name))
    return 0


def edit_line(prompt: str, text: str) -> str:
    """The person's edit of ``text`` (prefilled with readline; a plain line, empty for
    unchanged, when stdin is not a terminal)."""
    if not sys.stdin.isatty():
        print(prompt, end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n") or text
    import readline

    readline.set_startup_hook(lambda: readline.insert_text(text))
    try:
        return input(prompt)
    finally:
        readline.set_startup_hook(None)


def ask_phenomenon(options: list[str]) -> str:
    from arena.people.session import check_phenomenon

    if options:
        print(visible("  phenomena: " + ", ".join(f"{i + 1}={p}" for i, p in enumerate(options))))
    while True:
        answer = edit_line("  phenomenon (number or new label): ", "").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        try:
            return check_phenomenon(answer)
        except ValueError as error:
            print(f"  {visible(str(error))}")


def play_zellig(experiment, run_dir: Path, rounds, name: str, limit: int | None, live=None) -> int:
    from arena.people.session import ZelligSession

    session = ZelligSession(run_dir, name, rounds)
    print(f"playing Zellig as {name}: edit each reference into a minimal corruption that should be wrong "
          "(Enter on the unchanged text: none applies; Ctrl-C: stop)")
    played = 0
    try:
        for target in session.pending():
            if limit is not None and played >= limit:
                break
            done, total = session.progress()
            print(f"\n[{done + 1}/{total}] instance {visible(target.instance.id)}")
            print(f"  source:    {visible(target.instance.source)}")
            print(f"  reference: {visible(target.instance.reference)}")
            started = time.monotonic()
            text = edit_line("  corrupted: ", target.instance.reference)
            seconds = time.monotonic() - started
            phenomenon = ask_phenomenon(session.phenomena()) if text != target.instance.reference else None
            if live is not None and phenomenon is not None:
                from arena.present.people import format_live

                result = live.evaluate(target.instance.source, target.instance.reference, text, phenomenon)
                print(visible_lines("\n".join(format_live(result))))
            record, written = session.corrupt(target, text, phenomenon, seconds)
            if not written:
                print("  already corrupted (elsewhere); the first corruption stands")
            elif record["variant"] is None:
                print("  recorded: no corruption applies")
            else:
                edits = "; ".join(f"{e['before']!r} → {e['after']!r}" for e in record["variant"]["edits"])
                print(f"  recorded: {visible(edits)}")
            played += 1
    except (KeyboardInterrupt, EOFError):
        print()
    done, total = session.progress()
    print(f"{done}/{total} instances done" + ("; run the same command to go on" if done < total else ""))
    if done:
        from arena.codec import dump

        config = session.export(dump(experiment))
        print(f"your corruptions against the run's Claudes: arena run {config}")
    return 0
