"""Reading JSON and TOML text strictly, every failure one capturefast error naming what is
wrong: a key given twice, a number too long to read, nesting too deep to read."""

from __future__ import annotations

import json
import sys
import tomllib
from typing import Any

from capturefast.errors import CaptureFastError


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (the last would win unseen)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key is given twice: {key!r}")
        out[key] = value
    return out


def _max_digits() -> int:
    """The most digits Python reads in an integer (`sys.set_int_max_str_digits`; 0: no limit)."""
    return sys.get_int_max_str_digits()


def _whole(digits: str) -> int:
    """A JSON integer, refusing one longer than Python reads (its message would be Python's)."""
    n, most = len(digits.lstrip("-")), _max_digits()
    if most and n > most:
        raise ValueError(f"a number has {n} digits, more than {most}")
    return int(digits)


def read(text: object, fmt: str, what: str, error: type[CaptureFastError]) -> Any:
    """The value of `text` as `fmt` (``"json"`` or ``"toml"``).

    Raises:
        TypeError: `text` is not a str.
        error: (named by the caller, e.g. `VariantError`) text that does not parse, a key given
            twice, a number of more digits than Python reads (`sys.get_int_max_str_digits()`,
            4300 by default), or nesting too deep to read; the message says `cannot read the
            {what} as JSON` (or TOML) and why.
    """
    if not isinstance(text, str):
        raise TypeError(f"the {what} must be given as a str, got: {type(text).__name__}")
    name = fmt.upper()
    try:
        if fmt == "json":
            return json.loads(text, object_pairs_hook=_unique, parse_int=_whole)
        return tomllib.loads(text)
    except RecursionError:
        raise error(f"cannot read the {what} as {name}: it is nested too deep") from None
    except ValueError as e:  # JSONDecodeError, TOMLDecodeError, a key twice, too many digits
        why = str(e)
        if "integer string conversion" in why:  # tomllib: Python's own limit on digits
            why = f"a number has more digits than {_max_digits()}"
        raise error(f"cannot read the {what} as {name}: {why}") from None
