"""The input formats of ``privclaims``, declared once: JSON schemas (pydantic, strict) and text formats.

Every file a user gives is read here into plain validated data before ``theory/`` builds its objects:

* JSON (:data:`JSON_FORMATS`: ``mechanism``, ``chain``, ``policy``, ``ads``) — parsed with
  ``json.loads(..., parse_float=Decimal)`` so that a number is the decimal written (``0.51`` is 51/100,
  never the nearest binary double), then validated by a pydantic model in strict mode with unknown keys
  forbidden: a misspelt key is an error naming it with "did you mean ...", a missing key is named, a
  key repeated in one object, a repeated or empty name is an error. Numbers may be JSON numbers or
  strings such as ``"1/3"``, ``"0.25"``, ``"1e-3"``; a JSON float is a decimal (``0.1`` = 1/10).
* text (:data:`TEXT_FORMATS`: ``streams``, ``table``, ``log``) — CSV/TSV layouts declared as rules,
  read by their loaders.

:func:`describe` renders a format for ``--help`` and :func:`markdown` all of them for the README (a test
keeps the README's section equal to it), so the documentation is generated from the declarations.
"""

from __future__ import annotations

import difflib
import json
import math
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, ClassVar, Mapping, Union

from pydantic import (BaseModel, ConfigDict, Discriminator, Field, PlainValidator, Tag, ValidationError,
                      ValidationInfo, WithJsonSchema)

from privclaims._common import as_path
from privclaims.theory.errors import InvalidInput
from privclaims.theory.validate import refuse_byte_order_mark
from privclaims.theory.numbers import as_rational

__all__ = ["JSON_FORMATS", "TEXT_FORMATS", "read_json_text", "parse", "describe", "markdown", "label", "Mechanism",
           "Chain", "Policy", "AdInstance", "Ad", "TextFormat"]


# ------------------------------------------------------------------------------------------ JSON text


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise InvalidInput(f"key {k!r} appears twice in one JSON object (the second would silently win)")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise InvalidInput(f"{name} is not a number: JSON numbers must be finite")


def read_json_text(text: str, where: str) -> Any:
    """Parse JSON exactly: floats as :class:`~decimal.Decimal` (the decimal written), integers as ``int``,
    ``NaN``/``Infinity`` and a key repeated in one object refused (InvalidInput naming ``where``)."""
    try:
        return json.loads(text, parse_float=Decimal, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{where}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except InvalidInput as exc:
        raise InvalidInput(f"{where}: {exc}") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InvalidInput(f"{where}: a number cannot be read ({exc})") from None


# ------------------------------------------------------------------------------------------ value types


def _number(v: Any, info: ValidationInfo) -> Any:
    """An exact number: a JSON number (Decimal or int), or a string ``"1/3"``, ``"0.25"``, ``"2"``; a Python
    float only with ``floats`` allowed (its shortest decimal: 0.1 is 1/10). Kept as given (the loaders
    convert, so that ``--floats`` knows which rows were written as numbers)."""
    floats = (info.context or {}).get("floats")
    if isinstance(v, bool) or not isinstance(v, (str, int, Decimal, float)):
        raise ValueError(f"expected an exact number such as \"1/3\", \"0.25\" or 2, got {type(v).__name__} {v!r:.40}")
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v!r} is not a finite number")
        if floats is None or not floats.allowed:
            raise ValueError(f"got the Python float {v!r}; write it exactly, e.g. \"{v!r}\", or pass Floats(True)")
        return Decimal(repr(v))
    try:
        as_rational(v, "number")
    except InvalidInput as exc:
        raise ValueError(str(exc).removeprefix("number: ")) from None
    return v


def _label(v: Any) -> str:
    """A name: a non-empty JSON string without white space at either end."""
    if not isinstance(v, str):
        raise ValueError(f"expected a name (a JSON string), got {type(v).__name__} {v!r:.40}")
    if not v.strip():
        raise ValueError(f"empty name {v!r}")
    if v != v.strip():
        raise ValueError(f"name {v!r} has white space at an end")
    return v


Number = Annotated[Any, PlainValidator(_number), WithJsonSchema(
    {"anyOf": [{"type": "number"}, {"type": "string"}], "description": "exact number: 0.25, 2, \"1/3\", \"0.25\""})]
Label = Annotated[str, PlainValidator(_label), WithJsonSchema({"type": "string", "minLength": 1})]


def _unique(values: list[str], what: str, where: str, note: str = "") -> list[str]:
    seen: set[str] = set()
    for v in values:
        if v in seen:
            raise InvalidInput(f"{where}: {what} {v!r} appears twice (names must be unique{note})")
        seen.add(v)
    return values


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# ------------------------------------------------------------------------------------------ the models


class Mechanism(_Strict):
    """MECH.json — a finite mechanism: each input's exact output distribution and the neighbour relation."""

    inputs: dict[Label, dict[Label, Number]] = Field(
        min_length=1, description="input name -> {output name -> Pr[M(input) = output]}; each row sums to 1")
    neighbours: list[Annotated[list[Label], Field(min_length=2, max_length=2)]] = Field(
        min_length=1, description="pairs [input, input'] of inputs differing in one user (made symmetric)")

    example: ClassVar[dict[str, Any]] = {"inputs": {"yes": {"yes": "3/4", "no": "1/4"}, "no": {"yes": "1/4", "no": "3/4"}},
               "neighbours": [["yes", "no"]]}


class Chain(_Strict):
    """CHAIN.json — a time-inhomogeneous Markov chain over contexts (T = 1 + number of step matrices)."""

    contexts: list[Label] = Field(min_length=1, description="the context names c_1..c_n, each once")
    initial: list[Number] = Field(description="Pr[X_1 = c_j], one per context; sums to 1")
    steps: list[list[list[Number]]] = Field(
        description="one n x n matrix per t = 2..T: steps[t-2][i][j] = Pr[X_t = c_j | X_{t-1} = c_i]; rows sum to 1")

    example: ClassVar[dict[str, Any]] = {"contexts": ["home", "hospital"], "initial": ["1/2", "1/2"],
               "steps": [[["3/4", "1/4"], ["1/2", "1/2"]]]}


def _by_shape(v: Any) -> str | None:
    return "by_context" if isinstance(v, dict) else "by_time" if isinstance(v, list) else None


class Policy(_Strict):
    """P.json — a suppression policy: the probability of suppressing each context."""

    p: Annotated[Union[Annotated[dict[Label, Number], Tag("by_context")],
                       Annotated[list[list[Number]], Tag("by_time")]], Discriminator(
        _by_shape, custom_error_type="policy_shape",
        custom_error_message="p must be an object {context: probability} or a T x n matrix")] = Field(
        description="{context: probability} (the same at every t; unnamed contexts 0) or a T x n matrix p[t-1][i]")

    example: ClassVar[dict[str, Any]] = {"p": {"hospital": "1"}}


def _one_or_row(v: Any) -> str:
    return "per_context" if isinstance(v, list) else "one"


class Ad(_Strict):
    """One ad: its name, click-through rates and payment."""

    name: Label = Field(description="the ad's name, unique (results and errors name the ad by it)")
    ctr: list[Number] = Field(description="CTR(ad | c), one per context, in [0, 1]")
    payment: Annotated[Union[Annotated[Number, Tag("one")], Annotated[list[Number], Tag("per_context")]],
                       Discriminator(_one_or_row)] = Field(
        description="the payment p_a >= 0, or one p_a(c) per context (no default: a misspelt key is never read as 1)")


class AdInstance(_Strict):
    """INSTANCE.json — what the server knows for one generalised context ĉ."""

    contexts: list[Label] = Field(min_length=1, description="the exact contexts c under ĉ, each once")
    weights: list[Number] = Field(description="Pr[c | ĉ], one per context; sums to 1")
    ads: list[Ad] = Field(min_length=1, description="the ads: {\"name\", \"ctr\": [...], \"payment\"}")
    threshold: Number | None = Field(default=None, description="optional CTR threshold τ: a CTR below it counts 0")

    example: ClassVar[dict[str, Any]] = {"contexts": ["morning", "evening"], "weights": ["1/2", "1/2"],
               "ads": [{"name": "coffee", "ctr": ["1", "0"], "payment": "1"},
                       {"name": "dinner", "ctr": ["0", "1"], "payment": ["1", "2"]}]}

    def ad_names(self) -> list[str]:
        """Each ad's name; unique, else InvalidInput."""
        return _unique([a.name for a in self.ads], "ad name", "ad instance JSON: ads")


JSON_FORMATS: dict[str, tuple[str, type[_Strict]]] = {
    "mechanism": ("mechanism", Mechanism), "chain": ("chain", Chain), "policy": ("policy", Policy),
    "ads": ("ad instance", AdInstance)}
_TAGS = {"by_context", "by_time", "one", "per_context"}


# ------------------------------------------------------------------------------------------ reading


def _where(loc: tuple[Any, ...], data: Any) -> str:
    """A pydantic error location as a path: ``steps[0][1]``, ``inputs["yes"]["no"]``, ``ads[0] ("coffee").ctr``."""
    out, node, in_model, field, before = "", data, True, "", ""
    for part in loc:
        if part in _TAGS:
            continue
        if part == "[key]":
            out = f"a key of {before}"
            continue
        before = out
        if isinstance(part, int):
            out += f"[{part}]"
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
            in_model = field == "ads"
            if in_model and isinstance(node, Mapping) and isinstance(node.get("name"), str):
                out += f" ({node['name']!r})"
        elif in_model:
            out += f".{part}" if out else str(part)
            field, in_model = str(part), False
            node = node.get(part) if isinstance(node, Mapping) else None
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
            node = node.get(part) if isinstance(node, Mapping) else None
    return out or "the top level"


def _message(what: str, exc: ValidationError, data: Any, model: type[_Strict]) -> str:
    errors = exc.errors(include_url=False)
    # an unknown key first: a misspelt required key is both unknown and missing, and its name with "did you
    # mean" says more than "missing key"
    err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc, typ = tuple(err["loc"]), err["type"]
    where = _where(loc[:-1] if typ in ("extra_forbidden", "missing") else loc, data)
    if typ == "extra_forbidden":
        key = loc[-1]
        fields = _fields_at(loc[:-1], model)
        close = [f for f in fields if f.lower() == str(key).lower()] or \
            difflib.get_close_matches(str(key), fields, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"{what} JSON: unknown key {key!r} at {where}{hint}; allowed keys: {', '.join(fields)}"
    if typ == "missing":
        fields = _fields_at(loc[:-1], model)
        return f"{what} JSON: missing key {loc[-1]!r} at {where} (keys: {', '.join(fields)})"
    msg = err["msg"].removeprefix("Value error, ")
    got = err.get("input")
    shown = "" if isinstance(got, (dict, list)) or typ == "value_error" else \
        f" (got {json.dumps(got, default=str, ensure_ascii=False)[:40]})"
    if typ in ("dict_type", "list_type", "model_type", "string_type"):
        want = {"dict_type": "an object", "list_type": "a list", "model_type": "an object", "string_type": "text"}[typ]
        got_t = type(got).__name__.replace("dict", "object").replace("Decimal", "number").replace("int", "number")
        return f"{what} JSON: {where} must be {want}, got {got_t}{shown}"
    return f"{what} JSON: {where}: {msg}{shown if 'got' not in msg else ''}"


def _fields_at(loc: tuple[Any, ...], model: type[BaseModel]) -> list[str]:
    """The keys allowed in the object at ``loc`` (a model's fields)."""
    m: Any = model
    for part in loc:
        if isinstance(part, str) and m is not None and part in getattr(m, "model_fields", {}):
            ann = m.model_fields[part].annotation
            m = Ad if ann == list[Ad] else None
    return list((m or model).model_fields)


def read_json(path: str | Path, what: str) -> Any:
    """Parse a JSON file; a missing file or a syntax error is an :class:`InvalidInput` naming it."""
    p = as_path(path, what)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{what} file {str(p)!r} is not UTF-8 text (byte {exc.start})") from None
    except IsADirectoryError:
        raise InvalidInput(f"{what} file {str(p)!r} is a directory, not a file") from None
    except FileNotFoundError:
        raise InvalidInput(f"{what} file {str(p)!r} does not exist") from None
    except OSError as exc:
        raise InvalidInput(f"{what} file {str(p)!r} cannot be read: {exc.strerror}") from None
    return read_json_text(refuse_byte_order_mark(text, f"{what} file {str(p)!r}"), str(p))


def parse(name: str, source: str | Path | Mapping[str, Any], floats: Any = None) -> Any:
    """Read format ``name`` (a key of :data:`JSON_FORMATS`) from a path or an already-parsed mapping into
    its validated model; any problem is one InvalidInput naming the key or value."""
    what, model = JSON_FORMATS[name]
    data = source if isinstance(source, Mapping) else read_json(source, what)
    if not isinstance(data, Mapping):
        raise InvalidInput(f"{what} JSON: expected an object {{...}} with keys {', '.join(model.model_fields)}, "
                           f"got {type(data).__name__}")
    try:
        out = model.model_validate(data, context={"floats": floats})
    except ValidationError as exc:
        raise InvalidInput(_message(what, exc, data, model)) from None
    if isinstance(out, (Chain, AdInstance)):
        _unique(out.contexts, "context", f"{what} JSON: contexts")
    if isinstance(out, AdInstance):
        out.ad_names()
    return out


# ------------------------------------------------------------------------------------------ text formats


@dataclass(frozen=True)
class TextFormat:
    """A CSV/TSV layout: what each line holds, and the rules its loader enforces."""

    title: str
    lines: str
    rules: tuple[str, ...]
    example: str


TEXT_FORMATS: dict[str, TextFormat] = {
    "streams": TextFormat(
        "STREAM.csv — the days to filter", "one day per line: T context names separated by commas",
        ("every name is a context of the chain; every line has T names",
         "blank lines and lines starting with # are skipped; white space around a name is ignored"),
        "home,office,home"),
    "table": TextFormat(
        "TABLE.csv — the auxiliary table", "a header row of attribute names, then one tuple per row",
        ("attribute names are unique and not empty; every row has one value per attribute, none empty",
         "blank lines are skipped; white space around a value is ignored"),
        "zip,sex,disease\n13053,F,flu"),
    "log": TextFormat(
        "LOG — a search log (AOL 2006 TSV, or a folder with one <AnonID>.txt per user)",
        "TSV with the header AnonID<TAB>Query<TAB>QueryTime<TAB>ItemRank<TAB>ClickURL, one row per query or click",
        ("QueryTime is YYYY-MM-DD HH:MM:SS (UTC); a query is not blank and holds no tab",
         "ItemRank (digits) and ClickURL are both present (a click) or both empty (a query without click)",
         "per-user folder: blocks 'query<TAB>time' followed by clicked urls, separated by a blank line",
         "rows of one user with the same query and time are one search with all its clicks; row order does not matter"),
        "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n101\tweather\t2006-03-01 08:01:00\t1\thttp://weather.com"),
}
_FILES = {"mechanism": "MECH.json", "chain": "CHAIN.json", "policy": "P.json", "ads": "INSTANCE.json"}


def describe(name: str) -> str:
    """A format's text for ``--help`` (generated from its declaration)."""
    if name in TEXT_FORMATS:
        f = TEXT_FORMATS[name]
        return "\n".join([f"{f.title}: {f.lines}.", *(f"  - {r}" for r in f.rules),
                          "  example:", *(f"    {line}" for line in f.example.splitlines())])
    what, model = JSON_FORMATS[name]
    lines = [f"{_FILES[name]} — {model.__doc__.split('—', 1)[1].strip()} JSON object; unknown keys are errors:"]
    for key, field in model.model_fields.items():
        need = "required" if field.is_required() else "optional"
        lines.append(f"  {json.dumps(key):14} {need:9} {field.description}")
    if name == "ads":
        for key, field in Ad.model_fields.items():
            need = "required" if field.is_required() else "optional"
            lines.append(f"    ad {json.dumps(key):11} {need:9} {field.description}")
    lines.append(f"  example: {json.dumps(model.example, ensure_ascii=False)}")
    return "\n".join(lines)


NUMBERS = ("Numbers are exact: a JSON number is the decimal written (0.51 is 51/100), a string may be "
           "\"1/3\", \"0.25\" or \"1e-3\"; a key repeated in one object, NaN and Infinity are refused.")


ENCODING = ("Every file is UTF-8 text; one that starts with a byte-order mark (U+FEFF, as spreadsheet programs write "
            "\"CSV UTF-8\") is refused, naming the file: save it as UTF-8 without BOM.")


def markdown() -> str:
    """Every format, for the README's "Input formats" section."""
    blocks = [f"```text\n{describe(n)}\n```" for n in (*JSON_FORMATS, *TEXT_FORMATS)]
    return NUMBERS + " " + ENCODING + "\n\n" + "\n\n".join(blocks)


def label(x: Any) -> str:
    """A name for plain text and JSON: the string itself (no Python quotes); other values by ``str``."""
    return x if isinstance(x, str) else str(x)
