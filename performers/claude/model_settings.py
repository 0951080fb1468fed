"""The settings every model-backed Claude takes, declared once, and the one path that sets a model up.

:class:`ModelSettings` declares each shared parameter of the model Claudes (``hf-seq2seq``,
``toy-en-de``, ``fairseq``, ``ensemble``, ``causal-lm``, ``ctranslate2``, ``toy-en-de-ct2``) with its
type, range and default: where the tokenizer comes from, where and in what precision the model runs,
how candidates' log-probabilities become a score, the score cache, threads and progress.  A Claude
names the settings it takes, in the order ``arena ls claudes --params`` lists them, with
:func:`takes_settings` on its constructor; its own parameters (the model, or the models, or a
fairseq checkpoint; CTranslate2's compute type) stay in its constructor.  The constructor's
signature and annotations, which :func:`arena.specs.registry.check_params` and ``arena ls``
read, are put together from both, so a shared parameter is declared here only.

:meth:`ModelSettings.prepare` is the one setup path of the PyTorch engines
(:class:`performers.claude.seq2seq_engine.Seq2SeqEngine`, ``causal-lm``): the model and its tokenizer
must be loadable (checked before the heavy imports), PyTorch's CPU threads are set before it loads its
OpenMP runtime, the device resolved and the token budget checked.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from arena.sdk import ScoreConvention
from performers.claude.engine_settings import Engine
from performers.claude.params import BatchTokens, CacheSetting, Decoder, Device, DType, ModelName, Threads


@dataclass(frozen=True)
class ModelSettings:
    """The shared settings of the model Claudes (each takes those its :func:`takes_settings` names)."""

    tokenizer: ModelName | None = None
    revision: str | None = None
    device: Device = "cpu"
    dtype: DType = "fp32"
    batch_tokens: BatchTokens | None = None
    source_lang: str | None = None
    target_lang: str | None = None
    source_prefix: str = ""
    convention: ScoreConvention = "mean"
    cache: CacheSetting = True
    engine: Engine = "auto"
    threads: Threads | None = None
    decoder: Decoder = "auto"
    progress: bool = True

    def tokenizer_for(self, model: str) -> str:
        """The tokenizer's hub name or directory: ``tokenizer``, else the model's own."""
        return str(self.tokenizer or model)

    def prepare(self, model: str, kind: str) -> Prepared:
        """Set up a PyTorch model of ``kind`` (``"seq2seq model"``) from these settings (see the
        module docstring); loads nothing but checks and places."""
        from performers.claude.engine_settings import DTYPES, batch_budget, resolve_device
        from performers.claude.hub import require_model
        from performers.claude.threads import set_torch_threads

        for name in dict.fromkeys((str(model), self.tokenizer_for(model))):
            require_model(name, self.revision, kind)  # before the heavy imports: fail fast when it cannot be had
        threads = set_torch_threads(self.threads)  # before torch loads its OpenMP runtime
        device = resolve_device(self.device)
        return Prepared(
            name=str(model),
            tokenizer_name=self.tokenizer_for(model),
            revision=self.revision,
            device=device,
            dtype_name=DTYPES.get(str(self.dtype).lower()) or str(self.dtype),
            batch_tokens=batch_budget(self.batch_tokens, device),
            threads=threads,
        )


@dataclass(frozen=True)
class Prepared:
    """A model's placement as :meth:`ModelSettings.prepare` resolved it."""

    name: str
    tokenizer_name: str
    revision: str | None
    device: str
    dtype_name: str
    batch_tokens: int
    threads: int


SHARED = {field.name: field for field in dataclasses.fields(ModelSettings)}
Init = Callable[..., None]


def takes_settings(*order: str, defaults: Mapping[str, Any] | None = None) -> Callable[[Init], Init]:
    """Decorator of a model Claude's ``__init__(self, settings, <own parameters>)``: the constructor
    takes the parameters ``order`` names, in that order — each either one of the Claude's own (which
    wins over a shared one of the same name) or a :class:`ModelSettings` field, with its declared type
    and its default (or the one ``defaults`` gives) — and hands the shared ones on as ``settings``."""
    defaults = dict(defaults or {})

    def decorate(init: Init) -> Init:
        own = dict(list(inspect.signature(init).parameters.items())[2:])  # past self and settings
        shared = [name for name in order if name not in own]
        unknown = [name for name in [*shared, *defaults] if name not in SHARED]
        missing = [name for name in own if name not in order]
        if unknown or missing:
            raise TypeError(f"{init.__qualname__}: not ModelSettings fields: {unknown}; own, not ordered: {missing}")
        keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
        parameters = [inspect.Parameter("self", keyword)] + [
            own[name].replace(kind=keyword) if name in own else inspect.Parameter(
                name, keyword, default=defaults.get(name, SHARED[name].default), annotation=SHARED[name].type)
            for name in order
        ]
        signature = inspect.Signature(parameters)
        hints = typing.get_type_hints(ModelSettings, include_extras=True)
        own_hints = typing.get_type_hints(init, include_extras=True)
        annotations = {name: own_hints[name] if name in own else hints[name] for name in order}

        @functools.wraps(init)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> None:
            bound = signature.bind(self, *args, **kwargs)
            bound.apply_defaults()
            values = dict(bound.arguments)
            del values["self"]
            settings = ModelSettings(**{name: values.pop(name) for name in shared})
            init(self, settings, **values)

        wrapper.__signature__ = signature  # type: ignore[attr-defined]
        wrapper.__annotations__ = annotations  # evaluated: the declared types of every parameter
        return wrapper

    return decorate
