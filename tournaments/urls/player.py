"""Signed-in players, for themselves: login_required; the view finds their own registration."""

from django.urls import path

from tournaments.pages import player_events, player_match

urlpatterns = [
    path("events/<int:event_id>/my-match/", player_match.my_match, name="my_match"),
    # The page's live region (live.js fetches it on the player's notices): theirs alone.
    path(
        "events/<int:event_id>/my-match/fragment/",
        player_match.my_match_fragment,
        name="my_match_fragment",
    ),
    # A match slip's QR code: its two players, and the event's staff (who enter results).
    path("events/<int:event_id>/matches/<int:match_id>/", player_match.match_page, name="match"),
    path("events/<int:event_id>/drop/", player_match.drop_self, name="drop_self"),
    path("events/<int:event_id>/check-in/me/", player_match.check_in_self, name="check_in_self"),
    path("events/<int:event_id>/register/", player_events.register, name="register"),
    path("events/<int:event_id>/withdraw/", player_events.withdraw, name="withdraw"),
    path("me/events/", player_events.my_events, name="my_events"),
    # An entry offered to the account: only its holder answers (another's offer is a 404).
    path(
        "me/offers/<int:offer_id>/accept/",
        player_events.answer_offer,
        {"answer": "accept"},
        name="accept_offer",
    ),
    path(
        "me/offers/<int:offer_id>/decline/",
        player_events.answer_offer,
        {"answer": "decline"},
        name="decline_offer",
    ),
]
