"""Card pool pages: a public browser, and an upload page for card pool editors.

Anyone may look cards up (players check names and texts before registering a
deck); loading a pool changes what every decklist of every event is checked
against, so only holders of ``decks.edit_card_pool`` (the Card pool editors
group, and superusers) may upload one. Organising an event gives no such right.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from decks.cardpool import COLUMNS, import_file, may_edit_card_pool, refusal
from decks.models import Card, CardPoolImport, name_key
from tournaments.models import Game

CARDS_PER_PAGE = 50
RECENT_IMPORTS = 10
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
POOL_GAMES = [(value, label) for value, label in Game.choices if value in COLUMNS]


class CardUploadForm(forms.Form):
    game = forms.ChoiceField(
        choices=POOL_GAMES,
        label=_lazy("Game"),
        help_text=_lazy("Superjack needs no file: its cards are the standard playing cards."),
    )
    file = forms.FileField(
        label=_lazy("Card file"),
        help_text=_lazy(
            "CSV (UTF-8, with a header row) or JSON (a list of objects), "
            "with the columns of the card-pool format."
        ),
    )
    skip_errors = forms.BooleanField(
        required=False,
        label=_lazy("Skip bad rows"),
        help_text=_lazy(
            "Import the good rows and list the bad ones. "
            "Unticked, a file with any problem imports nothing."
        ),
    )

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(megabytes)s MB.")
                % {"megabytes": MAX_UPLOAD_BYTES // (1024 * 1024)}
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
    can_upload = may_edit_card_pool(request.user)
    context = {
        "page": page,
        "cards": page.object_list,
        "query": query,
        "game": game,
        "games": POOL_GAMES,
        "any_cards": bool(page.object_list) or Card.objects.exists(),
        "can_upload": can_upload,
        "imports": _recent_imports(game) if can_upload else [],
    }
    return render(request, "decks/card_list.html", context)


def _recent_imports(game: str) -> list[CardPoolImport]:
    """The latest imports that changed the pool (of ``game``, or all): who, when, what.

    Shown to card pool editors, who answer for the pool and need to see who changed it.
    """
    imports = CardPoolImport.objects.select_related("created_by")
    if game:
        imports = imports.filter(game=game)
    return list(imports[:RECENT_IMPORTS])


def card_detail(request: HttpRequest, card_id: int) -> HttpResponse:
    """One card with its current text and every change an import made to it, and by whom.

    Earlier texts stay readable (101.4); other changed fields show before and after.
    """
    card = get_object_or_404(Card, pk=card_id)
    revisions = card.revisions.select_related("created_by", "pool_import")
    context = {"card": card, "revisions": revisions}
    return render(request, "decks/card_detail.html", context)


@login_required
def card_upload(request: HttpRequest) -> HttpResponse:
    """Upload a card file; show what was imported, or every problem with its line."""
    if not may_edit_card_pool(request.user):
        raise PermissionDenied(refusal())
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
            author=request.user,
        )
    context = {
        "form": form,
        "result": result,
        "game": form.cleaned_data["game"] if result else "",
        "max_rows": f"{settings.CARD_IMPORT_MAX_ROWS:,}",
        "time_budget": settings.CARD_IMPORT_TIME_BUDGET,
    }
    return render(request, "decks/card_upload.html", context)
