"""``arena serve``: people play Claude on a run's rounds in their browsers."""

from __future__ import annotations

from arena.cli import add_verb
from arena.errors import UsageError

EXAMPLES = """
  arena serve experiments/quickstart.yaml
  arena serve experiments/quickstart.yaml --port 8765
  arena serve experiments/quickstart.yaml --host 0.0.0.0    # others on the network: needs the printed token
Open the printed address, sign in with a name, answer with the keys 1 and 2.  Several
people can play at once; each judgement is written once to RUN/people/NAME/.
Stop the server with Ctrl-C; the same command resumes.
  arena serve experiments/quickstart.yaml --zellig           # people as Zellig: http://127.0.0.1:8765/zellig/
Edit a reference into an error, watch the Claudes' scores and the detector while typing,
submit; check other people's pairs; replay yours as a test set.
  arena repair --john experiments/johns/mt-reference.yaml --zellig np-agreement --patch sets/np-mt/repairs.jsonl --serve
People fix or reject, in the browser, the machine references that validation flagged
(http://127.0.0.1:8765/repair/; see arena repair --help)."""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "serve", "a local web page where people play Claude (or, with --zellig, Zellig) on a run's rounds", EXAMPLES)
    parser.add_argument("config", help="experiment YAML file (its rounds are planned if not yet)")
    parser.add_argument("--out", default="runs", help="directory of the run directories (default: runs)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (dotted keys, repeatable)")
    add_server_arguments(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bars while planning")
    parser.add_argument("--zellig", action="store_true",
                        help="people write corruptions at /zellig/ and see the run's Claudes score them live")
    parser.set_defaults(func=run)


def add_server_arguments(parser) -> None:
    """``--host`` and ``--port``, the same for every page ``arena`` serves."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; any other needs the printed access token)")
    parser.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any free port)")


def run(args) -> int:
    from arena.cli.play import prepare
    from arena.extras import require

    require("flask", "people", "arena serve")
    from arena.people.web import Arena, create_app

    check_port(args.port)
    experiment, run_dir, rounds = prepare(args)
    arena = Arena(run_dir, rounds, experiment.time_budget.claude_seconds_per_pair, experiment.name)

    def app_for(token, hosts):
        app = create_app(arena, token, hosts)
        if args.zellig:
            app.register_blueprint(zellig_pages(experiment, run_dir, rounds))
        return app

    print(f"run directory: {run_dir}")
    serve(app_for, args, "zellig/" if args.zellig else "", f"{arena.total} rounds of {experiment.name}")
    print("stopped; every judgement is saved. The same command serves the run again.")
    return 0


def check_port(port: int) -> None:
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: expected 0-65535")


def serve(app_for, args, page: str, what: str) -> None:
    """Listen on ``args.host``/``args.port``, build the app with ``app_for(token,
    allowed_hosts)`` (a token off loopback), print the address of ``page`` and serve until Ctrl-C."""
    import logging
    import secrets

    from werkzeug.exceptions import ServiceUnavailable
    from werkzeug.serving import make_server

    from arena.people.web import is_loopback

    token = None if is_loopback(args.host) else secrets.token_urlsafe(24)
    try:
        # bound first (port 0 picks a port the app must know); the real app is set below
        server = make_server(args.host, args.port, ServiceUnavailable(), threaded=True)
    except (OSError, SystemExit):  # werkzeug explains a failed bind on stderr, then exits
        raise UsageError(f"cannot listen on {args.host}:{args.port}") from None
    if not args.verbose:  # one log line per request is noise beside the printed address
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    port = server.server_port
    shown = f"[{args.host}]" if ":" in args.host else args.host
    server.app = app_for(token, [f"{host}:{port}" for host in ("127.0.0.1", "localhost", "[::1]", shown)])
    address = f"http://{shown}:{port}/{page}" + (f"?token={token}" if token else "")
    try:
        print(f"serving {what} at {address}", flush=True)
        if token:
            print("others need the whole address, token included; share it only with the people who annotate",
                  flush=True)
        server.serve_forever()  # returns on Ctrl-C (werkzeug catches it)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def zellig_pages(experiment, run_dir, rounds):
    """The ``/zellig/`` blueprint (:mod:`arena.people.zellig_web`), its Claudes warming in the background."""
    import threading

    from arena.cli import catalog
    from arena.codec import dump
    from arena.people.live import LiveScorer
    from arena.people.zellig_web import ZelligArena, blueprint

    scorer = LiveScorer(experiment.claudes, catalog())
    threading.Thread(target=scorer.warm, daemon=True, name="warm-claudes").start()
    detectors = [name.replace("-", "_") for name in catalog().zellig_groups.get("all", ())]
    zellig = ZelligArena(run_dir, rounds, dump(experiment), scorer, experiment.name, detectors)
    return blueprint(zellig)
