"""The hostile-input battery: what a hostile or careless user can throw at the CLI and the
served pages, by class of failure. Each class is fixed at its root, and the tests here
cover several entry points of each, including cases that must NOT fire.

- **Error contract** (``test_error_contract.py``, ``test_small_flags.py``): bad input is
  exit 2 with one line naming file, line and key; a bug is exit 70 with a saved traceback;
  never a traceback on the terminal; flags mean what they say.
- **One schema** (``test_schema.py``, ``bad_values.py``): validate and run check a config
  with the same code.
- **Bounded readers** (``test_parsing.py``, ``test_memory_inputs.py``,
  ``test_training_inputs.py``): YAML, JSON, stdin, checkpoints are read within documented
  bounds (size, depth, UTF-8) and refused naming the file (or ``<stdin>``) and the line.
- **Sessions that end** (``tests/arena/people/test_sessions.py``): every served page keeps
  its sessions on the server (``arena/people/sessions.py``); signing out revokes the id, so a
  replayed cookie gets 401 on every write endpoint; a forged id gets 401; a CSRF token works
  only with its own session.
- **Terminal-safe output** (``test_terminal_output.py``): text from data (sentences, labels,
  paths in error messages, argparse's messages, log lines) reaches stdout and stderr only
  through ``arena.text_policy.visible``: ESC, BEL, CR, backspace and bidi controls are shown,
  never obeyed; JSON output stays the same JSON.
- **One text policy** (``arena.text_policy.text_problem``; ``test_hostile_verbs.py``,
  ``test_terminal_output.py``, ``tests/arena/people/test_text_bodies.py``,
  ``tests/arena/people/test_repairs.py``): NUL, control characters, bidi overrides, lone
  surrogates and invisible-only texts are refused at every entry point — files, stdin of
  ``arena corrupt`` (exit 2 naming ``<stdin>`` and the line), every server's request bodies
  (400 naming the field), repair fixes — and a refusal leaves run directories and patch files
  byte-identical.
- **Transcripts and signals** (``test_transcripts.py``, ``test_signals.py``): a damaged run
  is refused naming file and line; Ctrl-C ends the long verbs without a traceback, leaving
  a state the same command resumes.
- **Hostile verbs** (``test_hostile_verbs.py``): the newer verbs and pages under the cases
  above.
"""
