"""The Swiss engine's notes (why a pair-down, why a bye), worded for people with names.

``pairing.swiss`` explains itself with player ids, as plain data; organisers and players
read sentences that name the players ("Ada Lovelace plays down: everyone else on
1 point is a past opponent."). The engine's own id-worded text stays its CLI's output.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pairing.swiss import AvoidNote, ByeNote, PairingNote, RematchNote
from tournaments.models import Registration
from tournaments.record.player_names import player_labels

Namer = Callable[[Any], str]


def namer(
    by_public_id: Mapping[Any, Registration], everyone: Iterable[Registration] | None = None
) -> Namer:
    """A function from the engine's ids to people's names, for the players given; the
    player numbers tell apart names shared among ``everyone`` (the whole event)."""
    labels = player_labels(by_public_id.values() if everyone is None else everyone)

    def name(pid: Any) -> str:
        registration = by_public_id.get(pid)
        if registration is None:
            return "a player"
        return labels.get(registration.pk, registration.display_name)

    return name


def points_text(points: float) -> str:
    """ "1 point", "3 points", "1.5 points"."""
    shown = str(int(points)) if float(points).is_integer() else str(points)
    return f"{shown} point" if float(points) == 1 else f"{shown} points"


def _points_list(values: Sequence[float]) -> str:
    shown = [points_text(v).split(" ")[0] for v in values]
    unit = "point" if len(values) == 1 and float(values[0]) == 1 else "points"
    joined = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
    return f"{joined} {unit}"


def pair_note_text(notes: Iterable[PairingNote], pair: Sequence[Any], name: Namer) -> str:
    """The sentences explaining one pair, from the engine's ``notes`` for it."""
    return " ".join(_one_note(note, pair, name) for note in notes)


def _one_note(note: PairingNote, pair: Sequence[Any], name: Namer) -> str:
    if isinstance(note, AvoidNote):
        first, second = (name(pid) for pid in pair)
        if note.forced:
            return (
                f"{first} and {second} are kept apart by the organiser, but meet: no pairing "
                "without a rematch or such a pair exists."
            )
        return f"{first} and {second} are kept apart by the organiser, but meet."
    if isinstance(note, RematchNote):
        first, second = (name(pid) for pid in pair)
        if note.forced:
            return f"{first} and {second} meet again: no pairing without a rematch exists."
        return f"{first} and {second} meet again."
    who = name(note.player)
    on = points_text(note.points)
    sentences = {
        "only_one": f"{who} plays down: no one else is on {on}.",
        "all_played": f"{who} plays down: everyone else on {on} is a past opponent.",
        "odd_group": f"{who} plays down: {note.pool} players are on {on}, an odd number.",
        "left_played": f"{who} plays down: everyone still unpaired on {on} is a past opponent.",
        "cheaper": (
            f"{who} plays down: pairing everyone on {on} among themselves would cost a "
            "rematch or a bigger pair-down elsewhere."
        ),
    }
    text = sentences.get(note.why, f"{who} plays down.")
    if note.between:
        text += f" No one on {_points_list(note.between)} was free to play {who}."
    return text


def bye_note_text(note: ByeNote | None, name: Namer) -> str:
    """The sentence saying why a player has the bye ("" when there is no bye)."""
    if note is None:
        return ""
    who = name(note.player)
    why = note.why
    if why == "fewest_rematches":
        return (
            f"{who} has the bye: no pairing without a rematch exists, and of the byes that "
            "give the fewest rematches this is the lowest-ranked player"
            + (" without a bye so far." if not note.had_bye else ".")
        )
    if why == "everyone_had_one":
        text = f"{who} has the bye: everyone has had one, so it goes to the lowest-ranked player"
    elif why == "no_fresh_fits":
        text = (
            f"{who} has a second bye: no player without one could take it without forcing "
            "a rematch, so it goes to the lowest-ranked player"
        )
    else:
        text = f"{who} has the bye as the lowest-ranked player without one so far"
    skipped = [name(pid) for pid in note.skipped]
    if skipped:
        listed = skipped[0] if len(skipped) == 1 else f"{', '.join(skipped[:-1])} and {skipped[-1]}"
        text += f" (a bye for {listed} would have forced a rematch)"
    return text + "."
