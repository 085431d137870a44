"""Writes that happen once: a retried request gets the first answer and writes nothing.

A web worker killed after its transaction committed but before its answer left makes a
client (or a browser) send the request again; two taps on a slow phone send a form twice.
The caller names each write with a key, an ``Idempotency-Key`` header on the API or the
one-time token a form is rendered with (``FORM_FIELD``): the first request with that key
is answered and its answer kept (``AnsweredRequest``) in the same transaction as its
write; a request with a key already answered gets that answer again and writes nothing.

* The key is the caller's own (one account cannot replay another's answer) and is kept
  for ``KEPT_FOR``; older keys are swept now and then as new ones come (no scheduled
  job), and one that comes again after its day is answered afresh.
* A key is bound to the request it answered (method, path and body): the same key with
  another request is refused (422), since answering it with the first's would hide that
  the second was never done.
* Only a write is remembered: a refused request wrote nothing, so its retry is judged
  afresh.
* Two requests with one key at the same moment: the second waits on the key's row and,
  once the first commits, gets its answer (``IntegrityError`` on the key, then read it).
  The key's row is the write's first statement, with no read before it: a keyed write
  costs one INSERT and one UPDATE more than an unkeyed one.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import AnsweredRequest
from web.errors import ServiceError

KEY_HEADER = "Idempotency-Key"
REPLAY_HEADER = "Idempotent-Replayed"
FORM_FIELD = "once"
KEPT_FOR = timedelta(hours=24)
MAX_KEY = 200


class KeyReused(ServiceError):
    """The key answered another request: refused, so the caller learns the second was not done."""

    status = 422


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]
    replayed: bool = False


def new_form_token() -> str:
    """A one-time token for one rendering of a form."""
    return secrets.token_urlsafe(18)


def fingerprint(method: str, path: str, data: Any) -> str:
    """What a request was for: its method, path and body, read the same whichever way sent."""
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), cls=DjangoJSONEncoder)
    return hashlib.sha256(f"{method}\n{path}\n{body}".encode()).hexdigest()


def _checked_key(key: str, field: str) -> str:
    if not key or len(key) > MAX_KEY or not key.isascii() or not key.isprintable():
        raise ServiceError(
            _("%(field)s must be 1 to %(most)s printable ASCII characters.")
            % {"field": field, "most": MAX_KEY},
            field,
        )
    return key


# Day-old keys are swept at most this often per process: a sweep on every write cost each
# report a statement (benchmarks/hosted_weekend.py); a key past KEPT_FOR is not replayed
# meanwhile (``_kept`` reads only fresh ones) and its row is replaced if the key comes again.
SWEEP_EVERY_SECONDS = 60.0
_next_sweep = 0.0


def forget_old_answers() -> None:
    """Delete keys older than ``KEPT_FOR``, in a statement of its own (outside the write)."""
    AnsweredRequest.objects.filter(created_at__lt=timezone.now() - KEPT_FOR).delete()


def _sweep_now_and_then() -> None:
    global _next_sweep
    now = time.monotonic()
    if now >= _next_sweep:
        _next_sweep = now + SWEEP_EVERY_SECONDS
        forget_old_answers()


def _kept(user, key: str) -> AnsweredRequest | None:
    cutoff = timezone.now() - KEPT_FOR
    return AnsweredRequest.objects.filter(user=user, key=key, created_at__gte=cutoff).first()


def _forget_if_stale(user, key: str) -> bool:
    """A key answered more than ``KEPT_FOR`` ago and not yet swept: free it for this request."""
    cutoff = timezone.now() - KEPT_FOR
    stale = AnsweredRequest.objects.filter(user=user, key=key, created_at__lt=cutoff)
    return stale.delete()[0] > 0


def _replay(kept: AnsweredRequest, print_: str) -> Answer:
    if kept.fingerprint != print_:
        raise KeyReused(
            _(
                "This key already answered another request (made at %(time)s): "
                "send a new key for a new request."
            )
            % {"time": timezone.localtime(kept.created_at).strftime("%H:%M:%S")},
            KEY_HEADER,
        )
    return Answer(kept.status, kept.answer, replayed=True)


class _KeyTaken(Exception):
    """The key's row exists already: answered (or being answered) by another request."""


def answer_once(user, key: str, print_: str, perform: Callable[[], Answer]) -> Answer:
    """The first answer to ``key``: ``perform``'s, kept with its write, or the one kept.

    ``perform`` runs inside the transaction that keeps its answer; an answer of 400 or
    more (a refusal, which wrote nothing) is not kept, and the key is free again. The
    key's row is the transaction's first statement: a second request with the key waits
    on it and, once the first commits, reads its answer (no read before, no savepoint).
    """
    _sweep_now_and_then()
    for _attempt in range(2):
        try:
            return _perform_under_key(user, key, print_, perform)
        except _KeyTaken:
            kept = _kept(user, key)
            if kept is not None:
                return _replay(kept, print_)
            if not _forget_if_stale(user, key):
                break
    raise ServiceError(_("This request is being answered; try again."))


def _perform_under_key(user, key: str, print_: str, perform: Callable[[], Answer]) -> Answer:
    keyed = False
    try:
        with transaction.atomic():
            row = AnsweredRequest.objects.create(user=user, key=key, fingerprint=print_)
            keyed = True
            answer = perform()
            if answer.status >= 400:
                transaction.set_rollback(True)
                return answer
            row.status = answer.status
            row.answer = json.loads(json.dumps(answer.body, cls=DjangoJSONEncoder))
            row.save(update_fields=["status", "answer"])
            return answer
    except IntegrityError:
        if keyed:  # the write's own, not the key's
            raise
        raise _KeyTaken from None


def api_once(request: Request, perform: Callable[[], Response]) -> Response:
    """Answer an API write once per ``Idempotency-Key`` (optional: without one, as before).

    A replay carries the header ``Idempotent-Replayed: true``.
    """
    raw = request.headers.get(KEY_HEADER)
    if raw is None:
        return perform()
    key = _checked_key(raw, KEY_HEADER)
    print_ = fingerprint(request.method, request.path, request.data)

    def run() -> Answer:
        response = perform()
        return Answer(response.status_code, response.data)

    answer = answer_once(request.user, key, print_, run)
    response = Response(answer.body, status=answer.status)
    if answer.replayed:
        response[REPLAY_HEADER] = "true"
    return response


@contextmanager
def said_to(request: HttpRequest) -> Iterator[list[list]]:
    """The messages added to ``request`` meanwhile, as ``[level, text, tags]``."""
    said: list[list] = []
    storage = getattr(request, "_messages", None)
    if storage is None:
        yield said
        return
    add = storage.add

    def recording_add(level: int, message: Any, extra_tags: str = "") -> None:
        said.append([level, str(message), extra_tags])
        add(level, message, extra_tags)

    storage.add = recording_add
    try:
        yield said
    finally:
        del storage.add


def _form_fields(request: HttpRequest) -> dict[str, list[str]]:
    skipped = {FORM_FIELD, "csrfmiddlewaretoken"}
    return {name: request.POST.getlist(name) for name in request.POST if name not in skipped}


def form_once(
    request: HttpRequest,
    perform: Callable[[], tuple[HttpResponse, bool]],
    page: Callable[[], HttpResponse],
    about: Any = None,
) -> HttpResponse:
    """Answer a form once per its one-time token (``FORM_FIELD``; absent: as before).

    ``perform`` answers the form and says whether it wrote; its redirect and messages are
    kept and given again to a resubmission. ``page`` draws the page as it is now: the
    answer to a resubmission whose first answer was no redirect (an htmx fragment), or to
    a token sent again with other values (with a message saying so). ``about`` names
    what the form writes to when its path does not (My match: the player's current
    match), so a token from a page kept since an earlier round is not the same request.
    """
    token = request.POST.get(FORM_FIELD, "")
    if not token:
        return perform()[0]
    first: dict[str, HttpResponse] = {}

    def run() -> Answer:
        with said_to(request) as said:
            response, wrote = perform()
        first["response"] = response
        if not wrote:
            return Answer(400, {})
        body: dict[str, Any] = {"messages": said}
        if isinstance(response, HttpResponseRedirect):
            body["location"] = response["Location"]
        return Answer(response.status_code, body)

    print_ = fingerprint("POST", request.path, {"fields": _form_fields(request), "about": about})
    try:
        answer = answer_once(request.user, _checked_key(token, FORM_FIELD), print_, run)
    except KeyReused:
        messages.error(
            request, _("This form was already sent with other values: here it is again.")
        )
        return page()
    except ServiceError as exc:  # a token that is none of ours
        messages.error(request, exc.message)
        return page()
    if not answer.replayed:
        return first["response"]
    for level, text, tags in answer.body.get("messages", []):
        messages.add_message(request, level, text, extra_tags=tags)
    if "location" in answer.body:
        return HttpResponseRedirect(answer.body["location"])
    return page()
