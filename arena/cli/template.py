"""``arena template``: generate the items of M2C-style templates, one per line."""

from __future__ import annotations

from arena.cli import add_verb
from arena.errors import UsageError
from arena.text_policy import json_visible, visible

EXAMPLES = """
  arena template --spec ../shared/data/m2c/m2c_de.json --template negation1 --all
  arena template --spec ../shared/data/m2c/m2c_en.json -n 5 --seed 1
  arena template --spec experiments/m2c/en_de.yaml --template preposition_case -n 3 --seed 2
  arena template --spec ../shared/data/m2c/m2c_es.json --count
  arena template --spec mylang.yaml --plugin mylab.m2c_functions --all --json"""


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers,
        "template",
        "generate items from M2C-style morphological templates",
        EXAMPLES,
        description=(
            "Generate the items of the templates in a spec file (M2C's layout: a language's dimensions and "
            "rules, then its templates) or of a source/reference pair spec (printed as source<TAB>reference). "
            "--all prints every distinct item; -n N --seed S samples N distinct items per template; "
            "--count prints each template's number of draws."
        ),
    )
    parser.add_argument("--spec", required=True, metavar="FILE", help="template spec (JSON, JSON.gz or YAML)")
    parser.add_argument("--template", metavar="NAME", action="append", help="only this template (repeatable)")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--all", action="store_true", help="every distinct item")
    mode.add_argument("-n", type=int, metavar="N", help="N distinct items per template, sampled")
    mode.add_argument("--count", action="store_true", help="print the number of draws of each template")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="sampling seed (required with -n)")
    parser.add_argument("--json", action="store_true", help="JSON lines with template, text, draw and features")
    parser.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                        help="import a module that registers template functions or dimensions (repeatable)")
    parser.set_defaults(func=run)


def run(args) -> int:
    import json

    from performers.m2c.features import TemplateError
    from performers.m2c.pairs import PairSpec, load_any
    from performers.m2c.registry import load_plugins

    if args.n is not None:
        if args.n < 1:
            raise UsageError("-n must be at least 1")
        if args.seed is None:
            raise UsageError("-n needs --seed S (sampling is always seeded)")
    elif args.seed is not None:
        raise UsageError("--seed only goes with -n")
    try:
        load_plugins(args.plugin)
        spec = load_any(args.spec)
        names = args.template or spec.names
        pairs = isinstance(spec, PairSpec)
        for name in names:
            space = spec.reference_space(name) if isinstance(spec, PairSpec) else spec.space(name)
            if args.count:
                print(f"{name}\t{space.size}")
                continue
            if args.all:
                chosen = [(item.draw) for item in space.generate()] if not pairs else _all_pairs(spec, name, space)
            else:
                assert args.seed is not None  # -n needs --seed (checked above)
                key = (lambda draw, name=name: _pair_or_none(spec, name, draw)) if pairs else space.render
                chosen = [draw for _, draw in space.sample_draws(args.n, args.seed, key)]
            for draw in chosen:
                texts = spec.render(name, draw) if isinstance(spec, PairSpec) else (space.render(draw),)
                if args.json:
                    record = {"template": name, "draw": draw.to_json(), "features": space.features(draw)}
                    record.update(zip(("source", "reference") if pairs else ("text",), texts))
                    print(json_visible(json.dumps(record, ensure_ascii=False)))
                else:
                    print("\t".join(visible(text) for text in texts))
    except TemplateError as error:
        raise UsageError(str(error)) from None
    except BrokenPipeError:  # e.g. piped into head
        return 0
    return 0


def _pair_or_none(spec, name, draw):
    from performers.m2c.pairs import UnrenderableSource

    try:
        return spec.render(name, draw)
    except UnrenderableSource:
        return None


def _all_pairs(spec, name, space):
    seen, out = set(), []
    for draw in space.draws():
        pair = _pair_or_none(spec, name, draw)
        if pair is not None and pair not in seen:
            seen.add(pair)
            out.append(draw)
    return out
