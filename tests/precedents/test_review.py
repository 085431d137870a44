"""Precedents and rules-text changes (issue 35): when a rules file is updated, the
precedents citing a rule whose text changed are flagged with the old and new text; a head
judge reads each against the new text and says whether it still holds. Run on the texts
copied to a temporary folder, so the real rules files are never touched."""

from __future__ import annotations

import io
import shutil
import uuid

import pytest
from django.apps import apps as global_apps
from django.core.management import call_command
from django.db.migrations.state import ProjectState
from django.db.models.signals import post_migrate

from arbiter.worlds import build_event
from judging.calls import open_call, resolve_call
from judging.models import JudgeAssignment
from precedents import review, services
from precedents.models import Precedent
from precedents.signals import precedent_changed
from rules_engine import reference
from tests.conftest import make_user
from tournaments.models import Event, EventLog, EventRole

pytestmark = pytest.mark.django_db

RULES = "iacta-comprehensive-rules.txt"
DECK_RULE = "202.1"
DECK = {
    "main": [{"name": "Ember Tithe", "count": 5}, {"name": "Glass Warden", "count": 4}],
    "sideboard": [],
    "cards": {
        "Ember Tithe": {"syndicate": "EMB", "tier": "major"},
        "Glass Warden": {"syndicate": "EMB", "tier": "major"},
    },
}


@pytest.fixture
def texts(tmp_path, monkeypatch):
    """The rules texts as a copy the test may edit; the real ones read again afterwards."""
    folder = tmp_path / "texts"
    shutil.copytree(reference.TEXTS, folder)
    monkeypatch.setattr(reference, "TEXTS", folder)
    reference.reload()
    yield folder
    monkeypatch.undo()
    reference.reload()


def edit_rule(folder, number: str, new_line: str | None) -> str:
    """Rewrite (or, with None, remove) the rule ``number``'s line; the old line back."""
    path = folder / RULES
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    (at,) = [i for i, line in enumerate(lines) if line.startswith(f"{number} ")]
    old = lines[at]
    lines[at] = "" if new_line is None else f"{new_line}\n"
    path.write_text("".join(lines), encoding="utf-8")
    reference.reload()
    return old.rstrip("\n")


def restore_rule(folder, number: str, old_line: str, edited: str | None) -> None:
    path = folder / RULES
    text = path.read_text(encoding="utf-8")
    if edited is None:  # removed: put it back before the next rule
        text = text.replace("202.2 ", f"{old_line}\n\n202.2 ", 1)
    else:
        text = text.replace(edited, old_line, 1)
    path.write_text(text, encoding="utf-8")
    reference.reload()


@pytest.fixture
def kept(texts, make_world, organiser, judge):
    """Two precedents of one event, kept under the copied texts: a deck ruling citing
    202.1 and a cost ruling that does not."""
    event = make_world(4).event

    def keep(question: str, payload: dict) -> Precedent:
        call = open_call(event, judge, question=question, table=1)
        call = resolve_call(
            call,
            judge,
            resolution="Ruled.",
            minutes=2,
            ruling={"game": "iacta", "question": payload.pop("_q"), "payload": payload},
        )
        return services.mark(call, organiser, decision="upheld", note="Kept.")

    deck = keep("Five Ember Tithe?", {"_q": "deck-legality", **DECK})
    cost = keep("Odd die for 4+?", {"_q": "pay-cost", "cost": ["4+", "ODD"], "reserve": [5, 1]})
    assert DECK_RULE in deck.rule_texts and DECK_RULE not in cost.rule_texts
    return {"deck": deck, "cost": cost, "event": event}


NEW_202_1 = (
    "202.1 A starting Deck must designate exactly one Major Syndicate and may contain up to "
    "thirty cards belonging to that Syndicate."
)


def test_a_changed_rule_flags_the_precedent_citing_it_with_old_and_new_text(kept, texts):
    old_line = edit_rule(texts, DECK_RULE, NEW_202_1)
    assert review.flag_changed_rules() == 1
    deck, cost = (Precedent.objects.get(pk=kept[k].pk) for k in ("deck", "cost"))
    assert deck.needs_review and set(deck.review) == {DECK_RULE}
    assert deck.review[DECK_RULE] == {"old": old_line, "new": NEW_202_1}
    assert not cost.needs_review and cost.review == {}
    assert review.flag_changed_rules() == 0  # a second run writes nothing

    restore_rule(texts, DECK_RULE, old_line, NEW_202_1)
    assert review.flag_changed_rules() == 0
    deck.refresh_from_db()
    assert not deck.needs_review and deck.review == {}


def test_a_removed_rule_is_flagged_as_no_longer_in_the_rules(kept, texts):
    old_line = edit_rule(texts, DECK_RULE, None)
    assert review.flag_changed_rules() == 1
    deck = Precedent.objects.get(pk=kept["deck"].pk)
    assert deck.review == {DECK_RULE: {"old": old_line, "new": None}}
    restore_rule(texts, DECK_RULE, old_line, None)
    review.flag_changed_rules()
    deck.refresh_from_db()
    assert not deck.needs_review


def test_spacing_alone_is_no_change(kept, texts):
    path = texts / RULES
    path.write_text(path.read_text().replace("exactly one Major", "exactly  one Major"))
    reference.reload()
    assert review.flag_changed_rules() == 0


def test_one_signal_per_run_names_every_precedent_written(
    kept, texts, django_capture_on_commit_callbacks
):
    heard = []
    precedent_changed.connect(lambda **kw: heard.append(kw), weak=False, dispatch_uid="t-rev")
    try:
        edit_rule(texts, DECK_RULE, NEW_202_1)
        with django_capture_on_commit_callbacks(execute=True):
            review.flag_changed_rules()
        with django_capture_on_commit_callbacks(execute=True):
            review.flag_changed_rules()  # nothing written: nothing sent
    finally:
        precedent_changed.disconnect(dispatch_uid="t-rev")
    assert len(heard) == 1
    assert heard[0]["action"] == "flagged" and heard[0]["count"] == 1
    assert heard[0]["precedent_ids"] == [kept["deck"].pk] and heard[0]["precedent_id"] is None


@pytest.mark.parametrize("alike", [True, False], ids=["one-review-shared", "each-its-own"])
def test_the_queries_do_not_grow_with_the_precedents(texts, django_assert_max_num_queries, alike):
    """One read of all, then one locked read and a few writes per batch of 500, whether
    the precedents share one review (one UPDATE) or each has its own (bulk_update)."""
    old = reference.rule_text(DECK_RULE)
    Precedent.objects.bulk_create(
        Precedent(
            ruled_on="2026-01-01",
            game="iacta",
            question="deck-legality",
            decision="upheld",
            rules=[DECK_RULE, "202.2"],
            rule_texts={
                DECK_RULE: old if alike else f"{old} ({n})",
                "202.2": reference.rule_text("202.2"),
            },
        )
        for n in range(60)
    )
    edit_rule(texts, DECK_RULE, NEW_202_1)
    with django_assert_max_num_queries(8):
        assert review.flag_changed_rules() == 60
    flagged = Precedent.objects.filter(needs_review=True)
    assert flagged.count() == 60
    assert {p.review[DECK_RULE]["new"] for p in flagged} == {NEW_202_1}
    assert len({p.review[DECK_RULE]["old"] for p in flagged}) == (1 if alike else 60)


# --- accepting a review ---------------------------------------------------------------------


@pytest.fixture
def flagged(kept, texts):
    edit_rule(texts, DECK_RULE, NEW_202_1)
    review.flag_changed_rules()
    kept["deck"].refresh_from_db()
    return kept


def test_the_organiser_says_the_ruling_holds_and_the_new_text_becomes_the_kept_one(
    flagged, organiser, django_capture_on_commit_callbacks
):
    deck, event = flagged["deck"], flagged["event"]
    heard = []
    precedent_changed.connect(lambda **kw: heard.append(kw), weak=False, dispatch_uid="t-acc")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            done = review.accept_review(deck, organiser, "Thirty is still plenty.")
    finally:
        precedent_changed.disconnect(dispatch_uid="t-acc")
    assert not done.needs_review and done.review == {}
    assert done.rule_texts[DECK_RULE] == NEW_202_1
    assert done.status == Precedent.Status.FOLLOW
    assert done.note == "Kept.\n\nThirty is still plenty."
    assert heard == [
        {"signal": precedent_changed, "sender": Precedent, "precedent_id": deck.pk,
         "action": "reviewed"}
    ]  # fmt: skip
    entry = EventLog.objects.get(event=event, action="precedent_review")
    assert entry.data["outcome"] == "holds" and entry.data["rules"] == [DECK_RULE]
    assert entry.words == "reviewed a precedent against a changed rules text"
    assert review.flag_changed_rules() == 0  # read as kept now


def test_marking_it_not_to_be_followed(flagged, organiser):
    done = review.accept_review(flagged["deck"], organiser, outcome=review.AVOID)
    assert done.status == Precedent.Status.AVOID and not done.needs_review


def test_a_floor_judge_may_not_and_the_head_judge_may(flagged, judge):
    deck, event = flagged["deck"], flagged["event"]
    with pytest.raises(services.NotAllowed):
        review.accept_review(deck, judge)
    head = make_user("hedda")
    EventRole.objects.create(event=event, user=head, role=EventRole.Role.JUDGE)
    JudgeAssignment.objects.create(event=event, user=head, role=JudgeAssignment.Role.HEAD)
    assert not review.accept_review(deck, head).needs_review


def test_site_staff_review_a_precedent_with_no_event(flagged, organiser):
    deck = flagged["deck"]
    Precedent.objects.filter(pk=deck.pk).update(event=None)
    deck.refresh_from_db()
    with pytest.raises(services.NotAllowed):
        review.accept_review(deck, organiser)  # the event's organiser: no event now
    staff = make_user("stella", is_staff=True)
    assert not review.accept_review(deck, staff).needs_review
    assert not EventLog.objects.filter(action="precedent_review").exists()


@pytest.mark.parametrize(
    ("kwargs", "field"), [({"outcome": "maybe"}, "outcome"), ({"note": "x" * 2001}, "note")]
)
def test_a_wrong_answer_is_refused_naming_the_field(flagged, organiser, kwargs, field):
    with pytest.raises(services.ServiceError) as refused:
        review.accept_review(flagged["deck"], organiser, **kwargs)
    assert refused.value.errors[0]["field"] == field
    assert Precedent.objects.get(pk=flagged["deck"].pk).needs_review


def test_a_precedent_already_reviewed_is_not_reviewed_twice(flagged, organiser):
    review.accept_review(flagged["deck"], organiser)
    with pytest.raises(services.ServiceError, match="no changed rule"):
        review.accept_review(flagged["deck"], organiser, outcome=review.AVOID)
    assert Precedent.objects.get(pk=flagged["deck"].pk).status == Precedent.Status.FOLLOW


# --- when it runs -------------------------------------------------------------------------------


def test_the_command_flags_and_says_how_many(kept, texts):
    edit_rule(texts, DECK_RULE, NEW_202_1)
    out = io.StringIO()
    call_command("review_precedents", stdout=out)
    assert out.getvalue().startswith("1 precedents flagged for review by this run; 1 wait")
    assert Precedent.objects.get(pk=kept["deck"].pk).needs_review


def test_migrate_flags_them_through_post_migrate(kept, texts):
    edit_rule(texts, DECK_RULE, NEW_202_1)
    out = io.StringIO()
    post_migrate.send(
        sender=global_apps.get_app_config("precedents"),
        app_config=global_apps.get_app_config("precedents"),
        verbosity=1,
        interactive=False,
        using="default",
        apps=global_apps,
        plan=[],
        stdout=out,
    )
    assert Precedent.objects.get(pk=kept["deck"].pk).needs_review
    assert "Precedents flagged for review (a rule they cite changed): 1." in out.getvalue()


def test_after_migrate_does_nothing_before_the_table_exists_or_with_no_precedent(
    django_assert_max_num_queries,
):
    empty_state = ProjectState().apps  # precedents not migrated yet (or migrated to zero)
    with django_assert_max_num_queries(0):
        assert review.after_migrate(None, using="default", apps=empty_state) == 0
    with django_assert_max_num_queries(2):  # the table is there, empty
        assert review.after_migrate(None, using="default", apps=global_apps) == 0


# --- the page -----------------------------------------------------------------------------------


def test_the_page_shows_old_and_new_text_and_the_form_to_those_allowed(
    flagged, client, organiser, judge
):
    client.force_login(organiser)
    page = client.get("/judge/precedents/review/")
    body = page.content.decode()
    assert page.status_code == 200
    assert "may contain <del>any number of</del> cards belonging" in body  # old, marked
    assert "may contain <ins>up to thirty</ins> cards belonging" in body  # new, marked
    assert '<a href="/rules/iacta/#202.1">Rule 202.1</a>' in body  # the rule's text in full
    assert f'action="/judge/precedents/{flagged["deck"].uid}/review/"' in body
    assert "Five Ember Tithe?" in body  # the question asked, names removed
    client.force_login(judge)  # a floor judge of the event: reads it, has no form
    body = client.get("/judge/precedents/review/").content.decode()
    assert "thirty" in body and '/review/" class="review-form"' not in body


def test_a_removed_rule_shows_as_no_longer_in_the_rules(kept, texts, client, organiser):
    edit_rule(texts, DECK_RULE, None)
    review.flag_changed_rules()
    client.force_login(organiser)
    assert "no longer in the rules" in client.get("/judge/precedents/review/").content.decode()


def test_the_form_reviews_and_an_empty_one_is_refused_on_the_page(flagged, client, organiser):
    client.force_login(organiser)
    url = f"/judge/precedents/{flagged['deck'].uid}/review/"
    refused = client.post(url, {})
    assert refused.status_code == 400
    assert "Say whether the ruling still holds" in refused.content.decode()
    assert Precedent.objects.get(pk=flagged["deck"].pk).needs_review
    done = client.post(url, {"outcome": "avoid", "note": "Thirty changes it."})
    assert done.status_code == 302 and done["Location"] == "/judge/precedents/review/"
    deck = Precedent.objects.get(pk=flagged["deck"].pk)
    assert deck.status == Precedent.Status.AVOID and not deck.needs_review
    assert "No precedent to review." in client.get("/judge/precedents/review/").content.decode()


def test_people_outside_judging_are_kept_out(flagged, client, judge):
    page = client.get("/judge/precedents/review/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    client.force_login(make_user("pat"))  # an account with no event role
    assert client.get("/judge/precedents/review/").status_code == 403
    url = f"/judge/precedents/{flagged['deck'].uid}/review/"
    assert client.post(url, {"outcome": "holds"}).status_code == 403
    client.force_login(judge)  # a floor judge: may read, may not review
    assert client.post(url, {"outcome": "holds"}).status_code == 403
    assert client.post(f"/judge/precedents/{uuid.uuid4()}/review/", {}).status_code == 404
    assert Precedent.objects.get(pk=flagged["deck"].pk).needs_review


def test_a_draft_events_precedent_is_not_listed_for_other_events_judges(flagged, client):
    Event.objects.filter(pk=flagged["event"].pk).update(status=Event.Status.DRAFT)
    other = make_user("oscar")
    elsewhere = build_event(["q1", "q2"], name="Other Open", organiser=other).event
    EventRole.objects.create(event=elsewhere, user=make_user("jo"), role=EventRole.Role.JUDGE)
    client.force_login(other)
    body = client.get("/judge/precedents/review/").content.decode()
    assert "thirty" not in body and "No precedent to review." in body


def test_site_staff_see_and_review_a_precedent_with_no_event(flagged, client):
    Precedent.objects.filter(pk=flagged["deck"].pk).update(event=None, event_name="")
    client.force_login(make_user("stella", is_staff=True))  # no event role
    body = client.get("/judge/precedents/review/").content.decode()
    assert "<ins>up to thirty</ins>" in body and "From another site" in body
    url = f"/judge/precedents/{flagged['deck'].uid}/review/"
    assert client.post(url, {"outcome": "holds"}).status_code == 302
    assert not Precedent.objects.get(pk=flagged["deck"].pk).needs_review


def test_the_changed_words_are_marked_on_each_side_spacing_aside():
    old, new = review.word_diff(
        "Draw two cards,\nthen discard one.", "Draw three cards, then discard one."
    )
    assert [(p.text, p.changed) for p in old] == [
        ("Draw ", False), ("two", True), (" cards,\nthen discard one.", False)
    ]  # fmt: skip
    assert [(p.text, p.changed) for p in new] == [
        ("Draw ", False), ("three", True), (" cards, then discard one.", False)
    ]  # fmt: skip
    gone_old, gone_new = review.word_diff("Rule text.", None)
    assert [(p.text, p.changed) for p in gone_old] == [("Rule text.", True)] and gone_new == []
