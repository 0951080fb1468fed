"""Template spec files: a language section and its templates, in JSON or YAML.

The layout is that of M2C's templates in ``../shared/data/m2c/m2c_<lang>.json`` (the
language section of :mod:`performers.m2c.language`, then ``templates``)::

    language: de
    dimensions: {...}
    rules: {...}
    placeholders:                  # optional, shared by every template of the file
      name: [{SG.MASC: Johann}, {SG.FEM: Katja}]
    templates:
      - name: negation1            # or template_name
        template: "{name1} {ist:name1.SG|sind:name1.PL} kein {job.<name1.NUMBER.GENDER>}."
        placeholders:              # lists of strings or of {bundle: form}
          job: [{SG.MASC: Lehrer, SG.FEM: Lehrerin, PL.MASC: Lehrer, PL.FEM: Lehrerinnen}]
        same_keys_cfg: {name: {order: true, repeat: false}}   # or repetition
        functions: {plus: sum}     # optional: template function name -> registered name

Keys that M2C's fixture files carry to describe a template (item counts, provenance,
``needs_code`` …) are accepted and ignored; any other unknown key is an error.
``templates`` may also be a mapping from name to template.  ``.json.gz`` files are read
too.
"""

from __future__ import annotations

import gzip
import hashlib
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from performers.m2c import registry
from performers.m2c.features import TemplateError
from performers.m2c.language import DESCRIPTIVE_KEYS, LANGUAGE_KEYS, M2C_FIXTURE_FORMAT, Language, language_from_mapping
from performers.m2c.space import Repetition, TemplateSpace
from performers.m2c.tables import Lexicon, lexicon_from_values

TEMPLATE_KEYS = {"name", "template_name", "template", "placeholders", "same_keys_cfg", "repetition", "functions"}
DESCRIPTIVE_TEMPLATE_KEYS = {
    "language", "notebook_cell", "compiled_template", "same_keys_cfg_passed", "other_kwargs", "language_rules_used",
    "modifiers_used", "needs_code", "n_samples", "call", "theoretical_nb_options", "theoretical_nb_options_note",
    "original_check", "n_generated", "n_items", "items_sha256", "large_over_20000_items", "items_complete",
    "items_subset_of_full_space", "n_items_full_space", "items_exactly_reproducible", "verification", "items",
    "items_full_space", "description",
}


def read_data(path: str | Path) -> Any:
    """Read a JSON, gzipped JSON or YAML file with errors naming the file."""
    from arena.sdk import load_json, load_yaml

    path = Path(path)
    if path.name.endswith(".json.gz"):
        from arena.sdk import MAX_JSON_BYTES, DataError, decode, loads_json

        try:
            with gzip.open(path, "rb") as handle:
                data = handle.read(MAX_JSON_BYTES + 1)  # bounded: a small file may unpack to gigabytes
        except FileNotFoundError:
            raise TemplateError(f"{path}: file not found") from None
        except IsADirectoryError:
            raise TemplateError(f"{path}: is a directory, expected a file") from None
        except (EOFError, gzip.BadGzipFile, zlib.error) as error:  # truncated or not gzip at all
            raise DataError(f"{path}: damaged gzip file ({error}); download or copy it again", file=path) from None
        if len(data) > MAX_JSON_BYTES:
            raise DataError(f"{path}: unpacks to more than {MAX_JSON_BYTES} bytes", file=path)
        return loads_json(decode(data, path), path)
    if path.suffix in (".yaml", ".yml"):
        return load_yaml(path)
    if path.suffix == ".json":
        return load_json(path)
    raise TemplateError(f"{path}: a template spec is a .json, .json.gz, .yaml or .yml file")


def file_digest(path: str | Path) -> str:
    """SHA-256 of a file's bytes (recorded with generated instances)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def repetition_from_mapping(data: Any, where: str) -> dict[str, Repetition]:
    """``{root: {order: bool, repeat: bool}}`` → :class:`Repetition` per root."""
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise TemplateError(f"{where}: same_keys_cfg must map placeholder names to {{order: bool, repeat: bool}}")
    out = {}
    for root, setting in data.items():
        if not isinstance(setting, Mapping):
            raise TemplateError(f"{where}: same_keys_cfg.{root} must be {{order: bool, repeat: bool}}")
        unknown = sorted(set(setting) - {"order", "repeat"})
        if unknown:
            raise TemplateError(f"{where}: same_keys_cfg.{root}: unknown key(s) {', '.join(unknown)}; allowed: order, repeat")
        order, repeat = setting.get("order", True), setting.get("repeat", False)
        if not isinstance(order, bool) or not isinstance(repeat, bool):
            raise TemplateError(f"{where}: same_keys_cfg.{root}: order and repeat must be true or false")
        out[str(root)] = Repetition(order, repeat)
    return out


@dataclass
class TemplateSpec:
    """One template of a spec file, not yet compiled."""

    name: str
    template: str
    placeholders: Mapping[str, Any]
    repetition: Mapping[str, Repetition]
    functions: Mapping[str, str]
    where: str


@dataclass
class SpecFile:
    """A language and its templates; :meth:`space` compiles one (cached)."""

    language: Language
    templates: dict[str, TemplateSpec]
    path: Path | None = None
    digest: str | None = None
    _spaces: dict[str, TemplateSpace] = field(default_factory=dict, repr=False)
    _lexicons: dict[int, Lexicon] = field(default_factory=dict, repr=False)

    @property
    def names(self) -> list[str]:
        return list(self.templates)

    def template(self, name: str) -> TemplateSpec:
        if name not in self.templates:
            import difflib

            close = difflib.get_close_matches(name, list(self.templates), n=3)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            raise TemplateError(
                f"{self.path or 'spec'}: no template {name!r}.{hint} Templates: {', '.join(self.templates)}"
            )
        return self.templates[name]

    def space(self, name: str) -> TemplateSpace:
        """The compiled :class:`TemplateSpace` of template ``name``."""
        if name not in self._spaces:
            spec = self.template(name)
            lexicons = {
                root: self._lexicon(root, values, spec.where) for root, values in spec.placeholders.items()
            }
            functions = {
                local: registry.function(registered, self.language.code, spec.where)
                for local, registered in spec.functions.items()
            }
            self._spaces[name] = TemplateSpace(
                spec.template, self.language, lexicons, spec.repetition, functions, name=name, where=spec.where
            )
        return self._spaces[name]

    def _lexicon(self, root: str, values: Any, where: str) -> Lexicon:
        key = id(values)  # file-level placeholders are shared objects: build their lexicon once
        if key not in self._lexicons:
            self._lexicons[key] = lexicon_from_values(root, values, self.language.dimensions, where)
        return self._lexicons[key]


def yaml_lines(path: Path) -> dict[tuple[str, ...], int]:
    """Line numbers of a YAML file's keys (empty for JSON), for error messages."""
    if path.suffix not in (".yaml", ".yml"):
        return {}
    from arena.sdk import yaml_key_lines

    return yaml_key_lines(path)


def located(where: str, lines: Mapping[tuple[str, ...], int], *keys: Any) -> str:
    """``file:line: key[i]`` when the line of ``keys`` is known, else ``file: key[i]``."""
    line = lines.get(tuple(str(key) for key in keys))
    label = keys[0] + "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in keys[1:])
    return f"{where}:{line}: {label}" if line else f"{where}: {label}"


def spec_from_mapping(
    data: Any, where: str, path: Path | None = None, lines: Mapping[tuple[str, ...], int] | None = None
) -> SpecFile:
    """Build a :class:`SpecFile` from a parsed JSON/YAML document."""
    if not isinstance(data, Mapping):
        raise TemplateError(f"{where}: a template spec is a mapping with a language section and 'templates'")
    allowed = LANGUAGE_KEYS | DESCRIPTIVE_KEYS | {"templates", "placeholders"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise TemplateError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    fixture = data.get("format") == M2C_FIXTURE_FORMAT
    language = language_from_mapping(data, where, fixture=fixture)
    shared = data.get("placeholders") or {}
    if not isinstance(shared, Mapping):
        raise TemplateError(f"{where}: 'placeholders' must map placeholder names to value lists")
    raw_templates = data.get("templates")
    if isinstance(raw_templates, Mapping):
        raw_templates = [{"name": name, **body} if isinstance(body, Mapping) else body for name, body in raw_templates.items()]
    if not isinstance(raw_templates, list) or not raw_templates:
        raise TemplateError(f"{where}: 'templates' must be a non-empty list of templates")
    templates: dict[str, TemplateSpec] = {}
    for index, raw in enumerate(raw_templates):
        here = located(where, lines or {}, "templates", index)
        spec = template_from_mapping(raw, here, shared)
        if spec.name in templates:
            raise TemplateError(f"{here}: template name {spec.name!r} used twice")
        templates[spec.name] = spec
    return SpecFile(language, templates, path)


def template_from_mapping(raw: Any, where: str, shared: Mapping[str, Any] | None = None) -> TemplateSpec:
    if not isinstance(raw, Mapping):
        raise TemplateError(f"{where}: a template is a mapping with 'name' and 'template'")
    name = raw.get("name", raw.get("template_name"))
    if not isinstance(name, str) or not name:
        raise TemplateError(f"{where}: a template needs a 'name'")
    where = f"{where} ({name})"
    unknown = sorted(set(raw) - TEMPLATE_KEYS - DESCRIPTIVE_TEMPLATE_KEYS)
    if unknown:
        raise TemplateError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(TEMPLATE_KEYS))}")
    text = raw.get("template")
    if not isinstance(text, str) or not text:
        raise TemplateError(f"{where}: 'template' must be a non-empty string")
    placeholders = dict(shared or {})
    own = raw.get("placeholders") or {}
    if not isinstance(own, Mapping):
        raise TemplateError(f"{where}: 'placeholders' must map placeholder names to value lists")
    placeholders.update(own)
    if "same_keys_cfg" in raw and "repetition" in raw:
        raise TemplateError(f"{where}: give either same_keys_cfg or repetition, not both")
    repetition = repetition_from_mapping(raw.get("same_keys_cfg", raw.get("repetition")), where)
    functions = raw.get("functions") or {}
    if isinstance(functions, list):
        # M2C fixture files describe the functions a template needs; names resolve in the registry
        for item in functions:
            if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
                raise TemplateError(f"{where}: 'functions' entries must be mappings with a 'name'")
        functions = {}
    if not isinstance(functions, Mapping) or not all(isinstance(v, str) for v in functions.values()):
        raise TemplateError(f"{where}: 'functions' must map function names in the template to registered names")
    return TemplateSpec(name, text, placeholders, repetition, dict(functions), where)


def load_spec(path: str | Path) -> SpecFile:
    """Load a template spec file (JSON, gzipped JSON or YAML)."""
    path = Path(path)
    spec = spec_from_mapping(read_data(path), str(path), path, yaml_lines(path))
    spec.path = path
    spec.digest = file_digest(path)
    return spec
