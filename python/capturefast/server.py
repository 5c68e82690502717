"""`capturefast serve`: the JSON server over HTTP (docs/server.md), a FastAPI app under uvicorn.

Every endpoint takes the rules (a preset with overrides) and a position (a deal and the moves
since, or the cards of `State.from_position`), and answers JSON. Work runs in the threadpool,
off the event loop, with the GIL released inside the core; each request has a time budget
(`--time-limit`) and a body size limit, and work that asks for more is refused with a 4xx JSON
error; the work of a request whose client closes the connection is stopped. Bad input of any
kind is a 4xx with a message (`{"error": ...}`), never a 5xx.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from types import FrameType
from typing import Annotated, Any, Literal, TypeVar

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from capturefast._core import Bot, Move, Rules, State, View, __version__
from capturefast.errors import CaptureFastError, printable
from capturefast.service import (
    BUILTIN_BOTS,
    MAX_SEED,
    Budget,
    SearchResult,
    deal_logged,
    from_notation,
    play_logged,
    preset_rules,
    search,
    searchable,
)
from capturefast.sim import simulate
from capturefast.solve import StopFlag, solve
from capturefast.variants import PRESETS, describe

__all__ = ["MAX_BODY", "create_app", "main"]

MAX_BODY = 64 * 1024

# A request's moves, each with the state before it.
History = list[tuple[State, Move | str]]
MAX_WORLDS = 10_000
MAX_HANDS = 100_000
MAX_MOVES = 200
# How long past a request's time budget the server waits for its work to stop before refusing
# it with 408: a search stops itself at its `time_ms`, and answers a little after.
GRACE_MS = 500
# How often a request's work asks whether its client is still there, in seconds.
DISCONNECT_POLL_S = 0.05

T = TypeVar("T")


def _one_option_error(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    # One message for a value of none of the types, not one for each type it is not.
    try:
        return handler(value)
    except ValidationError:
        raise PydanticCustomError(
            "option_value", "an option's value is a word, a whole number, true or false"
        ) from None


OptionValue = Annotated[str | int | bool, WrapValidator(_one_option_error)]
FastBot = Literal["random", "random_card", "greedy", "expert"]


class _Strict(BaseModel):
    # Strict: a JSON value of another type is refused, not converted (`true` is no seed,
    # `11.0` no whole number).
    model_config = ConfigDict(extra="forbid", strict=True)


class RulesSpec(_Strict):
    """A preset (docs/variants.md) with its player count and option overrides."""

    preset: str = Field("scopa", max_length=40, examples=["scopa", "cirulla", "escoba"])
    players: Literal[2, 4] | None = Field(None, description="default: the preset's")
    options: dict[str, OptionValue] = Field(
        default_factory=dict,
        max_length=40,
        description='option overrides in docs/variants.md\'s words, e.g. {"target": 21}',
    )

    @field_validator("players", mode="before")
    @classmethod
    def _whole_players(cls, value: object) -> object:
        # A `Literal` compares by equality, which would take 2.0 for 2 despite `strict`.
        if value is not None and type(value) is not int:
            raise ValueError(f"players must be 2 or 4, got: {_json_value(value)}")
        return value


class Deal(_Strict):
    """The deal of a seed (docs/conventions.md: one seed, one deal)."""

    seed: int = Field(ge=0, le=MAX_SEED)


class Cards(_Strict):
    """Every card placed, as `State.from_position` takes them (cards in card notation)."""

    hands: list[list[str]] = Field(max_length=4)
    table: list[str] = Field(default_factory=list, max_length=40)
    stock: list[str] = Field(default_factory=list, max_length=40)
    to_move: int = Field(0, ge=0, le=3)
    dealer: int | None = Field(None, ge=0, le=3)
    last_capturer: int | None = Field(None, ge=0, le=3)
    piles: list[list[str]] | None = Field(None, max_length=4)
    sweeps: list[int] | None = Field(None, max_length=4)
    scores: list[int] | None = Field(None, max_length=4)


class Position(_Strict):
    """A position: exactly one of `notation`, `deal` and `cards`, then `moves` played from it
    (a view cannot play moves)."""

    notation: str | None = Field(
        None,
        max_length=4096,
        description="a state or view line of the position notation (docs/notation.md); "
        "it holds its rules, so `rules` is not read",
    )
    deal: Deal | None = None
    cards: Cards | None = None
    moves: list[str] = Field(
        default_factory=list, max_length=MAX_MOVES, examples=[["QD x AS+2D+6D"]]
    )

    @model_validator(mode="after")
    def _one_source(self) -> Position:
        given = [x for x in (self.notation, self.deal, self.cards) if x is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of `notation`, `deal` and `cards`")
        return self


class Query(_Strict):
    """The rules and a position."""

    rules: RulesSpec = Field(default_factory=RulesSpec)  # type: ignore[arg-type]
    position: Position


class SearchQuery(Query):
    """A position and the budget of a search over worlds drawn from what the mover sees."""

    worlds: int = Field(100, ge=1, le=MAX_WORLDS)
    time_ms: int | None = Field(None, ge=1, description="at most the server's time limit")
    horizon: Literal["round", "hand"] = "round"
    seed: int = Field(0, ge=0, le=MAX_SEED)
    nodes: int | None = Field(None, ge=1, le=10**15, description="solver nodes; horizon hand")


class MoveQuery(SearchQuery):
    """`SearchQuery`, or one decision of a named built-in bot."""

    bot: str | None = Field(
        None,
        max_length=100,
        examples=["expert", "pimc:worlds=400"],
        description="a built-in bot, its budget in its name; then `worlds`, `time_ms`, `nodes` "
        "and `horizon` may not be given, and `seed` is the bot's",
    )

    @model_validator(mode="after")
    def _budget_in_the_name(self) -> MoveQuery:
        # A search budget beside a bot would be ignored: the bot's is in its name.
        given = [k for k in ("worlds", "time_ms", "nodes", "horizon") if k in self.model_fields_set]
        if self.bot is not None and given:
            raise ValueError(
                f"a bot's budget is in its name (`pimc:worlds=400`), not beside it: {given[0]}"
            )
        return self


def _random_bot() -> list[FastBot]:
    return ["random"]


class SimulateQuery(_Strict):
    """A bounded batch simulation of the fast bots."""

    rules: RulesSpec = Field(default_factory=RulesSpec)  # type: ignore[arg-type]
    bots: list[FastBot] = Field(default_factory=_random_bot, min_length=1, max_length=4)
    hands: int = Field(1000, ge=1, le=MAX_HANDS)
    duplicate: bool = False
    seed: int = Field(0, ge=0, le=MAX_SEED)


class Refused(Exception):
    """A request the server refuses: its status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _BodyLimit:
    """Refuses a body over `limit` bytes with 413, by its Content-Length or as it streams."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _too_large(self.limit, send)
                return
        # Read the whole body first (it is small, or refused), then hand it to the app: an error
        # raised from inside the app's own read would reach it as a parse error, not a 413.
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client has gone
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await _too_large(self.limit, send)
                return
        lone = _lone_surrogate(body)
        if lone is not None:
            response = JSONResponse({"error": lone}, status_code=400)
            await response({"type": "http"}, _no_body, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _lone_surrogate(body: bytes) -> str | None:
    """Why a JSON `body` is refused at the door if one of its strings or keys holds a lone
    surrogate (a `\\ud800` escape without its pair), which is no character and which no reply
    could repeat: the message names where, with the escape spelled in ASCII."""
    if b"\\u" not in body and b"\\U" not in body:
        return None  # UTF-8 bytes cannot spell a surrogate: only an escape can
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        return None  # the app's own parse refuses it, with its own message
    stack: list[tuple[object, tuple[str, ...]]] = [(doc, ())]
    while stack:
        value, path = stack.pop()
        texts: list[tuple[str, tuple[str, ...]]] = []
        if isinstance(value, str):
            texts.append((value, path))
        elif isinstance(value, dict):
            for key, item in value.items():
                texts.append((key, path))
                stack.append((item, (*path, key.encode("ascii", "backslashreplace").decode())))
        elif isinstance(value, list):
            stack.extend((item, (*path, str(i))) for i, item in enumerate(value))
        for text, where in texts:
            bad = next((c for c in text if "\ud800" <= c <= "\udfff"), None)
            if bad is not None:
                at = ".".join(where) or "body"
                why = "the text holds a lone surrogate, which is not a character"
                return f"{at}: {why}: \\u{ord(bad):04x}"
    return None


async def _too_large(limit: int, send: Send) -> None:
    response = JSONResponse({"error": f"the request body is over the limit of bytes: {limit}"})
    response.status_code = 413
    await response({"type": "http"}, _no_body, send)


async def _no_body() -> Message:
    return {"type": "http.disconnect"}


# The engine's hints name Python calls and arguments in places: the server's words instead.
_SERVER_WORDS = (
    ("hint: see `state.legal_moves()`", "hint: POST /legal lists the legal moves"),
    ("hint: choose one of `view.legal_moves()`", "hint: POST /legal lists the legal moves"),
    (
        'hint: opening_sweeps="partition" is initial_30_requires_partition=True',
        'hint: "opening_sweeps": "partition" is "initial_30_requires_partition": true',
    ),
)


def _server_words(message: str) -> str:
    """`message` with the Python names it gives in the server's words."""
    for python, http in _SERVER_WORDS:
        message = message.replace(python, http)
    return message


def _rules(spec: RulesSpec) -> Rules:
    return preset_rules(spec.preset, spec.players, spec.options)


def _position(spec: RulesSpec, pos: Position) -> State | View:
    return _position_logged(spec, pos)[0]


def _position_logged(spec: RulesSpec, pos: Position) -> tuple[State | View, History]:
    """The position a request names under the rules of `spec`, and its `moves` each with the
    state before it (what a bot that reads the others' play is told). A notation line holds
    its rules: `spec` is then not read."""
    if pos.notation is not None:
        position = from_notation(pos.notation)
        if isinstance(position, View):
            if pos.moves:
                raise Refused(400, f"a view cannot play moves: {pos.moves[0]}")
            return position, []
        return play_logged(position, pos.moves)
    if pos.deal is not None:
        return deal_logged(_rules(spec), pos.deal.seed, pos.moves)
    cards = pos.cards
    assert cards is not None  # the validator asked for one of them
    state = State.from_position(
        _rules(spec),
        hands=cards.hands,
        table=cards.table,
        stock=cards.stock,
        to_move=cards.to_move,
        dealer=cards.dealer,
        last_capturer=cards.last_capturer,
        piles=cards.piles,
        sweeps=cards.sweeps,
        scores=cards.scores,
    )
    return play_logged(state, pos.moves)


def _whole(position: State | View, endpoint: str) -> State:
    """`position`, which `endpoint` needs whole: a view is refused."""
    if isinstance(position, View):
        raise Refused(
            400,
            f"{endpoint} needs the whole position (a state line, a deal or the cards), "
            f"not the view of seat {position.seat}: {endpoint}",
        )
    return position


def _json_value(value: object) -> str:
    """`value` as JSON, on one printable line, a long one cut short."""
    text = printable(json.dumps(value, ensure_ascii=False, default=repr))
    return text if len(text) <= 100 else f"{text[:80]}... ({len(text)} characters)"


class _LongNumber:
    """A whole number in a body with more digits than Python reads (`int_max_str_digits`)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _whole_number(text: str) -> int | _LongNumber:
    limit = sys.get_int_max_str_digits()
    digits = len(text.lstrip("-"))
    return _LongNumber(digits) if limit and digits > limit else int(text)


def _not_utf8(value: object) -> bool:
    """`value` is text read with ``surrogateescape`` from bytes that are not UTF-8."""
    return isinstance(value, str) and any("\udc80" <= c <= "\udcff" for c in value)


def _first_bad(doc: object, path: tuple[str, ...] = ()) -> tuple[str, object] | None:
    """Where in the parsed `doc` the first unreadable value is (a `_LongNumber`, or text with
    bytes that are not UTF-8, left as surrogates), and that value."""
    if isinstance(doc, _LongNumber) or _not_utf8(doc):
        return ".".join(path) or "body", doc
    items: list[tuple[str, object]] = []
    if isinstance(doc, dict):
        items = list(doc.items())
        for key, _ in items:
            if _not_utf8(key):
                return ".".join(path) or "body", key
    elif isinstance(doc, list):
        items = [(str(i), v) for i, v in enumerate(doc)]
    for key, value in items:
        found = _first_bad(value, (*path, key))
        if found is not None:
            return found
    return None


def _unreadable(body: bytes) -> str:
    """Why the JSON parser refused `body` (bytes that are not UTF-8, a whole number with more
    digits than it reads), naming the field where it can."""
    try:
        body.decode("utf-8")
        bad_byte = None
    except UnicodeDecodeError as e:
        bad_byte = e.start
    try:
        found = _first_bad(
            json.loads(body.decode("utf-8", "surrogateescape"), parse_int=_whole_number)
        )
    except (ValueError, RecursionError):
        found = None
    where = "body" if found is None else found[0]
    if bad_byte is not None:
        return (
            f"{where}: the text is not UTF-8 at byte {bad_byte} of the body: 0x{body[bad_byte]:02x}"
        )
    if found is not None and isinstance(found[1], _LongNumber):
        limit = sys.get_int_max_str_digits()
        return f"{where}: the number has more digits than the limit of {limit}: {found[1].digits}"
    return "the body could not be parsed as JSON"


def _validation_message(errors: Sequence[Any]) -> str:
    """The first validation error as one message: where, what, and the value given."""
    if not errors:
        return "invalid request"
    first = errors[0]
    if first.get("type") == "json_invalid":
        loc = first.get("loc", ())
        at = f" at character {loc[-1]}" if loc and isinstance(loc[-1], int) else ""
        why = str((first.get("ctx") or {}).get("error", "")).lower()
        return f"the body is not JSON{at}" + (f": {why}" if why else "")
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    given = first.get("input")
    if first.get("type") == "value_error":
        # The server's own validators' messages, which name the value themselves.
        what = str((first.get("ctx") or {}).get("error", first.get("msg", "invalid")))
    else:
        msg = str(first.get("msg", "invalid"))
        what = msg[:1].lower() + msg[1:]
        if given is None or isinstance(given, str | int | float | bool):
            what += f", got: {_json_value(given)}"
    more = f"{len(errors)} errors, the first: " if len(errors) > 1 else ""
    return f"{more}{where}: {what}"


def create_app(time_limit_ms: int = 10_000) -> FastAPI:
    """The application; every request's work must end within `time_limit_ms`."""
    app = FastAPI(
        title="capturefast",
        version=__version__,
        description="Legal moves, bot moves, solves, analyses, score reports and bounded "
        "simulations of Scopa, Escoba and Chkobba positions. Errors are "
        '`{"error": message}` with a 4xx status.',
    )

    @app.exception_handler(CaptureFastError)
    async def _bad_input(request: Request, exc: CaptureFastError) -> JSONResponse:
        return JSONResponse({"error": _server_words(str(exc))}, status_code=400)

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # The framework's own refusals (a path or method the API does not have, a body its
        # JSON parser cannot take) in the same form as every other error.
        status = exc.status_code
        if status == 404:
            what = f"no such path: {request.url.path}"
        elif status == 405:
            what = f"{request.url.path} does not take the method: {request.method}"
        elif status == 400 and exc.__cause__ is not None:
            # JSON the parser gives up on (nested too deeply for it, bytes that are not UTF-8,
            # a number too long for it): malformed JSON, as the decode errors are.
            status = 422
            if isinstance(exc.__cause__, RecursionError):
                what = "the body could not be parsed as JSON: nested too deeply"
            else:
                what = _unreadable(await request.body())
        else:
            what = f"the request was refused: {exc.detail}"
        return JSONResponse({"error": what}, status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        detail = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in errors]
        message = _validation_message(errors)
        if errors and errors[0].get("type") == "json_invalid":
            # Bytes that are not UTF-8 but read as another encoding JSON allows (UTF-16 after
            # its byte order mark), then not JSON: the bytes are the fault.
            body = await request.body()
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                message = _unreadable(body)
        return JSONResponse({"error": message, "detail": detail}, 422)

    # The core's work runs on as many threads as there are cores: more would only share them,
    # each with its own solver table in memory. A request waits its turn within its budget.
    limiter = anyio.CapacityLimiter(os.cpu_count() or 1)

    async def offload(request: Request, work: Callable[[StopFlag], T], budget_ms: int) -> T:
        """Runs `work(stop)` in the threadpool for `request`. Past `budget_ms` and `GRACE_MS`,
        or when the client closes the connection, it sets `stop` and gives up: a search, solve
        or simulation given `stop` ends soon after, freeing its thread, and a request still
        waiting its turn leaves the queue."""
        stop = StopFlag()
        gone = False

        async def watch(work_scope: anyio.CancelScope) -> None:
            nonlocal gone
            while not await request.is_disconnected():
                await anyio.sleep(DISCONNECT_POLL_S)
            gone = True
            stop.set()
            work_scope.cancel()

        done: list[T] = []
        failed: list[Exception] = []
        try:
            with anyio.fail_after((budget_ms + GRACE_MS) / 1000):
                async with anyio.create_task_group() as tasks:
                    tasks.start_soon(watch, tasks.cancel_scope)
                    try:
                        done.append(
                            await anyio.to_thread.run_sync(
                                work, stop, abandon_on_cancel=True, limiter=limiter
                            )
                        )
                    except Exception as e:  # raised below, out of the task group
                        failed.append(e)
                    tasks.cancel_scope.cancel()
        except TimeoutError:
            raise Refused(
                408, f"the work took longer than the time budget of milliseconds: {budget_ms}"
            ) from None
        finally:
            # Ended, refused or abandoned: the work stops, if it still runs.
            stop.set()
        if gone:
            # Nobody reads this answer: the client has gone.
            raise Refused(499, "the client closed the connection before the answer")
        if failed:
            raise failed[0]
        return done[0]

    def budget_of(q: SearchQuery) -> Budget:
        if q.time_ms is not None and q.time_ms > time_limit_ms:
            raise Refused(422, f"time_ms must be at most {time_limit_ms}, got: {q.time_ms}")
        return Budget(
            worlds=q.worlds, time_ms=q.time_ms, horizon=q.horizon, seed=q.seed, nodes=q.nodes
        )

    @app.get("/presets", summary="the presets and their rules")
    async def presets() -> list[dict[str, Any]]:
        out = []
        for name, preset in PRESETS.items():
            r = preset_rules(name)
            out.append({"name": name, "title": preset.title, "rules": r.to_dict()})
        return out

    @app.get("/bots", summary="the built-in bot names, the search bots last")
    async def bots() -> list[str]:
        return list(BUILTIN_BOTS)

    @app.post("/rules", summary="a preset's rules with overrides, and what they play by")
    async def rules(spec: RulesSpec) -> dict[str, Any]:
        r = _rules(spec)
        return {"rules": r.to_dict(), "description": describe(r)}

    @app.post("/legal", summary="the legal moves of a position")
    async def legal(q: Query) -> dict[str, Any]:
        state = _position(q.rules, q.position)
        return {
            "to_move": state.to_move,
            "hand_over": state.phase in ("hand_over", "match_over"),
            "moves": [str(m) for m in state.legal_moves()],
        }

    @app.post("/move", summary="the best move of the seat to move, over worlds it cannot tell")
    async def move(q: MoveQuery, request: Request) -> dict[str, Any]:
        position, history = _position_logged(q.rules, q.position)
        if q.bot is not None:
            return await bot_move(request, position, history, q.bot, q.seed)
        return await search_answer(request, q, position, history)

    async def search_answer(
        request: Request, q: SearchQuery, position: State | View, history: History
    ) -> dict[str, Any]:
        """The search of `/move` and `/analyze`: the best move and every move's values, the
        worlds weighed by the position's moves (`history`) when it has any."""
        state = searchable(position)
        b = budget_of(q)
        begun = time.monotonic()

        def work(stop: StopFlag) -> SearchResult:
            # A search with a time budget ends by the request's time limit, counted from its
            # arrival: one that waited its turn is granted only the time left, and says it
            # stopped.
            granted = b
            if b.time_ms is not None:
                left = time_limit_ms - round((time.monotonic() - begun) * 1000)
                granted = replace(b, time_ms=max(1, min(b.time_ms, left)))
            return search(state, granted, stop=stop, history=history)

        result = await offload(request, work, time_limit_ms)
        return {
            "move": str(result.best),
            "seat": result.seat,
            "worlds": result.worlds,
            "exact": result.exact,
            "stopped": result.stopped,
            "time_ms": result.time_ms,
            "nodes": result.nodes,
            "horizon": result.horizon,
            "fallback": result.fallback,
            "values": [
                {"move": str(s.move), "mean": s.mean, "stderr": s.stderr} for s in result.moves
            ],
        }

    async def bot_move(
        request: Request, position: State | View, history: History, name: str, seed: int
    ) -> dict[str, Any]:
        bot = Bot(name, seed=seed)
        if position.to_move is None:
            raise Refused(400, "the hand is over: nothing to choose")
        start = time.perf_counter()
        chosen = await offload(
            request, lambda stop: bot.choose(position, history, stop=stop), time_limit_ms
        )
        return {
            "move": str(chosen),
            "seat": position.to_move,
            "bot": bot.name,
            "time_ms": round((time.perf_counter() - start) * 1000),
        }

    @app.post("/analyze", summary="each legal move's mean value over worlds, for the mover")
    async def analyze(q: SearchQuery, request: Request) -> dict[str, Any]:
        out = await search_answer(request, q, *_position_logged(q.rules, q.position))
        keep = (
            "seat",
            "worlds",
            "exact",
            "stopped",
            "time_ms",
            "nodes",
            "horizon",
            "fallback",
            "values",
        )
        return {k: out[k] for k in keep}

    @app.post("/solve", summary="the exact value of an open position and of each move")
    async def solve_endpoint(q: Query, request: Request) -> dict[str, Any]:
        state = _whole(_position(q.rules, q.position), "/solve")
        start = time.perf_counter()
        sol = await offload(request, lambda stop: solve(state, stop=stop), time_limit_ms)
        rows = sorted(sol.move_values.items(), key=lambda kv: -kv[1])
        return {
            "value": sol.value,
            "nodes": sol.nodes,
            "time_ms": round((time.perf_counter() - start) * 1000),
            "best_moves": [str(m) for m in sol.best_moves],
            "moves": [{"move": str(m), "value": v} for m, v in rows],
        }

    @app.post("/report", summary="the score report of a finished hand")
    async def report(q: Query) -> dict[str, Any]:
        state = _whole(_position(q.rules, q.position), "/report")
        if not state.hand_over:
            raise Refused(400, "the hand is not over: no score report yet")
        return {"report": state.hand_report().to_dict(), "text": str(state.hand_report())}

    @app.post("/simulate", summary="a bounded batch of hands between the fast bots")
    async def simulate_endpoint(q: SimulateQuery, request: Request) -> dict[str, Any]:
        r = _rules(q.rules)
        bots = q.bots[0] if len(q.bots) == 1 else tuple(q.bots)

        def work(stop: StopFlag) -> dict[str, Any]:
            def progress(done: int, total: int) -> None:
                if stop.is_set():
                    raise Refused(408, "stopped")

            result = simulate(
                r,
                q.hands,
                bots=bots,
                duplicate=q.duplicate,
                seed=q.seed,
                threads=1,
                progress=progress,
            )
            return result.to_dict()

        return await offload(request, work, time_limit_ms)

    return app


def wrap(app: FastAPI) -> ASGIApp:
    """`app` behind the body size limit."""
    return _BodyLimit(app, MAX_BODY)


def main(host: str = "127.0.0.1", port: int = 8000, time_limit_ms: int = 10_000) -> int:
    """Serves until interrupted; prints the address it listens on (with `port` 0, the free
    port the system chose).

    Raises:
        OSError: the address cannot be listened on (a port in use, a host not of this machine).
        KeyboardInterrupt: SIGINT (Ctrl-C) stopped the server, once the requests in flight
            were answered; the command line ends with status 130, as its other subcommands.
    """
    import uvicorn

    app = create_app(time_limit_ms)
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"capturefast serve: http://{shown}:{bound} (OpenAPI at /openapi.json)", flush=True)
    # No lifespan: the app has no startup or shutdown work, and a second Ctrl-C while the
    # first shuts down made uvicorn print the lifespan task's cancellation as a traceback.
    config = uvicorn.Config(wrap(app), log_level="warning", access_log=False, lifespan="off")

    class Server(uvicorn.Server):
        """uvicorn's server, keeping the signals that stopped it."""

        def __init__(self, config: uvicorn.Config) -> None:
            super().__init__(config)
            self.signals: list[int] = []

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            self.signals.append(sig)
            super().handle_exit(sig, frame)

    server = Server(config)
    server.run(sockets=[sock])
    if signal.SIGINT in server.signals:
        # uvicorn stops on SIGINT even where it was ignored when the process started (a job a
        # shell runs in the background), and raises it again on the way out, which then does
        # nothing: end as Ctrl-C ends every other subcommand (status 130), not with 0.
        raise KeyboardInterrupt
    return 0
