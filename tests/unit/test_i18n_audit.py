"""The translation audit (tools/i18n_audit.py): what it calls unmarked in templates and
Python, what it lets pass, and what it finds wrong with a catalogue. Pure: files in
tmp_path, no database."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tools import i18n_audit
from tools.i18n_audit import (
    Finding,
    audit_project,
    catalogue_problems,
    missing_from_catalogue,
    unmarked_python_strings,
    unmarked_template_strings,
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def template(tmp_path: Path, text: str, name: str = "page.html") -> list[Finding]:
    return unmarked_template_strings(write(tmp_path, name, text))


def python(tmp_path: Path, text: str) -> list[Finding]:
    return unmarked_python_strings(write(tmp_path, "module.py", text))


def texts(findings: list[Finding]) -> list[str]:
    return [finding.text for finding in findings]


# --- templates -------------------------------------------------------------------------


def test_an_unmarked_text_node_is_found_with_its_line(tmp_path):
    found = template(
        tmp_path,
        """
        {% extends "base.html" %}
        {% block content %}
        <h1>
          Round {{ round.number }} is over
        </h1>
        {% endblock %}
        """,
    )
    assert found == [Finding(str(tmp_path / "page.html"), 4, "Round {…} is over")]


def test_marked_text_passes(tmp_path):
    found = template(
        tmp_path,
        """
        {% load i18n %}
        <h1>{% translate "Round over" %}</h1>
        <p>{% trans 'Old style' %}</p>
        <p>{% blocktranslate with n=round.number %}Round {{ n }} is over{% endblocktranslate %}</p>
        <p>{% blocktrans count counter=n %}One table{% plural %}{{ counter }} tables
        {% endblocktrans %}</p>
        """,
    )
    assert found == []


def test_an_unmarked_title_attribute_is_found_and_a_marked_one_passes(tmp_path):
    found = template(
        tmp_path,
        """
        {% load i18n %}
        <abbr title="Opponents' match-win percentage">OMW%</abbr>
        <abbr title="{% translate "Game-win percentage" %}">GW%</abbr>
        <span title="{{ when }}">{{ ago }}</span>
        """,
    )
    assert texts(found) == ['title="Opponents\' match-win percentage"']
    assert found[0].line == 2


def test_the_attributes_people_read(tmp_path):
    found = template(
        tmp_path,
        """
        <input name="q" placeholder="Card name" aria-label="Card name">
        <img src="x.png" alt="The table's QR code">
        <option label="Best of three" value="bo3">
        <input type="submit" value="Save draft">
        <input type="hidden" name="action" value="create">
        <meta name="description" content="Tournament toolkit">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        """,
    )
    assert texts(found) == [  # by line, then alphabetically
        'aria-label="Card name"',
        'placeholder="Card name"',
        'alt="The table\'s QR code"',
        'label="Best of three"',
        'value="Save draft"',
        'content="Tournament toolkit"',
    ]


def test_what_is_never_translated_passes(tmp_path):
    found = template(
        tmp_path,
        """
        {# A note for developers #}
        {% comment "why" %}<p>Not shown at all</p>{% endcomment %}
        <!-- an HTML comment -->
        <script>const label = "Hello there";</script>
        <style>.x::after { content: "Hello there"; }</style>
        <p>Arbiter</p><p>Iacta · Superjack · Dataclysm</p><p>OMW% / GW% / OGW%</p>
        <p>44.44% &nbsp;&mdash; 2-0 · #12 (3) &ndash;</p>
        <p>{{ player.name }} {{ score }}</p>
        <p><code>Authorization: Token abc</code> <span translate="no">Grace Hopper</span></p>
        <p>https://example.org/events/ /api/v1/events/</p>
        <a href="{% url 'home' %}" class="brand">CSV</a>
        """,
    )
    assert found == []


def test_block_text_that_is_an_attribute_value_passes(tmp_path):
    found = template(
        tmp_path,
        """
        <body class="{% block body_class %}{% endblock %}">
        {% block body_class %}wall{% endblock %}
        {% block content %}Standings{% endblock %}
        """,
    )
    assert texts(found) == ["Standings"]


def test_prose_handed_on_by_a_tag_is_found(tmp_path):
    found = template(
        tmp_path,
        """
        {% load i18n %}
        {% include "_empty.html" with title="No events yet." kind="events" %}
        {% translate "No events yet." as empty %}{% include "_empty.html" with title=empty %}
        <p class="{{ message.tags|default:'info' }}">{{ winner|default:"Nobody" }}</p>
        """,
    )
    assert texts(found) == ['"No events yet."', '"Nobody"']
    assert [finding.line for finding in found] == [2, 4]


def test_plain_text_templates_are_read_as_paragraphs(tmp_path):
    found = template(
        tmp_path,
        """
        {% load i18n %}{% autoescape off %}Hello {{ name }},

        {% blocktranslate %}This paragraph is marked.{% endblocktranslate %}

        {{ link }}

        Open the link to confirm the address.
        {% endautoescape %}
        """,
        name="mail.txt",
    )
    assert [(finding.line, finding.text) for finding in found] == [
        (1, "Hello {…},"),
        (7, "Open the link to confirm the address."),
    ]


# --- Python ----------------------------------------------------------------------------


def test_an_unmarked_service_error_literal_is_found_and_a_marked_one_passes(tmp_path):
    found = python(
        tmp_path,
        """
        from django.utils.translation import gettext as _
        from web.errors import FieldError, ServiceError

        def refuse(name, message):
            raise ServiceError("The event is full.", "event")

        def refuse_marked(name, message):
            raise ServiceError(_("The event is full."), "event")

        def refuse_named(message):
            raise ServiceError(message)

        def refuse_by_keyword():
            raise ServiceError(message="Registration is closed.", field=None)

        def several(name):
            raise ServiceError.of(
                [
                    FieldError(field="name", message=f"{name} is taken."),
                    FieldError(field="name", message=_("Too long.")),
                ]
            )
        """,
    )
    assert [(finding.line, finding.text) for finding in found] == [
        (5, 'ServiceError: "The event is full."'),
        (14, 'ServiceError: "Registration is closed."'),
        (19, 'FieldError: "{…} is taken."'),
    ]


def test_an_unmarked_f_string_in_messages_error_is_found(tmp_path):
    found = python(
        tmp_path,
        """
        from django.contrib import messages
        from django.utils.translation import gettext as _

        def view(request, table):
            messages.error(request, f"Table {table} has no match.")
            messages.success(request, _("Table %(table)s saved.") % {"table": table})
            messages.add_message(request, messages.INFO, "Round started.")
            messages.info(request, "Table {} reported.".format(table))
            messages.warning(request, _(f"Table {table} is late."))
        """,
    )
    assert [(finding.line, finding.text) for finding in found] == [
        (5, 'messages.error: "Table {…} has no match."'),
        (7, 'messages.add_message: "Round started."'),
        (8, 'messages.info: "Table {} reported."'),
        (9, 'f-string inside _(): "Table {…} is late."'),
    ]


def test_an_unmarked_text_choices_label_is_found_and_a_marked_one_passes(tmp_path):
    found = python(
        tmp_path,
        """
        from django.db import models
        from django.utils.translation import gettext_lazy as _lazy, pgettext_lazy

        class Status(models.TextChoices):
            DRAFT = "draft", "Draft"
            OPEN = "open", _lazy("Open")
            DONE = "done", pgettext_lazy("event status", "Finished")
            IACTA = "iacta", "Iacta"

        class Round(models.IntegerChoices):
            FIRST = 1

        class Plain:
            LABEL = "label", "Not a choice"
        """,
    )
    assert [(finding.line, finding.text) for finding in found] == [
        (5, 'Status.DRAFT label: "Draft"'),
        (11, "Round.FIRST label: none given, Django shows 'First'"),
    ]


def test_exceptions_and_field_labels(tmp_path):
    found = python(
        tmp_path,
        """
        from django import forms
        from django.core.exceptions import PermissionDenied, ValidationError
        from django.db import models
        from django.http import Http404
        from django.utils.translation import gettext_lazy as _
        from rest_framework import serializers
        from rest_framework.exceptions import NotAuthenticated, ParseError

        class Form(forms.Form):
            name = forms.CharField(label="Name", help_text=_("As on your ID."))

        class Card(models.Model):
            text = models.TextField(verbose_name=_("text"), help_text="Rules text")

            class Meta:
                verbose_name_plural = "cards"

        def check(value):
            raise forms.ValidationError("Too long.")
            raise ValidationError(_("Too long."))
            raise PermissionDenied("Organisers only.")
            raise Http404("No such event.")
            raise Http404
            raise NotAuthenticated("Log in first.")
            raise ParseError(detail="Send JSON.")
            raise serializers.ValidationError({"score": ["Scores look like 2-1."]})
            raise PermissionDenied(reason)
        """,
    )
    assert [(finding.line, finding.text) for finding in found] == [
        (10, 'label=: "Name"'),
        (13, 'help_text=: "Rules text"'),
        (16, 'Meta.verbose_name_plural: "cards"'),
        (19, 'ValidationError: "Too long."'),
        (21, 'PermissionDenied: "Organisers only."'),
        (22, 'Http404: "No such event."'),
        (24, 'NotAuthenticated: "Log in first."'),
        (25, 'ParseError: "Send JSON."'),
        (26, 'ValidationError: "Scores look like 2-1."'),
    ]


def test_messages_without_words_pass(tmp_path):
    assert (
        python(
            tmp_path,
            """
            from web.errors import ServiceError

            raise ServiceError(f"{name}: {problem}")
            raise ServiceError("OMW%")
            """,
        )
        == []
    )


# --- the project -----------------------------------------------------------------------


def test_the_project_audit_reads_templates_and_app_python_only(tmp_path):
    write(tmp_path, "templates/home.html", "<p>Welcome</p>\n")
    write(tmp_path, "decks/templates/decks/x.html", "<p>Deck page</p>\n")
    write(tmp_path, "decks/views.py", 'raise PermissionDenied("Players only.")\n')
    write(tmp_path, "decks/migrations/0001_initial.py", 'raise Http404("Migration")\n')
    write(tmp_path, "decks/tests/test_x.py", 'raise Http404("Test")\n')
    write(tmp_path, "pairing/swiss.py", 'raise ServiceError("Pure English rules")\n')
    found = audit_project(tmp_path)
    assert [(finding.file, finding.text) for finding in found] == [
        ("decks/templates/decks/x.html", "Deck page"),
        ("decks/views.py", 'PermissionDenied: "Players only."'),
        ("templates/home.html", "Welcome"),
    ]
    shown = i18n_audit.report(found)
    assert "templates/home.html:\n      1  Welcome" in shown
    assert shown.endswith("Total: 3 unmarked strings in 3 files.")


def test_the_command_exits_1_when_anything_is_unmarked(tmp_path, capsys):
    write(tmp_path, "templates/home.html", "{% load i18n %}<p>{% translate 'Welcome' %}</p>\n")
    assert i18n_audit.main([str(tmp_path)]) == 0
    write(tmp_path, "web/views.py", 'raise Http404("Gone.")\n')
    assert i18n_audit.main([str(tmp_path)]) == 1
    assert "web/views.py:\n      1  Http404" in capsys.readouterr().out


# --- catalogues ------------------------------------------------------------------------

HEADER = """
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"""


def catalogue(tmp_path: Path, entries: str) -> Path:
    return write(tmp_path, "django.po", HEADER + textwrap.dedent(entries))


def test_a_complete_catalogue_has_no_problems(tmp_path):
    po = catalogue(
        tmp_path,
        """
        msgid "Events"
        msgstr "Turniere"

        #, python-format
        msgid "Round %(number)s of %(rounds)s"
        msgstr "Runde %(number)s von %(rounds)s"

        #, python-format
        msgid "%(count)s player"
        msgid_plural "%(count)s players"
        msgstr[0] "ein Spieler"
        msgstr[1] "%(count)s Spieler"

        msgid "Welcome, {name}"
        msgstr "Willkommen, {name}"
        """,
    )
    assert catalogue_problems(po) == []


@pytest.mark.parametrize(
    ("entry", "problems"),
    [
        ('msgid "Events"\nmsgstr ""\n', ["untranslated"]),
        ('#, fuzzy\nmsgid "Events"\nmsgstr "Ereignisse"\n', ["fuzzy"]),
        ('#~ msgid "Old page"\n#~ msgstr "Alte Seite"\n', ["obsolete"]),
        (
            'msgid "%(count)s table"\nmsgid_plural "%(count)s tables"\n'
            'msgstr[0] "ein Tisch"\nmsgstr[1] ""\n',
            ["plural forms missing (msgstr[1] of 2)"],
        ),
        (
            '#, python-format\nmsgid "Round %(number)s"\nmsgstr "Runde"\n',
            ["msgstr drops %(number)"],
        ),
        ('msgid "Hello {name}"\nmsgstr "Hallo"\n', ["msgstr drops {name}"]),
        ('#, python-format\nmsgid "Table %s"\nmsgstr "Tisch"\n', ["msgstr drops %s"]),
        (
            '#, python-format\nmsgid "Round %(number)s"\nmsgstr "Runde %(nummer)s"\n',
            ["msgstr drops %(number)", "placeholders the msgid lacks (%(nummer))"],
        ),
        (
            '#, python-format\nmsgid "%(count)s table"\nmsgid_plural "%(count)s tables"\n'
            'msgstr[0] "ein Tisch"\nmsgstr[1] "Tische"\n',
            ["msgstr[1] drops %(count)"],
        ),
    ],
)
def test_catalogue_problems(tmp_path, entry, problems):
    po = catalogue(tmp_path, "\n" + entry)
    found = catalogue_problems(po)
    assert len(found) == len(problems), found
    for line, problem in zip(found, problems, strict=True):
        assert problem in line and line.startswith(f"{po}:"), line


def test_a_percent_sign_is_no_placeholder_outside_python_format(tmp_path):
    po = catalogue(tmp_path, '\nmsgid "100% of wins"\nmsgstr "100 % der Siege"\n')
    assert catalogue_problems(po) == []


def test_missing_from_catalogue(tmp_path):
    po = catalogue(
        tmp_path,
        """
        msgid "Events"
        msgstr "Turniere"

        msgid "Rules"
        msgstr ""

        #~ msgid "Old page"
        #~ msgstr "Alte Seite"
        """,
    )
    wanted = ["Events", "Rules", "Cards", "Old page", "Cards"]
    assert missing_from_catalogue(po, wanted) == ["Cards", "Old page"]


def test_a_block_opened_inside_style_is_css_not_page_text(tmp_path):
    base = tmp_path / "document.html"
    base.write_text("<style>{% block style %}{% endblock %}</style>{% block body %}{% endblock %}")
    child = tmp_path / "child.html"
    child.write_text(
        '{% extends "document.html" %}{% block style %} .slip { height: 4mm; }{% endblock %}'
        "{% block body %}Unmarked words{% endblock %}"
    )
    from tools.i18n_audit import attribute_blocks, unmarked_template_strings

    blocks = attribute_blocks(base.read_text())
    assert blocks == {"style"}
    found = unmarked_template_strings(child, in_attributes=blocks)
    assert len(found) == 1 and "Unmarked words" in found[0].text
