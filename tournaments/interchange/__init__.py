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
  ``round_minutes``, ``tiebreakers``, ``seed``, ``status``, ``flight_of``; a player's
  ``joined_round`` (late entry, only when > 1), ``"disqualified": true`` and ``byes``;
  the ``phases`` section.
  Unknown keys are ignored. A drop ``after_round`` of 0 means dropped before round 1.
* Optional sections. ``decklists`` and ``penalties`` are not exported, although the site
  keeps both (``decks``, ``judging``): the file goes to other sites, and a decklist is
  seen only by its player and the event's staff. On import they must be lists (or null)
  and are otherwise ignored.
* Awarded byes. A player's ``"byes": n`` (written only when n > 0) is
  ``Registration.awarded_byes``; the byes themselves are in ``rounds`` as byes, and import
  checks that the player's first n rounds (those played) hold a bye for them, not a match.
  Imported, those byes get the explanation the site gives them ("Awarded bye (1 of 2)").
* Phases (issue 33). A main event with Day 1 flights is written whole, with ``phases``:
  ``{"flights": [{"name", "swiss_rounds", "seed", "status", "players": [ids], "rounds",
  "drops"[, "left_out"]}], "gate": {"points", "top", "ties"}, "day2": [ids]}``. Every
  player is in the top-level ``players`` once, under their flight entry's id (a carried
  Day 2 entry has the same id: ``external_id`` = the flight entry's public id); a player
  in no flight is an entry of the main event's own. The top-level ``rounds`` and
  ``drops`` are the main event's: Day 2 (numbered on from Day 1's rounds) and the top cut.
  ``gate`` is written when the event has a rule, ``day2`` once the gate is applied (the
  carried entries, in the order the gate made them); the main event has rounds only
  then. A player's ``disqualified`` is their Day 2 entry's when they are in ``day2``,
  else their flight entry's; ``joined_round`` and ``byes`` are their flight entry's.
  Import recreates the flights as ``add_flight`` makes them (the main event's settings
  and staff), the gate's rule and, with ``day2``, the carried entries, ``gate_applied_at``
  and a ``gate`` log entry whose decisions are worked out again with ``pairing.gate``
  over the merged Day 1 standings (marked ``"imported": true``; if a Day 1 result was
  corrected after the gate, they can differ from who is in ``day2``, which stands).
  Import refuses, naming the path: a flight player not in ``players`` or in two flights,
  two flights of one name, a top-cut round in a flight, ``day2`` without ``gate`` or
  naming a player of no flight, flights of different lengths or not all played when
  ``day2`` is given, main-event rounds without ``day2`` or seating a player the gate did
  not let through, and an ``event.swiss_rounds`` not above Day 1's. The size limits count
  the flights' rounds and matches too.
* A flight exported alone is an event of one phase, with ``event.flight_of``
  (``{"event": main event's name, "flight": its name}``); import ignores that key and
  makes it an event of its own. Export the main event to keep the phases.
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
