"""The ``arbiter-event/1`` interchange format: a whole event as plain JSON, out and in.

It is how events are backed up, moved between sites and brought in from other
tools (contract: ``pairing-and-events.md`` §2). Its shape and limits are the JSON Schema
``docs/schemas/arbiter-event-1.schema.json``, served at
``/api/v1/schemas/arbiter-event-1.json``. The modules:

* ``schema``: loads the schema, checks a document against it with ``jsonschema``, and
  words each error with its path.
* ``rules``: what a schema cannot state (ids that must exist, rounds in order, …).
* ``importer``: ``check_document`` and ``import_event``.
* ``exporter``: ``export_event`` and ``public_ids``.

Decisions the contract leaves open:

* Ids. A player's id is ``Registration.public_id`` (the external id, else ``r<pk>``).
  Import stores the file's id as ``external_id``, so a re-export keeps every id.
  Integer ids in a file are read as their decimal strings; export writes strings.
* Unfinished matches. Export writes every round; a match without a confirmed result
  is written ``{"games": [], "result": "pending"}`` (an unconfirmed report is not
  exported as a result). Import restores finished rounds only: a file holding a
  pending match is refused, naming each one (remove that round to import the rest).
* Imported rows. Players become registrations without accounts (name + external id,
  checked in); every round is closed; matches are ``final`` and byes ``confirmed``
  with the 2-0 games the pairing engine gives them.
* Event status. The file's ``event.status`` when given (our exports write it);
  otherwise ``finished`` when the last round is a top-cut round of one match (the
  final), ``running`` when there are rounds, ``registration`` when there are none.
* Extra keys (ignorable by other tools, read back by this one): ``event.venue``,
  ``round_minutes``, ``tiebreakers``, ``seed``, ``status``; a player's
  ``joined_round`` (late entry, only when > 1) and ``"disqualified": true``.
  Unknown keys are ignored. A drop ``after_round`` of 0 means dropped before round 1.
* Optional sections. ``decklists`` and ``penalties`` are not exported, although the site
  keeps both (``decks``, ``judging``): the file goes to other sites, and a decklist is
  seen only by its player and the event's staff. On import they must be lists (or null)
  and are otherwise ignored.
* Errors. The whole file is checked before anything is written and every problem is
  reported with its path (list indices count from 0), in the order of the file, e.g.
  ``rounds[2].matches[5].games[1]: "p9" is not a player of this match``.
"""

from tournaments.interchange.exporter import export_event, public_ids
from tournaments.interchange.importer import check_document, import_event
from tournaments.interchange.problems import MAX_REPORTED_PROBLEMS, InterchangeError, Problem
from tournaments.interchange.schema import (
    FORMAT,
    MAX_PLAYERS,
    MAX_ROUNDS,
    SCHEMA_PATH,
    schema_bytes,
    schema_document,
    schema_etag,
)

__all__ = [
    "FORMAT",
    "MAX_PLAYERS",
    "MAX_REPORTED_PROBLEMS",
    "MAX_ROUNDS",
    "SCHEMA_PATH",
    "InterchangeError",
    "Problem",
    "check_document",
    "export_event",
    "import_event",
    "public_ids",
    "schema_bytes",
    "schema_document",
    "schema_etag",
]
