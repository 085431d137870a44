"""Card pool pages: a public browser, and an upload page for organisers.

Anyone may look cards up (players check names and texts before registering a
deck); loading a pool changes what every decklist is checked against, so only
site staff and people who organise an event may upload one.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from decks.cardpool import COLUMNS, import_file
from decks.models import Card, name_key
from tournaments.models import EventRole, Game

CARDS_PER_PAGE = 50
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
POOL_GAMES = [(value, label) for value, label in Game.choices if value in COLUMNS]


def can_upload_cards(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Site staff, and anyone who organises at least one event."""
    if not user.is_authenticated:
        return False
    return (
        user.is_staff
        or user.is_superuser
        or EventRole.objects.filter(user=user, role=EventRole.Role.ORGANISER).exists()
    )


class CardUploadForm(forms.Form):
    game = forms.ChoiceField(
        choices=POOL_GAMES,
        help_text="Superjack needs no file: its cards are the standard playing cards.",
    )
    file = forms.FileField(
        label="Card file",
        help_text="CSV (UTF-8, with a header row) or JSON (a list of objects), "
        "with the columns of the card-pool format.",
    )
    skip_errors = forms.BooleanField(
        required=False,
        label="Skip bad rows",
        help_text="Import the good rows and list the bad ones. "
        "Unticked, a file with any problem imports nothing.",
    )

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB."
            )
        return upload


def card_list(request: HttpRequest) -> HttpResponse:
    """Every card, searchable by name (ignoring case and spacing) and filterable by game."""
    query = request.GET.get("q", "").strip()
    game = request.GET.get("game", "")
    if game not in COLUMNS:
        game = ""
    cards = Card.objects.all()
    if game:
        cards = cards.filter(game=game)
    if query:
        cards = cards.filter(key__contains=name_key(query))
    page = Paginator(cards, CARDS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "cards": page.object_list,
        "query": query,
        "game": game,
        "games": POOL_GAMES,
        "any_cards": bool(page.object_list) or Card.objects.exists(),
        "can_upload": can_upload_cards(request.user),
    }
    return render(request, "decks/card_list.html", context)


def card_detail(request: HttpRequest, card_id: int) -> HttpResponse:
    """One card with its current text and every earlier text it replaced (101.4)."""
    card = get_object_or_404(Card, pk=card_id)
    context = {"card": card, "revisions": card.revisions.all()}
    return render(request, "decks/card_detail.html", context)


@login_required
def card_upload(request: HttpRequest) -> HttpResponse:
    """Upload a card file; show what was imported, or every problem with its line."""
    if not can_upload_cards(request.user):
        raise PermissionDenied("Only site staff and event organisers may upload card pools.")
    posted = request.method == "POST"
    form = CardUploadForm(request.POST, request.FILES) if posted else CardUploadForm()
    result = None
    if posted and form.is_valid():
        upload = form.cleaned_data["file"]
        source = f"{upload.name} uploaded by {request.user.get_username()}"
        result = import_file(
            form.cleaned_data["game"],
            upload.read(),
            upload.name,
            source=source,
            skip_errors=form.cleaned_data["skip_errors"],
        )
    context = {
        "form": form,
        "result": result,
        "game": form.cleaned_data["game"] if result else "",
    }
    return render(request, "decks/card_upload.html", context)
