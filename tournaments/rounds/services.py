"""The round lifecycle: pair → (re-pair, swap) → start the clock → results → close.

Every function is one transaction that locks the event row first, so two
organisers pressing the same button at once produce one outcome, not two.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pairing import bracket, swiss
from tournaments import signals
from tournaments.event import avoid_pairs, phases
from tournaments.event import check_in as check_in_state
from tournaments.event import next_step as event_state
from tournaments.models import Event, EventLog, Match, Registration, Round
from tournaments.record.history import EventHistory, round_winners
from tournaments.record.match_games import MatchGames
from tournaments.record.rounds import latest_round, swiss_round_count
from tournaments.record.standings import results_changed
from tournaments.rounds import audit, decklist_gate
from tournaments.rounds import notes as pairing_notes
from web.errors import ServiceError
from web.inputs import limited


def _locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _next_swiss_number(event: Event) -> int:
    last = latest_round(event)
    if last is None:
        return _first_swiss_number(event)
    if last.status != Round.Status.CLOSED:
        raise ServiceError(
            _("Round %(round)s is not closed yet: enter its missing results and close it first.")
            % {"round": last.number}
        )
    if last.kind == Round.Kind.TOP_CUT:
        raise ServiceError(_("The top cut has started: Swiss rounds are over."))
    if last.number >= swiss_round_count(event):
        raise ServiceError(
            _("All %(count)s Swiss rounds are played: cut to the top or finish.")
            % {"count": swiss_round_count(event)}
        )
    return last.number + 1


def _first_swiss_number(event: Event) -> int:
    """Round 1; for a main event with flights, the round after Day 1, once the gate is
    applied (its players carry their Day 1 record and history)."""
    if not event.flights.exists():
        return 1
    if event.gate_applied_at is None:
        raise ServiceError(
            _("Day 2 starts after the gate: play every flight's rounds, then apply the gate.")
        )
    return phases.day1_rounds(event) + 1


def _seed_for(event: Event, number: int, attempt: int) -> int:
    """A reproducible seed per round and per re-pair, derived from the event's seed."""
    return (event.seed * 1_000_003 + number * 1_009 + attempt) % (2**53)


class NotCheckedIn(ServiceError):
    """Round 1 would leave registered players out: they are not checked in. The organiser
    checks them in, or confirms pairing without them (``confirm_not_checked_in``)."""

    def __init__(self, absent: list[Registration]):
        self.absent = absent
        names = ", ".join(r.display_name for r in absent)
        said = ngettext(
            "%(count)s registered player is not checked in (%(names)s): round 1 would be "
            "paired without them. Check them in first, or confirm to pair round 1 without them.",
            "%(count)s registered players are not checked in (%(names)s): round 1 would be "
            "paired without them. Check them in first, or confirm to pair round 1 without them.",
            len(absent),
        ) % {"count": len(absent), "names": names}
        super().__init__(said, field="confirm_not_checked_in")


def _not_checked_in_refusal(event: Event, confirmed: bool | Collection[int]) -> NotCheckedIn | None:
    """The refusal round 1 owes while registered players are not checked in, unless the
    organiser confirmed (True, or the ids of the players they saw listed: anyone not seen
    is asked about again)."""
    absent = check_in_state.not_checked_in(event)
    seen = confirmed is True or {r.pk for r in absent} <= set(confirmed or ())
    if absent and not seen:
        return NotCheckedIn(absent)
    return None


def _registered_players(event: Event) -> list[Registration]:
    """Every registered player, checked in or not: the decklist gate asks about them all."""
    return list(
        event.registrations.filter(status=Registration.Status.REGISTERED)
        .select_related("user")
        .order_by("name", "pk")
    )


@transaction.atomic
def pair_next_round(
    event: Event,
    actor,
    *,
    confirm_missing_decklists: bool | Collection[int] = (),
    confirm_not_checked_in: bool | Collection[int] = (),
) -> Round:
    """Pair the next Swiss round and seat it: best records at the lowest tables.

    Round 1 is refused while registered players are not checked in (they would be left
    out silently) until ``confirm_not_checked_in`` confirms them (True, or the ids the
    organiser saw). It applies the event's decklist policy to every registered player
    (``decklist_gate``): players without a legal list are paired (``warn``) or dropped
    (``require``) only once ``confirm_missing_decklists`` confirms them. Both questions
    are asked at once, each naming its field.
    """
    event = _locked(event)
    number = _next_swiss_number(event)
    if number == 1 and event.status == Event.Status.DRAFT:
        raise ServiceError(event_state.pairing_blocker(event))
    history = EventHistory.read(event)
    if len(history.active_in(number)) < 2:
        if number == 1:
            raise ServiceError(
                _("Round %(round)s needs at least two active players. Check players in first.")
                % {"round": number}
            )
        raise ServiceError(
            _("Round %(round)s needs at least two active players.") % {"round": number}
        )
    gate = {}
    if number == 1:
        refusals: list[ServiceError] = []
        absent = _not_checked_in_refusal(event, confirm_not_checked_in)
        if absent is not None:
            refusals.append(absent)
        try:
            gate = decklist_gate.gate_round_one(
                event, _registered_players(event), actor, confirm_missing_decklists
            )
        except decklist_gate.MissingDecklists as exc:
            refusals.append(exc)
        # Nothing is kept: a confirmed drop above is undone with the rest.
        if len(refusals) == 1:
            raise refusals[0]
        if refusals:
            raise ServiceError.of(e for refusal in refusals for e in refusal.errors)
        if gate.get("dropped_without_decklist"):
            history = EventHistory.read(event)
            if len(history.active_in(1)) < 2:
                raise ServiceError(
                    _(
                        "Round 1 needs at least two players with a legal decklist: "
                        "nobody was dropped."
                    )
                )
    round_ = Round.objects.create(
        event=event, number=number, kind=Round.Kind.SWISS, seed=_seed_for(event, number, 0)
    )
    _pair_into(round_, history)
    if gate:
        round_.pairing_stats = {**round_.pairing_stats, **gate}
        round_.save(update_fields=["pairing_stats"])
    # Pairings first: the notice a room full of players waits for leaves before the rest.
    _announce_pairing(round_, signals.PAIRED)
    if event.status != Event.Status.RUNNING:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])  # announced by tournaments.signals' receiver
    _announce_status(round_)
    EventLog.objects.create(
        event=event,
        round_number=number,
        actor=actor,
        action="pair",
        data=round_.pairing_stats,
    )
    return round_


def _pair_into(round_: Round, history: EventHistory) -> None:
    """Pair ``round_`` from the history read before it (earlier rounds only count)."""
    registrations = {r.public_id: r for r in history.active_in(round_.number)}
    awarded = [r for r in registrations.values() if has_awarded_bye(r, round_.number)]
    skipped = {r.public_id for r in awarded}
    players = [p for p in history.swiss_players(round_.number) if p.id not in skipped]
    result = swiss.pair(players, round_.number, round_.seed, certificate=True)
    name = pairing_notes.namer(registrations, round_.event.registrations.select_related("user"))
    explanations = {
        item.pair: pairing_notes.pair_note_text(item.notes, item.pair, name)
        for item in result.explanations
    }
    pairs = [(registrations[a], registrations[b]) for a, b in result.pairings]
    pairs = _apply_table_pins(pairs)
    Match.objects.bulk_create(
        Match(
            round=round_,
            table=table,
            player_a=a,
            player_b=b,
            explanation=explanations.get((a.public_id, b.public_id), ""),
        )
        for table, (a, b) in enumerate(pairs, start=1)
    )
    if result.bye is not None:
        bye = registrations[result.bye]
        Match.objects.create(
            round=round_,
            table=None,
            player_a=bye,
            is_bye=True,
            games=MatchGames.bye(bye.pk).stored(),
            status=Match.Status.CONFIRMED,
        )
    Match.objects.bulk_create(
        Match(
            round=round_,
            table=None,
            player_a=player,
            is_bye=True,
            games=MatchGames.bye(player.pk).stored(),
            status=Match.Status.CONFIRMED,
            explanation=_("Awarded bye (%(number)s of %(count)s)")
            % {"number": round_.number, "count": player.awarded_byes},
        )
        for player in awarded
    )
    round_.pairing_stats = (
        {**result.stats, "awarded_byes": len(awarded)} if awarded else result.stats
    )
    round_.bye_reason = pairing_notes.bye_note_text(result.bye_note, name)
    round_.audit = audit.build(players, round_, result, sorted(skipped))
    round_.save(update_fields=["pairing_stats", "bye_reason", "audit"])
    results_changed(round_.event_id)  # a bye is a win, and a new round a loss for latecomers


def has_awarded_bye(registration: Registration, round_number: int) -> bool:
    """Awarded byes are the first rounds: a player with 2 has a bye in rounds 1 and 2."""
    return round_number <= registration.awarded_byes


def _apply_table_pins(pairs: list[tuple[Registration, Registration]]):
    """Move each pinned player's pair to the pinned table (first pin wins a clash)."""
    seated = list(pairs)
    fixed: set[int] = set()
    for index in range(len(seated)):
        a, b = seated[index]
        pin = a.table_pin or b.table_pin
        if pin is None or not 1 <= pin <= len(seated):
            continue
        target = pin - 1
        if target in fixed or index in fixed:
            continue
        current = next(i for i, pair in enumerate(seated) if pair == (a, b))
        seated[current], seated[target] = seated[target], seated[current]
        fixed.add(target)
    return seated


def _results_entered(round_: Round) -> bool:
    return round_.matches.filter(is_bye=False).exclude(status=Match.Status.PENDING).exists()


@transaction.atomic
def repair_round(round_: Round, actor, reason: str) -> Round:
    """Pair the round again with a fresh draw; only before any result is in."""
    limited("reason", reason)
    _locked(round_.event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not reason.strip():
        raise ServiceError(_("Give a reason for re-pairing: it is logged."))
    if round_.kind != Round.Kind.SWISS:
        raise ServiceError(_("Only Swiss rounds can be re-paired."))
    if round_.status == Round.Status.CLOSED or _results_entered(round_):
        raise ServiceError(
            _("Round %(round)s already has results: it cannot be re-paired.")
            % {"round": round_.number}
        )
    before = _pair_list(round_)
    round_.matches.all().delete()
    attempts = EventLog.objects.filter(
        event=round_.event, round_number=round_.number, action="repair"
    ).count()
    round_.seed = _seed_for(round_.event, round_.number, attempts + 1)
    round_.save(update_fields=["seed"])
    _pair_into(round_, EventHistory.read(round_.event))
    EventLog.objects.create(
        event=round_.event,
        round_number=round_.number,
        actor=actor,
        action="repair",
        reason=reason.strip(),
        data={"before": before, "after": _pair_list(round_)},
    )
    _announce_pairing(round_, signals.REPAIRED)
    return round_


def _pair_list(round_: Round) -> list:
    return [
        [m.table, m.player_a.display_name, m.player_b.display_name if m.player_b else None]
        for m in round_.matches.select_related("player_a__user", "player_b__user")
    ]


@transaction.atomic
def swap_players(round_: Round, first: Registration, second: Registration, actor, reason: str):
    """Exchange two players' seats (e.g. a pairing mistake spotted at the table)."""
    limited("reason", reason)
    _locked(round_.event)
    if not reason.strip():
        raise ServiceError(_("Give a reason for the swap: it is logged."))
    if first.pk == second.pk:
        raise ServiceError(_("Choose two different players to swap."))
    seat_a = _seat_of(round_, first)
    seat_b = _seat_of(round_, second)
    if seat_a[0].pk == seat_b[0].pk:
        raise ServiceError(_("Those two players are already playing each other."))
    for match, _field in (seat_a, seat_b):
        if match.is_bye or match.status != Match.Status.PENDING:
            raise ServiceError(
                _("Table %(table)s already has a result or is a bye.") % {"table": match.table}
            )
    (match_a, field_a), (match_b, field_b) = seat_a, seat_b
    setattr(match_a, field_a, second)
    setattr(match_b, field_b, first)
    for match in (match_a, match_b):
        if _have_met(round_, match.player_a, match.player_b):
            raise ServiceError(
                _("%(first)s and %(second)s have already played each other.")
                % {"first": match.player_a.display_name, "second": match.player_b.display_name}
            )
        if avoid_pairs.kept_apart(round_.event, match.player_a, match.player_b):
            raise ServiceError(
                _(
                    "%(first)s and %(second)s must not meet: the organiser keeps them apart "
                    "in Swiss."
                )
                % {"first": match.player_a.display_name, "second": match.player_b.display_name}
            )
        match.explanation = ""
        match.save(update_fields=["player_a", "player_b", "explanation"])
    EventLog.objects.create(
        event=round_.event,
        round_number=round_.number,
        actor=actor,
        action="swap",
        reason=reason.strip(),
        data={
            "players": [first.display_name, second.display_name],
            "tables": [match_a.table, match_b.table],
        },
    )
    _announce_pairing(round_, signals.SWAPPED, [match_a.pk, match_b.pk])


def _seat_of(round_: Round, registration: Registration) -> tuple[Match, str]:
    for match in round_.matches.select_for_update():
        if match.player_a_id == registration.pk:
            return match, "player_a"
        if match.player_b_id == registration.pk:
            return match, "player_b"
    raise ServiceError(
        _("%(player)s is not in round %(round)s.")
        % {"player": registration.display_name, "round": round_.number}
    )


def _have_met(round_: Round, a: Registration, b: Registration) -> bool:
    earlier = Match.objects.filter(round__event=round_.event, round__number__lt=round_.number)
    return (
        earlier.filter(player_a=a, player_b=b).exists()
        or earlier.filter(player_a=b, player_b=a).exists()
    )


@transaction.atomic
def start_round(round_: Round, actor) -> Round:
    """Start the round clock."""
    _locked(round_.event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.PAIRED:
        raise ServiceError(_("Round %(round)s has already started.") % {"round": round_.number})
    round_.status = Round.Status.RUNNING
    round_.started_at = timezone.now()
    round_.save(update_fields=["status", "started_at"])
    EventLog.objects.create(
        event=round_.event, round_number=round_.number, actor=actor, action="start"
    )
    _announce_status(round_)
    return round_


@transaction.atomic
def close_round(round_: Round, actor) -> Round:
    """Close a round; refused while any table lacks a confirmed result."""
    _locked(round_.event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        raise ServiceError(_("Round %(round)s is already closed.") % {"round": round_.number})
    missing = [m.table for m in round_.matches.all() if not m.has_result]
    if missing:
        tables = ", ".join(str(t) for t in missing[:12]) + ("…" if len(missing) > 12 else "")
        refusal = ngettext(
            "Round %(round)s cannot close: %(count)s table has no confirmed result (%(tables)s).",
            "Round %(round)s cannot close: %(count)s tables have no confirmed result (%(tables)s).",
            len(missing),
        )
        raise ServiceError(
            refusal % {"round": round_.number, "count": len(missing), "tables": tables}
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    if round_.started_at is None:
        round_.started_at = round_.closed_at
    round_.save(update_fields=["status", "closed_at", "started_at"])
    EventLog.objects.create(
        event=round_.event, round_number=round_.number, actor=actor, action="close"
    )
    _announce_status(round_)
    return round_


def _eligible_for_cut(row: dict) -> bool:
    return not row.get("dropped") and not row.get("disqualified")


@transaction.atomic
def start_top_cut(event: Event, actor) -> Round:
    """Seed the top cut from the final Swiss standings: 1 v 8, 4 v 5, 2 v 7, 3 v 6."""
    event = _locked(event)
    last = latest_round(event)
    if event.top_cut < 2:
        raise ServiceError(_("This event has no top cut: set its size on the event first."))
    if last is None or last.kind != Round.Kind.SWISS or last.status != Round.Status.CLOSED:
        raise ServiceError(_("Close the last Swiss round before cutting to the top."))
    if last.number < swiss_round_count(event):
        raise ServiceError(
            _("Only %(played)s of %(count)s Swiss rounds are played.")
            % {"played": last.number, "count": swiss_round_count(event)}
        )
    history = EventHistory.read(event, kept_apart=False)
    rows = [row for row in history.standings_rows() if _eligible_for_cut(row)]
    if len(rows) < event.top_cut:
        raise ServiceError(
            _("Only %(count)s players can make a top %(cut)s: reduce the cut.")
            % {"count": len(rows), "cut": event.top_cut}
        )
    seeds = {i: row["registration"] for i, row in enumerate(rows[: event.top_cut], start=1)}
    round_ = Round.objects.create(event=event, number=last.number + 1, kind=Round.Kind.TOP_CUT)
    Match.objects.bulk_create(
        Match(
            round=round_,
            table=table,
            player_a_id=seeds[high],
            player_b_id=seeds[low],
            explanation=f"Top {event.top_cut}: seed {high} v seed {low}",
        )
        for table, (high, low) in enumerate(bracket.first_round(event.top_cut), start=1)
    )
    EventLog.objects.create(
        event=event,
        round_number=round_.number,
        actor=actor,
        action="top_cut",
        data={"size": event.top_cut},
    )
    results_changed(event)  # the placings now lead with the cut's players
    _announce_pairing(round_, signals.CUT)
    _announce_status(round_)
    return round_


@transaction.atomic
def advance_top_cut(event: Event, actor) -> Round | None:
    """Pair the winners of the last top-cut round; None when the final is over."""
    event = _locked(event)
    last = latest_round(event)
    if last is None or last.kind != Round.Kind.TOP_CUT:
        raise ServiceError(_("The top cut has not started."))
    if last.status != Round.Status.CLOSED:
        raise ServiceError(
            _("Close round %(round)s before pairing the next one.") % {"round": last.number}
        )
    winners = round_winners(last)
    if len(winners) == 1:
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status"])
        EventLog.objects.create(event=event, actor=actor, action="finish")
        return None
    round_ = Round.objects.create(event=event, number=last.number + 1, kind=Round.Kind.TOP_CUT)
    Match.objects.bulk_create(
        Match(round=round_, table=table, player_a_id=a, player_b_id=b)
        for table, (a, b) in enumerate(bracket.next_round(winners), start=1)
    )
    EventLog.objects.create(
        event=event, round_number=round_.number, actor=actor, action="top_cut_round"
    )
    _announce_pairing(round_, signals.PAIRED)
    _announce_status(round_)
    return round_


@transaction.atomic
def finish_event(event: Event, actor) -> Event:
    event = _locked(event)
    last = latest_round(event)
    if last is not None and last.status != Round.Status.CLOSED:
        raise ServiceError(
            _("Close round %(round)s before finishing the event.") % {"round": last.number}
        )
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    EventLog.objects.create(event=event, actor=actor, action="finish")
    return event


def next_step(event: Event) -> tuple[str, str] | None:
    """What the organiser's main button does next: (action, label), or None when done."""
    if event.status == Event.Status.FINISHED:
        return None
    last = latest_round(event)
    if last is not None and last.status == Round.Status.PAIRED:
        return ("start", _("Start round %(round)s") % {"round": last.number})
    if last is not None and last.status == Round.Status.RUNNING:
        return ("close", _("Close round %(round)s") % {"round": last.number})
    if last is None or (last.kind == Round.Kind.SWISS and last.number < swiss_round_count(event)):
        number = 1 if last is None else last.number + 1
        return ("pair", _("Pair round %(round)s") % {"round": number})
    if last.kind == Round.Kind.SWISS and event.top_cut >= 2:
        return ("top_cut", _("Cut to the top %(cut)s") % {"cut": event.top_cut})
    if last.kind == Round.Kind.TOP_CUT and last.matches.count() > 1:
        return (
            "advance",
            _("Pair round %(round)s of the top cut") % {"round": last.number + 1},
        )
    return ("finish", _("Finish the event"))


def _announce_pairing(round_: Round, how: str, match_ids: list[int] | None = None) -> None:
    """Tell the other apps, once this commits, that the round's seats are new (``how``)."""
    if match_ids is None:
        match_ids = list(round_.matches.values_list("pk", flat=True))
    signals.send_on_commit(
        signals.round_paired,
        Round,
        event_id=round_.event_id,
        round_id=round_.pk,
        round_number=round_.number,
        how=how,
        match_ids=tuple(match_ids),
    )


def _announce_status(round_: Round) -> None:
    """Tell the other apps, once this commits, the round's status: paired, started, closed."""
    signals.send_on_commit(
        signals.round_status_changed,
        Round,
        event_id=round_.event_id,
        round_id=round_.pk,
        round_number=round_.number,
        status=round_.status,
    )
