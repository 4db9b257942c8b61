"""Cost weights: a TOML table that turns one method's counts into a single weighted ``cost`` figure.

    extends = "default"             # optional: start from the shipped table, or another file (relative to this one)

    [opcodes]                       # JVM mnemonics as javap prints them
    default = 1                     # every opcode not listed
    idiv = 10

    [calls]                         # callee signatures as counted: owner/Name.name(desc)ret, or "indy name(desc)ret"
    default = 10                    # every callee not matched below
    "java/lang/Math.max(II)I" = 1   # an exact signature wins over any pattern
    "java/lang/String.*" = 20       # '*' matches any run of characters; the first matching pattern in file order wins

``cost = Σ count(opcode) × weight(opcode) + Σ count(call) × weight(signature)``. Weights are whole numbers
≥ 0, so a cost is an exact integer like every other count. The table is data only: nothing in it is evaluated.
Without ``extends``, an unlisted opcode weighs 1 and an unlisted call 0 unless the table sets ``default``.
The shipped table is ``default.toml`` in this package; it documents where its relative weights come from.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

from ...classfile.opcodes import MNEMONICS
from ...counting.counts import table

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

DEFAULT = "default"
DEFAULT_FILE = Path(__file__).resolve().parent / "default.toml"
# `wide` is never a counted key: a wide-prefixed instruction counts under the instruction it modifies.
COUNTED_OPCODES = frozenset(m for m in MNEMONICS if m and m != "wide")
TOP_LEVEL_KEYS = ("extends", "opcodes", "calls")


class WeightsError(ValueError):
    """A weight table that cannot be used; the message names the file, the key and the bad value."""


@dataclass(frozen=True)
class WeightTable:
    """A loaded, validated table. ``cost(counts)`` weighs one method's counts."""

    source: str  # "default" or the file's path, for messages and the summary
    opcodes: dict  # mnemonic -> weight
    default_opcode: int
    exact_calls: dict  # signature -> weight
    call_patterns: tuple  # ((pattern text, compiled regex, weight), ...) in precedence order
    default_call: int
    sha256: str  # of the table files' bytes, outermost first: identifies the model in results
    _call_cache: dict = field(default_factory=dict, compare=False, repr=False)

    def opcode_weight(self, mnemonic: str) -> int:
        return self.opcodes.get(mnemonic, self.default_opcode)

    def call_weight(self, signature: str) -> int:
        weight = self._call_cache.get(signature)
        if weight is None:
            weight = self.exact_calls.get(signature)
            if weight is None:
                weight = next((w for _, rx, w in self.call_patterns if rx.fullmatch(signature)), self.default_call)
            self._call_cache[signature] = weight
        return weight

    def cost(self, method_counts: dict) -> int:
        """Σ opcode count × opcode weight + Σ call count × signature weight, for one method's counts."""
        return sum(n * self.opcode_weight(op) for op, n in table(method_counts, "opcodes").items()) + sum(
            n * self.call_weight(sig) for sig, n in table(method_counts, "calls").items())

    def with_costs(self, counts: dict) -> dict:
        """``{method: counts}`` with a ``cost`` key added to (copies of) every method's counts."""
        return {method: {**c, "cost": self.cost(c)} for method, c in counts.items()}

    def describe(self) -> str:
        where = f"default table ({DEFAULT_FILE})" if self.source == DEFAULT else self.source
        return f"{where}, sha256 {self.sha256[:12]}"


def load_weights(spec: Union[str, Path], base_dir: Optional[Path] = None) -> WeightTable:
    """``"default"`` (the shipped table) or the path of a TOML table, relative to ``base_dir`` if given."""
    if str(spec) == DEFAULT:
        path = DEFAULT_FILE
    else:
        path = Path(spec)
        if base_dir is not None and not path.is_absolute():
            path = Path(base_dir) / path
    layers = _read_layers(path, chain=())
    return _merge(DEFAULT if str(spec) == DEFAULT else str(path), layers)


@dataclass
class _Layer:
    path: Path
    raw: bytes
    opcodes: dict
    calls: list  # [(signature or pattern, weight)] in file order, without "default"
    default_opcode: Optional[int]
    default_call: Optional[int]


def _where(path: Path) -> str:
    return "the default weight table" if path == DEFAULT_FILE else f"weight table {path}"


def _read_layers(path: Path, chain: tuple) -> list:
    """The table at ``path`` and, after it, the tables it extends (outermost first)."""
    path = Path(path).resolve()
    if path in chain:
        cycle = " -> ".join(str(p) for p in (*chain, path))
        raise WeightsError(f"weight tables extend each other in a cycle: {cycle}")
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise WeightsError(f"{_where(path)} not found; pass 'default' or the path of a TOML file") from None
    except OSError as e:
        raise WeightsError(f"cannot read {_where(path)}: {e}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise WeightsError(f"{_where(path)} is not valid TOML ({e})") from None
    where = _where(path)
    unknown = sorted(set(data) - set(TOP_LEVEL_KEYS))
    if unknown:
        raise WeightsError(f"{where}: unknown key(s) {unknown}; a table holds {', '.join(TOP_LEVEL_KEYS)}")
    opcodes_table = _table(data, "opcodes", where)
    calls_table = _table(data, "calls", where)

    opcodes, default_opcode = {}, None
    for key, value in opcodes_table.items():
        weight = _weight(value, where, "opcodes", key)
        if key == "default":
            default_opcode = weight
        elif key in COUNTED_OPCODES:
            opcodes[key] = weight
        else:
            hint = "'wide' is never counted: a wide instruction counts under the one it modifies" if key == "wide" \
                else _near(key, COUNTED_OPCODES, "not a JVM opcode mnemonic as javap prints it")
            raise WeightsError(f"{where}: [opcodes] {key!r}: {hint}")
    calls, default_call = [], None
    for key, value in calls_table.items():
        weight = _weight(value, where, "calls", key)
        if key == "default":
            default_call = weight
        elif not key.strip():
            raise WeightsError(f"{where}: [calls] has an empty signature key")
        else:
            calls.append((key, weight))

    layer = _Layer(path, raw, opcodes, calls, default_opcode, default_call)
    extends = data.get("extends")
    if extends is None:
        return [layer]
    if not isinstance(extends, str) or not extends.strip():
        raise WeightsError(f"{where}: extends must be 'default' or the path of another table, not {extends!r}")
    parent = DEFAULT_FILE if extends == DEFAULT else path.parent / extends
    return [layer, *_read_layers(parent, (*chain, path))]


def _table(data: dict, name: str, where: str) -> dict:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise WeightsError(f"{where}: {name} must be a table ([{name}]), not {type(value).__name__}")
    nested = [k for k, v in value.items() if isinstance(v, dict)]
    if nested:
        raise WeightsError(f"{where}: [{name}] {nested[0]!r} is a table; quote signatures that contain dots, "
                           f"e.g. \"java/lang/String.length()I\" = 1")
    return value


def _weight(value, where: str, table: str, key: str) -> int:
    # bool is an int in Python; a weight of `true` is a mistake, not 1
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise WeightsError(f"{where}: [{table}] {key!r} = {value!r}: a weight must be a whole number >= 0 "
                           f"(scale the whole table up for finer steps)")
    return value


def _near(key: str, known, what: str) -> str:
    close = difflib.get_close_matches(key.lower(), sorted(known), n=3)
    return what + (f"; did you mean {', '.join(close)}?" if close else "")


def _pattern(text: str) -> "re.Pattern":
    # only '*' is special: signatures hold '[' (arrays), '$', '(' and ';', which must match literally
    return re.compile(".*".join(re.escape(part) for part in text.split("*")), re.S)


def _merge(source: str, layers: list) -> WeightTable:
    """Outer layers win: their opcode weights and exact signatures override, their patterns are tried first."""
    opcodes: dict = {}
    exact: dict = {}
    patterns: list = []
    default_opcode = default_call = None
    for layer in reversed(layers):  # innermost (the extended table) first, then override
        opcodes.update(layer.opcodes)
        default_opcode = layer.default_opcode if layer.default_opcode is not None else default_opcode
        default_call = layer.default_call if layer.default_call is not None else default_call
    seen = set()
    for layer in layers:  # outermost first: precedence order for patterns
        for key, weight in layer.calls:
            if key in seen:
                continue
            seen.add(key)
            if "*" in key:
                patterns.append((key, _pattern(key), weight))
            else:
                exact[key] = weight
    digest = hashlib.sha256()
    for layer in layers:
        digest.update(hashlib.sha256(layer.raw).digest())
    return WeightTable(source, opcodes, 1 if default_opcode is None else default_opcode, exact, tuple(patterns),
                       0 if default_call is None else default_call, digest.hexdigest())
