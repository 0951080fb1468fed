"""Resolve performer specs to classes, check their params, build them, sign them.

The arena never imports :mod:`performers`; the CLI hands a :class:`Catalog` (one
table per role, ``name -> "module:Class"``) to the functions here.  Names that
contain a colon (``mylab.claudes:MyClaude``, ``path/to/file.py:MyClaude``) bypass the catalog.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError, ConfigError
from arena.specs.spec import PerformerSpec

if TYPE_CHECKING:
    from arena.specs.signature import Signature

ROLE_TITLES = {"john": "John", "zellig": "Zellig", "claude": "Claude"}


@dataclass(frozen=True)
class Catalog:
    """One table per role: catalog name (kebab-case) → ``"module:Class"``; ``zellig_groups`` name
    sets of Zelligs that commands taking several Zelligs expand (``arena corrupt --zellig all``)."""

    johns: Mapping[str, str] = field(default_factory=dict)
    zelligs: Mapping[str, str] = field(default_factory=dict)
    claudes: Mapping[str, str] = field(default_factory=dict)
    zellig_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def table(self, role: str) -> Mapping[str, str]:
        try:
            return {"john": self.johns, "zellig": self.zelligs, "claude": self.claudes}[role]
        except KeyError:
            raise ConfigError(f"unknown role {role!r}; roles are john, zellig, claude") from None


def import_path(path: str) -> Any:
    """Import ``"module:Attribute"`` or ``"path/to/file.py:Attribute"``.  A module that does not
    import is also looked for as a ``.py`` file under the working directory (so ``mylab.x:C``
    works without ``PYTHONPATH=.``); a failure says everything that was tried."""
    from arena.errors import ConfigError

    module_name, _, attribute = path.partition(":")
    if not attribute:
        raise ConfigError(f"{path!r} is not a module:Class path", hint="module:Class or path/to/file.py:Class")
    tried: list[str] = []
    module = None
    if module_name.endswith(".py"):
        module = _module_from_file(Path(module_name).expanduser(), tried)
    else:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            tried.append(f"import {module_name} ({error})")
            if error.name and not module_name.startswith(error.name) and error.name != module_name:
                raise ConfigError(f"module {module_name!r} for {path!r} imports {error.name!r}, which is not "
                                  f"installed", hint=f"pip install the package that provides {error.name}") from None
            module = _module_from_file(Path(*module_name.split(".")).with_suffix(".py"), tried)
        except ImportError as error:
            raise ConfigError(f"cannot import module {module_name!r} for {path!r}: {error}") from None
    if module is None:
        raise ConfigError(f"cannot find {path!r}: tried " + "; ".join(tried),
                          hint="give path/to/file.py:Class, or put the module's directory on PYTHONPATH")
    try:
        return getattr(module, attribute)
    except AttributeError:
        names = sorted(n for n in dir(module) if n[:1].isupper())
        close = difflib.get_close_matches(attribute, names, n=3)
        raise ConfigError(f"{module_name!r} has no attribute {attribute!r}"
                          + (f"; did you mean {', '.join(close)}?" if close else ""),
                          hint=f"classes there: {', '.join(names[:10]) or 'none'}") from None


def _module_from_file(file: Path, tried: list[str]) -> Any:
    """The module of a ``.py`` file (imported once per absolute path), or ``None`` (noted in ``tried``)."""
    import importlib.util
    import sys

    if not file.is_file():
        tried.append(f"file {file} (not found in {Path.cwd()})" if not file.is_absolute() else f"file {file} (not found)")
        return None
    resolved = file.resolve()
    name = "arena_user_" + hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:12] + "_" + resolved.stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:  # not for a .py file, which is all that is asked here
        tried.append(f"file {file} (not importable as a Python module)")
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        del sys.modules[name]
        from arena.errors import ConfigError

        raise ConfigError(f"invalid Python: {error.msg}", file=file, line=error.lineno) from None
    except BaseException:
        del sys.modules[name]
        raise
    return module


def resolve(role: str, name: str, catalog: Catalog, where: str = "") -> type:
    """The class a spec name refers to, for ``role``."""
    prefix = f"{where}: " if where else ""
    table = catalog.table(role)
    if name in table:
        return import_path(table[name])
    if ":" in name:
        return import_path(name)
    close = difflib.get_close_matches(name, list(table), n=3)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    raise ConfigError(
        f"{prefix}unknown {ROLE_TITLES.get(role, role)} {name!r}.{hint} "
        f"Known: {', '.join(sorted(table)) or '(none)'}; or give a module:Class path."
    )


def check_params(cls: type, params: Mapping[str, Any], where: str = "", catalog: Catalog | None = None) -> None:
    """Check ``params`` against the constructor of ``cls`` without building anything, in one
    pydantic validation built from its signature (:func:`arena.specs.typecheck.params_adapter`):
    unknown names, missing required names, and each value against the parameter's declared
    type, range, choices and existing path; with a ``catalog``, the nested performer specs the
    validation collected too; then the class's own rules over several params
    (:class:`arena.roles.ParamsChecked`).  Raises :class:`ConfigError` naming the parameter."""
    from pydantic import ValidationError

    from arena.specs.typecheck import Performer, params_adapter

    prefix = f"{where}: " if where else ""
    declared = params_adapter(cls)
    nested: list[tuple[str, Performer, Any]] = []
    try:
        declared.adapter.validate_python(dict(params), context={"nested": nested})
    except ValidationError as error:
        raise _params_error(cls, params, declared, error.errors(include_url=False), prefix) from None
    if catalog is not None:
        from arena.specs.spec import spec_from_mapping

        for key, marker, spec in nested:
            inner = f"{prefix}{cls.__name__} parameter '{key}'"
            validate(marker.role, spec_from_mapping(spec, where=inner), catalog, where=inner, needs=marker.needs)

    from arena.roles import ParamsChecked

    if isinstance(cls, ParamsChecked):
        problem = cls.check_params(dict(params))
        if problem:
            raise ConfigError(f"{prefix}{cls.__name__}: {problem}")


def _params_error(cls: type, params: Mapping[str, Any], declared: Any, errors: list[Any], prefix: str) -> ConfigError:
    """The one message for pydantic's findings on a constructor's params: the unknown names,
    else the missing ones, else the first refused parameter (in the order the config gives them)."""
    from arena.specs.typecheck import problem_of

    unknown = sorted(str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden")
    if unknown:
        return ConfigError(f"{prefix}{cls.__name__} has no parameter(s) {', '.join(unknown)}; "
                           f"allowed: {', '.join(declared.accepted) or '(none)'}")
    missing = [str(e["loc"][0]) for e in errors if e["type"] == "missing"]
    if missing:
        return ConfigError(f"{prefix}{cls.__name__} needs parameter(s) {', '.join(missing)}")
    refused = {e["loc"][0] for e in errors}
    key = next(name for name in params if name in refused)
    mine = [e for e in errors if e["loc"][0] == key]
    problem = problem_of(mine, params[key], declared.annotations[key])
    return ConfigError(f"{prefix}{cls.__name__} parameter '{key}' {problem}")


def validate(role: str, spec: PerformerSpec, catalog: Catalog, where: str = "", needs: tuple[str, ...] = ()) -> type:
    """Resolve and check a spec without building it (the role's protocol, ``needs``' methods,
    the params); return the class.  ``arena validate`` and ``arena run`` both call this."""
    cls = resolve(role, spec.name, catalog, where)
    check_role(role, cls, where or spec.name, needs)
    check_params(cls, spec.params, where or spec.name, catalog)
    return cls


# the method each role's protocol needs (arena.roles: John, Zellig, Claude)
ROLE_METHODS = {"john": "instances", "zellig": "corrupt", "claude": "judge"}
NEEDS = {"score": "a scoring Claude", "translate": "a Claude that translates", "detect": "a Zellig with a detector"}


def check_role(role: str, cls: Any, where: str, needs: tuple[str, ...] = ()) -> None:
    """``cls`` is a class that plays ``role`` (has the protocol's method) and has each method
    ``needs`` names; else a :class:`ConfigError` naming what is missing (no exit 70 later in a
    run, ``arena corrupt`` or ``build-testset``)."""
    title = ROLE_TITLES.get(role, role)
    if not isinstance(cls, type):
        raise ConfigError(f"{where}: {getattr(cls, '__name__', repr(cls))} is a {type(cls).__name__}, not a "
                          f"{title} class", hint=f"give module:Class of a class with a {ROLE_METHODS[role]}() method")
    for method in (ROLE_METHODS[role], *needs):
        if not callable(getattr(cls, method, None)):
            what = NEEDS.get(method, f"a {title}")
            raise ConfigError(f"{where}: {cls.__name__} is not {what}: it has no {method}() method",
                              hint=_role_hint(role, method))


def _role_hint(role: str, method: str) -> str:
    if method == "score":
        return "give a model-backed Claude such as toy-en-de or hf-seq2seq"
    if method == "translate":
        return "give a Claude that translates, such as toy-en-de"
    return f"a {ROLE_TITLES.get(role, role)} class has {method}(); see docs/architecture.md, 'Where to add …'"


def build(role: str, spec: PerformerSpec, catalog: Catalog, where: str = "") -> Any:
    """Build the performer a spec describes."""
    cls = validate(role, spec, catalog, where)
    try:
        return cls(**spec.params)
    except ArenaError as error:  # the performer refused its params or data: the user's to fix
        prefix = f"{where}: " if where else ""
        raise type(error)(f"{prefix}cannot build {role} {spec.label}: {error}") from error


def version_of(cls_or_obj: Any) -> str:
    return str(getattr(cls_or_obj, "version", "0"))


def performer_signature(role: str, spec: PerformerSpec, catalog: Catalog, beam: int | None = None) -> Signature:
    """What produced a performer's numbers (:class:`~arena.specs.signature.Signature`), as printed
    with every score: name, version and params; a performer whose class is
    :class:`~arena.roles.Fingerprinted` adds the digest of its model (over every model replica, if
    the spec has replicas), and, with ``beam`` (the run decodes 1-bests with this Claude), one that
    is :class:`~arena.roles.Decoding` adds its decoder (``ctranslate2-4.8.5/float32/beam5/lp1``);
    a Claude that does not see the default adds its visibility, a balanced John its cue."""
    from arena.roles import Decoding, Fingerprinted
    from arena.specs.signature import Decoder, Signature, digest

    cls = resolve(role, spec.name, catalog)
    model = decoder = None
    if isinstance(cls, Fingerprinted):
        replicas = [spec.for_seed(seed) for seed in sorted(spec.replicas)] or [spec]
        prints = [cls.fingerprint(dict(replica.params)) for replica in replicas]
        model = prints[0] if len(prints) == 1 else digest(prints)
    if beam is not None and isinstance(cls, Decoding):
        text = cls.decoder_signature(dict(spec.params), beam)
        try:
            decoder = Decoder.parse(text)
        except ValueError as error:
            raise ConfigError(f"{spec.label}: {cls.__name__}.decoder_signature gave {error}") from None
    return Signature(
        spec.name, version_of(cls), ",".join(f"{key}={value}" for key, value in sorted(spec.params.items())),
        model, decoder,
        spec.visibility if spec.sees else None,  # a Claude's visibility when it is not the default
        spec.balance["cue"] if spec.balance else None,  # a John's balance changes which pairs are scored
    )


def signature(role: str, spec: PerformerSpec, catalog: Catalog, beam: int | None = None) -> str:
    """The text of :func:`performer_signature`, as ``manifest.json`` and calibrations store it."""
    return str(performer_signature(role, spec, catalog, beam))
