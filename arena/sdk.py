"""Everything a performer may import from arena, in one place.

A John, Zellig or Claude in ``performers/`` imports arena only through this module
(``from arena.sdk import Instance, Variant, ConfigError, PositiveInt``); the contract
``sdk`` in ``pyproject.toml`` holds it (``lint-imports``). What is here:

- the records and role protocols (:mod:`arena.records`, :mod:`arena.roles`; ``take``
  caps a John's instances), their one JSON serialiser (``dump``, ``load``: :mod:`arena.codec`), the error
  contract (:mod:`arena.errors`), character-span edits (:mod:`arena.edits`) and the
  install extra a missing optional package belongs to (:mod:`arena.extras`);
- the parameter types a constructor declares, checked before anything is built
  (:mod:`arena.specs.typecheck`), and what a performer that builds other performers
  needs (:mod:`arena.specs.registry`, :mod:`arena.specs.spec`), bounded YAML/JSON
  (:mod:`arena.specs.yamlio`);
- the scoring rule: score conventions, a candidate's score and the judgement from two
  scores, one Zellig's candidates of one instance (:mod:`arena.engine.match`);
- progress bars and atomic writes;
- the file formats performers read and write: text lines, LingEval97, DistilLingEval,
  a user's pairs and the repair patch file (:mod:`arena.formats`).

Anything else of arena is the framework's own and may change without notice.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from arena import length_cue
from arena.codec import dump, load
from arena.edits import apply_edits, diff_edits, make_variant, shared_affixes, variant_from_text
from arena.errors import ArenaError, ConfigError, DataError, EnvError, UsageError
from arena.extras import require
from arena.formats.distil_lingeval import FILES as DISTIL_LINGEVAL_FILES
from arena.formats.distil_lingeval import ContrastivePair, read_distil_lingeval, write_distil_lingeval
from arena.formats.lingeval97 import Contrastive, Sentence, read_lingeval97, write_lingeval97
from arena.formats.pairs import OwnPair, column_names, meta_naming, parse_columns, read_pairs
from arena.formats.repairs import Flag, Flagged, current, read_repairs
from arena.formats.textlines import has_line_break, iter_lines, read_lines, write_lines, write_text_atomic
from arena.logistic import fit_logistic
from arena.records import (
    Edit,
    Instance,
    Judgement,
    Pair,
    RoundOutcome,
    SequenceScore,
    TokenScores,
    Variant,
)
from arena.roles import (
    Chooser,
    Claude,
    Clocked,
    ConditionalDetector,
    Detector,
    Fittable,
    John,
    MetaDeclaring,
    Observer,
    ScoringClaude,
    Zellig,
    take,
)
from arena.specs.registry import Catalog, build, resolve, signature, validate
from arena.specs.spec import parse_spec, spec_from_mapping
from arena.specs.typecheck import (
    Check,
    ExistingDir,
    ExistingFile,
    FinitePositiveFloat,
    MustExist,
    Name,
    NestedClaude,
    NestedJohn,
    NestedScoringClaude,
    NestedTranslatingClaude,
    NestedZellig,
    NonNegativeFloat,
    Performer,
    PositiveFloat,
    PositiveInt,
    check_fields,
)
from arena.specs.yamlio import MAX_JSON_BYTES, decode, iter_jsonl, load_json, load_yaml, loads_json, yaml_key_lines
from arena.text_policy import text_problem

if TYPE_CHECKING:
    from arena.engine.match import corrupt_one
    from arena.engine.progress import progress_bar
    from arena.record.scoring_rule import SCORE_CONVENTIONS, ScoreConvention, candidate_score, judgement_from_scores
    from arena.record.transcripts import atomic_write_json, atomic_write_text

# what the engine lends performers, imported when first asked for: importing the engine
# package costs a performer that does not need it a quarter of a second of CPU
FROM_THE_ENGINE = {
    "SCORE_CONVENTIONS": "arena.record.scoring_rule", "ScoreConvention": "arena.record.scoring_rule",
    "candidate_score": "arena.record.scoring_rule", "corrupt_one": "arena.engine.match",
    "judgement_from_scores": "arena.record.scoring_rule", "progress_bar": "arena.engine.progress",
    "atomic_write_json": "arena.record.transcripts", "atomic_write_text": "arena.record.transcripts",
}


def __getattr__(name: str) -> Any:
    if name in FROM_THE_ENGINE:
        return getattr(importlib.import_module(FROM_THE_ENGINE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    # records, roles, errors, edits, extras
    "Edit", "Instance", "Judgement", "Pair", "RoundOutcome", "SequenceScore", "TokenScores", "Variant", "dump", "load",
    "Chooser", "Claude", "Clocked", "ConditionalDetector", "Detector", "MetaDeclaring", "Fittable", "John", "Observer",
    "ScoringClaude", "Zellig", "take",
    "ArenaError", "ConfigError", "DataError", "EnvError", "UsageError",
    "apply_edits", "diff_edits", "make_variant", "shared_affixes", "variant_from_text",
    "require", "fit_logistic", "length_cue",
    # parameters, nested performers, YAML/JSON
    "Check", "check_fields", "ExistingDir", "ExistingFile", "FinitePositiveFloat", "MustExist", "Name", "NestedClaude",
    "NestedJohn", "NestedScoringClaude", "NestedTranslatingClaude", "NestedZellig", "NonNegativeFloat", "Performer", "PositiveFloat", "PositiveInt",
    "Catalog", "build", "resolve", "signature", "validate", "parse_spec", "spec_from_mapping",
    "MAX_JSON_BYTES", "decode", "iter_jsonl", "load_json", "load_yaml", "loads_json", "yaml_key_lines",
    # the scoring rule
    "SCORE_CONVENTIONS", "ScoreConvention", "candidate_score", "corrupt_one", "judgement_from_scores",
    # progress and atomic writes
    "progress_bar", "atomic_write_json", "atomic_write_text",
    # file formats
    "has_line_break", "iter_lines", "read_lines", "write_lines", "write_text_atomic",
    "DISTIL_LINGEVAL_FILES", "ContrastivePair", "read_distil_lingeval", "write_distil_lingeval",
    "Contrastive", "Sentence", "read_lingeval97", "write_lingeval97",
    "OwnPair", "column_names", "meta_naming", "parse_columns", "read_pairs", "text_problem",
    "Flag", "Flagged", "current", "read_repairs",
]
