"""What is left to mark for translation, and what a translation catalogue still lacks.

``python -m tools.i18n_audit [ROOT]`` lists every string a person reads that is not yet
marked for translation, by file with line numbers and a total, and exits 1 if there is
any. It reads files only (no database, no settings): the templates with Django's template
``Lexer`` and Python's ``HTMLParser``, the Python with ``ast``.

Templates (:func:`unmarked_template_strings`). Outside ``{% translate %}``/``{% trans %}``
and ``{% blocktranslate %}…{% endblocktranslate %}``/``{% blocktrans %}`` these are
unmarked when they hold human words (a run of two letters or more, not in ALLOWED):

* a text node of the HTML (``{{ … }}`` and ``{% … %}`` inside it are neutral
  placeholders, shown as ``{…}`` and ``{%…%}``);
* the attributes a person reads: TEXT_ATTRIBUTES on any element, ``value`` of
  ``<input type=submit|button|reset>``, ``content`` of ``<meta name=description>``;
* a string literal that a tag hands on for showing: ``with key="…"`` (``{% include %}``,
  ``{% with %}``) when it reads as prose (a space, or a capital first letter), and the
  arguments of the filters in SHOWN_FILTERS (``|default:"Nobody"``).

Left out: ``<script>`` and ``<style>``, computer text (CODE_ELEMENTS), anything under
``translate="no"`` (HTML's own "do not translate" mark), HTML comments, ``{# #}`` and
``{% comment %}`` blocks, tags and variables themselves, addresses (URLs, e-mail
addresses, site paths), and text of entities, punctuation, numbers and symbols only.
Plain-text templates (``*.txt``: e-mails) have no HTML: each paragraph of their text is
one string.

Python (:func:`unmarked_python_strings`): a string literal, an f-string, or a literal
built on (``"…" % x``, ``"…".format(…)``, ``"…" + x``, ``a if c else "…"``) given as

* the message of ``ServiceError(…)`` (first argument or ``message=``), ``FieldError(
  message=…)`` and a dict literal's ``"message"`` (the same shape, written by hand);
* the message of MESSAGE_EXCEPTIONS (Django's and DRF's ``ValidationError``,
  ``PermissionDenied``, ``Http404``, ``NotAuthenticated``, ``ParseError``…): the first
  argument, ``message=`` or ``detail=``, and the strings in a dict or list given there;
* the message of ``messages.success/error/info/warning/debug(request, X)`` and
  ``messages.add_message(request, level, X)``;
* ``verbose_name=``, ``verbose_name_plural=``, ``help_text=``, ``label=`` of any call (model
  and form fields), and ``verbose_name``/``verbose_name_plural`` set in a class body
  (``Meta``, an ``AppConfig``);
* the label of a ``TextChoices``/``IntegerChoices`` member (``X = "x", "Label"``), and a
  member with no label at all (Django makes one from its name, in English).

A message that is a name or any other call (``_("…")``, ``gettext_lazy(…)``, a helper)
passes. ``_(f"…")`` is reported too: a catalogue never holds an f-string's text.

Catalogues (:func:`catalogue_problems`, :func:`missing_from_catalogue`) are read with
``polib``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

# Words that are never translated: product and game names, and purely technical tokens.
# Matched whole and case-sensitively ("Arbiter's" is "Arbiter" and a lone "s").
ALLOWED = frozenset(
    {
        # the product and the games
        "Arbiter",
        "Iacta",
        "Superjack",
        "Dataclysm",
        # technical tokens
        "API",
        "CSV",
        "PDF",
        "JSON",
        "OMW%",
        "GW%",
        "OGW%",
        "htmx",
    }
)

# The apps whose Python is audited (tests and migrations left out). rules_engine and
# pairing are pure English rule texts and are not.
APPS = (
    "accounts",
    "arbiter",
    "backups",
    "decks",
    "judging",
    "live",
    "metagame_site",
    "precedents",
    "printing",
    "push",
    "rulebook",
    "series",
    "tournaments",
    "web",
    "webhooks",
)
TEMPLATE_SUFFIXES = (".html", ".txt")
TEXT_SUFFIXES = (".txt",)  # plain-text templates: e-mails

# Attributes whose value a person reads (data-confirm: the site's own confirm dialog).
TEXT_ATTRIBUTES = frozenset({"title", "placeholder", "aria-label", "alt", "label", "data-confirm"})
BUTTON_INPUT_TYPES = frozenset({"submit", "button", "reset"})
# Elements whose text is not read as prose, and so never translated.
SKIPPED_ELEMENTS = frozenset({"script", "style"})
CODE_ELEMENTS = frozenset({"code", "kbd", "samp"})
VOID_ELEMENTS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    | {"track", "wbr", "param"}
)
# Template filters whose string argument is shown in the page.
SHOWN_FILTERS = frozenset({"default", "default_if_none", "yesno"})
# The tags that open and close a block whose text is translated whole, or is a comment.
TRANSLATED_BLOCKS = {"blocktranslate": "endblocktranslate", "blocktrans": "endblocktrans"}
COMMENT_BLOCKS = {"comment": "endcomment"}

# The gettext family, and the aliases they are imported as: a call of one is marked.
GETTEXT = frozenset(
    {
        "_",
        "_lazy",
        "gettext",
        "gettext_lazy",
        "gettext_noop",
        "ngettext",
        "ngettext_lazy",
        "pgettext",
        "pgettext_lazy",
        "npgettext",
        "npgettext_lazy",
        "ugettext",
        "ugettext_lazy",
        "ungettext",
        "ungettext_lazy",
    }
)
# Exceptions whose message reaches the person who asked (Django's, DRF's, ours).
MESSAGE_EXCEPTIONS = frozenset(
    {
        "ServiceError",
        "ValidationError",
        "PermissionDenied",
        "Http404",
        "NotAuthenticated",
        "AuthenticationFailed",
        "ParseError",
        "NotFound",
        "SuspiciousOperation",
    }
)
MESSAGE_LEVELS = frozenset({"success", "error", "info", "warning", "debug"})
TEXT_KEYWORDS = frozenset({"verbose_name", "verbose_name_plural", "help_text", "label"})
CLASS_TEXT_NAMES = frozenset({"verbose_name", "verbose_name_plural"})
CHOICES_BASES = frozenset({"TextChoices", "IntegerChoices", "Choices"})

# Private-use characters (no letter, no word, no HTML) standing for what a page fills in: a
# variable ({{ … }}, an f-string's {…}) and a tag ({% … %}, left out at a string's ends).
PLACEHOLDER = "\ue000"
TAG_PLACEHOLDER = "\ue001"
SHOWN_PLACEHOLDERS = {PLACEHOLDER: "{…}", TAG_PLACEHOLDER: "{%…%}"}
_HUMAN = re.compile(r"[^\W\d_]{2,}")
_WORD = re.compile(r"[\w%]+")
_ADDRESS = re.compile(
    r"(?:[a-z][a-z0-9+.-]*://|www\.)\S+"  # URLs
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # e-mail addresses
    r"|(?:(?<=\s)|^)/[\w./%\ue000\ue001<>{}?=&:-]*",  # site paths: /events/<id>/manage/
    re.IGNORECASE,
)
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_WITH_ARGUMENT = re.compile(r"""\b[\w.]+=(?P<quote>["'])(?P<text>(?:(?!(?P=quote)).)*)(?P=quote)""")
_FILTER_ARGUMENT = re.compile(
    r"""\|\s*(?P<filter>\w+)\s*:\s*(?P<quote>["'])(?P<text>(?:(?!(?P=quote)).)*)(?P=quote)"""
)
_BLOCK_IN_TAG = re.compile(r"<[a-zA-Z][^<>]*?\{%\s*block\s+(\w+)\s*%\}")
# A block opened inside <style> or <script> (``<style>{% block style %}``): CSS or code.
_BLOCK_IN_CODE = re.compile(r"<(?:style|script)\b[^>]*>[^<]*?\{%\s*block\s+(\w+)\s*%\}")


@dataclass(frozen=True, order=True)
class Finding:
    """One unmarked string: where it is (line from 1) and what it says (shortened)."""

    file: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}"


# --- words -----------------------------------------------------------------------------


def human_words(text: str) -> list[re.Match[str]]:
    """The words of ``text`` a translator would translate: those with a run of two letters
    or more, not in ALLOWED, outside addresses (URLs, e-mail addresses, site paths)."""
    blanked = _ADDRESS.sub(lambda m: " " * len(m.group()), text)
    return [
        word
        for word in _WORD.finditer(blanked)
        if word.group() not in ALLOWED and _HUMAN.search(word.group())
    ]


def shown(text: str, limit: int = 100) -> str:
    """``text`` on one line, placeholders as ``{…}`` and ``{%…%}`` (tags left out at either
    end), at most ``limit`` characters."""
    one_line = " ".join(text.strip(TAG_PLACEHOLDER + " \t\n\r").split())
    for mark, shown_as in SHOWN_PLACEHOLDERS.items():
        one_line = one_line.replace(mark, shown_as)
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def reads_as_prose(text: str) -> bool:
    """A tag's string literal that is shown as words (``"No events yet."``, ``"Nobody"``),
    not a keyword or a class name (``"info"``, ``"true,false"``)."""
    return bool(human_words(text)) and (" " in text.strip() or text[:1].isupper())


# --- templates -------------------------------------------------------------------------


def _tag_name(token) -> str:
    return token.contents.split(None, 1)[0] if token.contents else ""


def attribute_blocks(source: str) -> frozenset[str]:
    """The names of the ``{% block %}``s this template opens inside an HTML tag
    (``<body class="{% block body_class %}">``: their text is an attribute's value) or
    inside ``<style>``/``<script>`` (their text is CSS or code): no page text either way."""
    return frozenset(_BLOCK_IN_TAG.findall(source)) | frozenset(_BLOCK_IN_CODE.findall(source))


def _template_source(
    source: str, in_attributes: frozenset[str] = frozenset()
) -> tuple[str, list[tuple[int, str]]]:
    """The template as its text with every variable a PLACEHOLDER and every tag (comments
    too) a TAG_PLACEHOLDER; translated blocks, comment blocks and the blocks named in
    ``in_attributes`` emptied (their line breaks kept, so lines stay the source's); and the
    (line, literal) pairs its tags hand on for showing."""
    parts: list[str] = []
    literals: list[tuple[int, str]] = []
    skipped: tuple[str, str] | None = None  # (opening tag, closing tag) being skipped
    depth = 0  # the opening tag seen again inside it ({% block %} within {% block %})
    for token in Lexer(source).tokenize():
        name = _tag_name(token) if token.token_type is TokenType.BLOCK else ""
        if skipped is not None:
            if name == skipped[0]:
                depth += 1
            elif name == skipped[1] and depth:
                depth -= 1
            elif name == skipped[1]:
                skipped = None
                parts.append(TAG_PLACEHOLDER)
            if token.token_type is TokenType.TEXT:
                parts.append("\n" * token.contents.count("\n"))
            continue
        if token.token_type is TokenType.TEXT:
            parts.append(token.contents)
            continue
        parts.append(PLACEHOLDER if token.token_type is TokenType.VAR else TAG_PLACEHOLDER)
        if name in TRANSLATED_BLOCKS:
            skipped = (name, TRANSLATED_BLOCKS[name])
        elif name in COMMENT_BLOCKS:
            skipped = (name, COMMENT_BLOCKS[name])
        elif (
            name == "block"
            and token.contents.split()[1:2]
            and (token.contents.split()[1] in in_attributes)
        ):
            skipped = ("block", "endblock")
        elif token.token_type in (TokenType.BLOCK, TokenType.VAR):
            literals += [(token.lineno, text) for text in _shown_literals(token.contents, name)]
    return "".join(parts), literals


def _shown_literals(contents: str, tag: str) -> Iterator[str]:
    """The string literals a tag or variable hands on to be shown, when they read as prose:
    ``key="…"`` arguments of ``{% include %}``/``{% with %}``, SHOWN_FILTERS' arguments."""
    if tag in ("translate", "trans"):
        return
    if tag in ("include", "with"):
        for argument in _WITH_ARGUMENT.finditer(contents):
            if reads_as_prose(argument.group("text")):
                yield argument.group("text")
    for argument in _FILTER_ARGUMENT.finditer(contents):
        if argument.group("filter") in SHOWN_FILTERS and reads_as_prose(argument.group("text")):
            yield argument.group("text")


class _HtmlAudit(HTMLParser):
    """Collects the unmarked text nodes and attributes of one template's HTML."""

    def __init__(self, file: str) -> None:
        super().__init__(convert_charrefs=True)
        self.file = file
        self.findings: list[Finding] = []
        self.skipping: list[str] = []  # the open elements whose content is left out

    def _note(self, line: int, text: str) -> None:
        self.findings.append(Finding(self.file, line, shown(text)))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name.lower(): value or "" for name, value in attrs}
        starts_skip = (
            tag in SKIPPED_ELEMENTS
            or tag in CODE_ELEMENTS
            or values.get("translate", "").strip().lower() == "no"
        )
        if not self.skipping and values.get("translate", "").strip().lower() != "no":
            self._attributes(tag, attrs, values)
        if tag in VOID_ELEMENTS:
            return
        if self.skipping and tag == self.skipping[-1]:
            self.skipping.append(tag)  # the same element nested: count it to find its end
        elif starts_skip and not self.skipping:
            self.skipping.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name.lower(): value or "" for name, value in attrs}
        if not self.skipping and values.get("translate", "").strip().lower() != "no":
            self._attributes(tag, attrs, values)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and tag == self.skipping[-1]:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        words = human_words(data)
        if words:
            line = self.getpos()[0] + data[: words[0].start()].count("\n")
            self._note(line, data)

    def _attributes(
        self, tag: str, attrs: list[tuple[str, str | None]], values: dict[str, str]
    ) -> None:
        read = set(TEXT_ATTRIBUTES)
        if tag == "input" and values.get("type", "").strip().lower() in BUTTON_INPUT_TYPES:
            read.add("value")
        if tag == "meta" and values.get("name", "").strip().lower() == "description":
            read.add("content")
        start_line = self.getpos()[0]
        raw = self.get_starttag_text() or ""
        for name, value in attrs:
            if name.lower() in read and value and human_words(value):
                at = re.search(rf"(?<![\w-]){re.escape(name)}\s*=", raw, re.IGNORECASE)
                line = start_line + (raw[: at.start()].count("\n") if at else 0)
                self._note(line, f'{name}="{value}"')


def _text_findings(file: str, text: str) -> list[Finding]:
    """A plain-text template's paragraphs that hold human words, one finding each."""
    findings = []
    start = 0
    for paragraph in [*_PARAGRAPH.finditer(text), None]:
        end = paragraph.start() if paragraph else len(text)
        chunk = text[start:end]
        words = human_words(chunk)
        if words:
            line = text[: start + words[0].start()].count("\n") + 1
            findings.append(Finding(file, line, shown(chunk)))
        if paragraph:
            start = paragraph.end()
    return findings


def unmarked_template_strings(
    path: str | Path,
    *,
    display: str | None = None,
    in_attributes: Iterable[str] | None = None,
) -> list[Finding]:
    """The unmarked strings of one template (HTML, or plain text when ``*.txt``), by line.

    ``in_attributes``: the names of blocks whose text is an attribute's value (a class
    name: ``{% block body_class %}wall{% endblock %}``), found in the templates this one
    extends (``audit_project`` reads them all); by default, in this one.
    """
    path = Path(path)
    file = display or str(path)
    source = path.read_text(encoding="utf-8")
    blocks = attribute_blocks(source) | frozenset(in_attributes or ())
    text, literals = _template_source(source, blocks)
    if path.suffix in TEXT_SUFFIXES:
        findings = _text_findings(file, text)
    else:
        parser = _HtmlAudit(file)
        parser.feed(text)
        parser.close()
        findings = parser.findings
    findings += [Finding(file, line, f'"{shown(literal)}"') for line, literal in literals]
    return sorted(findings)


# --- Python ----------------------------------------------------------------------------


def _name(node: ast.expr) -> str:
    """The called name: ``ServiceError`` for ``ServiceError`` and ``web.errors.ServiceError``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _owner(node: ast.expr) -> str:
    """``messages`` for ``messages.error``; empty for a plain name."""
    return _name(node.value) if isinstance(node, ast.Attribute) else ""


def literal_text(node: ast.AST | None) -> str | None:
    """The text of an unmarked literal (f-strings and literals built on included), with
    PLACEHOLDER for what is filled in; None for a name, a call, or anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
            else PLACEHOLDER
            for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return literal_text(node.left)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = literal_text(node.left), literal_text(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else PLACEHOLDER) + (
            right if right is not None else PLACEHOLDER
        )
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        return literal_text(node.func.value)
    if isinstance(node, ast.IfExp):
        branches = [literal_text(node.body), literal_text(node.orelse)]
        found = [branch for branch in branches if branch is not None]
        return " / ".join(found) if found else None
    return None


def _argument(call: ast.Call, index: int | None, *keywords: str) -> ast.expr | None:
    """The call's argument at position ``index`` (None: keyword only) or named ``keywords``."""
    for keyword in call.keywords:
        if keyword.arg in keywords:
            return keyword.value
    if index is None:
        return None
    positional = [arg for arg in call.args if not isinstance(arg, ast.Starred)]
    return positional[index] if len(positional) > index else None


class _PythonAudit(ast.NodeVisitor):
    """Collects one module's unmarked messages and labels."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.findings: list[Finding] = []

    def _check(self, node: ast.AST | None, what: str) -> None:
        text = literal_text(node)
        if text is not None and human_words(text):
            self.findings.append(Finding(self.file, node.lineno, f'{what}: "{shown(text)}"'))

    def _check_detail(self, node: ast.AST | None, what: str) -> None:
        """A message that may be a dict or a list of messages (DRF's ``detail``)."""
        if isinstance(node, ast.Dict):
            for value in node.values:
                self._check_detail(value, what)
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            for element in node.elts:
                self._check_detail(element, what)
        else:
            self._check(node, what)

    def visit_Call(self, node: ast.Call) -> None:
        name, owner = _name(node.func), _owner(node.func)
        if name in MESSAGE_EXCEPTIONS:
            self._check_detail(_argument(node, 0, "message", "detail"), name)
        elif name == "FieldError":
            self._check(_argument(node, None, "message"), "FieldError")
        elif owner == "messages" and name in MESSAGE_LEVELS:
            self._check(_argument(node, 1, "message"), f"messages.{name}")
        elif owner == "messages" and name == "add_message":
            self._check(_argument(node, 2, "message"), "messages.add_message")
        elif name in GETTEXT and node.args and isinstance(node.args[0], ast.JoinedStr):
            text = literal_text(node.args[0]) or ""
            self.findings.append(
                Finding(self.file, node.lineno, f'f-string inside {name}(): "{shown(text)}"')
            )
        for keyword in node.keywords:
            if keyword.arg in TEXT_KEYWORDS:
                self._check(keyword.value, f"{keyword.arg}=")
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "message":
                self._check(value, 'the "message" of a dict')
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        choices = any(_name(base) in CHOICES_BASES for base in node.bases)
        for statement in node.body:
            if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
                continue
            target = statement.targets[0]
            if not isinstance(target, ast.Name):
                continue
            if target.id in CLASS_TEXT_NAMES:
                self._check(statement.value, f"{node.name}.{target.id}")
            elif choices and (target.id == "__empty__" or not target.id.startswith("_")):
                self._choice(node.name, target.id, statement.value)
        self.generic_visit(node)

    def _choice(self, choices: str, member: str, value: ast.expr) -> None:
        what = f"{choices}.{member} label"
        if isinstance(value, ast.Tuple) and len(value.elts) >= 2:
            self._check(value.elts[-1], what)
        elif member == "__empty__":
            self._check(value, what)
        elif isinstance(value, ast.Constant):
            made = member.replace("_", " ").title()
            self.findings.append(
                Finding(self.file, value.lineno, f"{what}: none given, Django shows {made!r}")
            )


def unmarked_python_strings(path: str | Path, *, display: str | None = None) -> list[Finding]:
    """The unmarked messages and labels of one Python module, by line."""
    path = Path(path)
    audit = _PythonAudit(display or str(path))
    audit.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return sorted(set(audit.findings))


# --- the project -----------------------------------------------------------------------


def template_files(root: Path) -> list[Path]:
    """Every template: under ``templates/`` and each app's ``templates/``."""
    folders = [root / "templates", *(root / app / "templates" for app in APPS)]
    return sorted(
        path
        for folder in folders
        if folder.is_dir()
        for path in folder.rglob("*")
        if path.is_file() and path.suffix in TEMPLATE_SUFFIXES
    )


def python_files(root: Path) -> list[Path]:
    """The apps' Python, without tests and migrations."""
    return sorted(
        path
        for app in APPS
        if (root / app).is_dir()
        for path in (root / app).rglob("*.py")
        if not {"tests", "migrations"} & set(path.relative_to(root).parts)
        and not path.name.startswith("test_")
    )


def audit_project(root: str | Path) -> list[Finding]:
    """Every unmarked string of the project's templates and apps' Python, by file and line
    (files named from ``root``)."""
    root = Path(root)
    templates = template_files(root)
    blocks = frozenset().union(
        *(attribute_blocks(path.read_text(encoding="utf-8")) for path in templates)
    )
    findings: list[Finding] = []
    for path in templates:
        shown_as = path.relative_to(root).as_posix()
        findings += unmarked_template_strings(path, display=shown_as, in_attributes=blocks)
    for path in python_files(root):
        findings += unmarked_python_strings(path, display=path.relative_to(root).as_posix())
    return sorted(findings)


def report(findings: Iterable[Finding]) -> str:
    """The findings grouped by file, with a count per top-level folder and a total."""
    findings = sorted(findings)
    lines: list[str] = []
    current = None
    for finding in findings:
        if finding.file != current:
            current = finding.file
            lines += ["", f"{current}:"]
        lines.append(f"  {finding.line:>5}  {finding.text}")
    folders = Counter(finding.file.split("/", 1)[0] for finding in findings)
    template_folders = Counter(
        "/".join(finding.file.split("/")[:2]) + "/"
        if finding.file.count("/") > 1
        else "templates/*"
        for finding in findings
        if finding.file.startswith("templates/")
    )
    files = len({finding.file for finding in findings})
    lines += ["", "By top-level folder:"]
    lines += [f"  {folder:<24} {count:>5}" for folder, count in sorted(folders.items())]
    if template_folders:
        lines += ["Templates by folder:"]
        lines += [
            f"  {folder:<24} {count:>5}" for folder, count in sorted(template_folders.items())
        ]
    lines.append(f"Total: {len(findings)} unmarked strings in {files} files.")
    return "\n".join(lines).lstrip("\n")


# --- catalogues ------------------------------------------------------------------------

_NAMED = re.compile(r"%\((\w+)\)[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
_POSITIONAL = re.compile(r"%(?!\()[#0 +-]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa]")
_BRACES = re.compile(r"(?<!\{)\{([A-Za-z_]\w*|\d*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")


def placeholders(text: str, flags: Iterable[str] = ()) -> Counter[str]:
    """The placeholders of a msgid or msgstr: ``%(name)s`` always; ``%s``/``%d`` when the
    entry is python-format; ``{name}`` unless it is no-python-brace-format."""
    flags = set(flags)
    found: Counter[str] = Counter()
    unescaped = text.replace("%%", "")
    found.update(f"%({name})" for name in _NAMED.findall(unescaped))
    if "python-format" in flags:
        found.update("%" + match.group()[-1] for match in _POSITIONAL.finditer(unescaped))
    if "no-python-brace-format" not in flags:
        found.update(
            f"{{{name}}}" for name in _BRACES.findall(text.replace("{{", "").replace("}}", ""))
        )
    return found


def _plural_count(po) -> int | None:
    found = re.search(r"nplurals\s*=\s*(\d+)", po.metadata.get("Plural-Forms", ""))
    return int(found.group(1)) if found else None


def catalogue_problems(po_path: str | Path) -> list[str]:
    """What is wrong with one ``.po`` catalogue, one line each naming the entry's line:
    untranslated, fuzzy and obsolete entries, plural forms missing (every slot of
    ``Plural-Forms``' nplurals filled), and placeholders of the msgid missing from (or
    unknown to) the msgstr."""
    import polib

    po = polib.pofile(str(po_path))
    where = str(po_path)
    plurals = _plural_count(po)
    problems: list[str] = []
    for entry in po:
        if not entry.msgid:
            continue  # the header
        at = f"{where}:{entry.linenum}"
        said = shown(repr(entry.msgid), 80)
        if entry.obsolete:
            problems.append(f"{at}: obsolete (no longer in the source; remove it): {said}")
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"{at}: fuzzy (check the translation, then drop the flag): {said}")
            continue
        if entry.msgid_plural:
            problems += _plural_problems(entry, plurals, at, said)
            continue
        if not entry.msgstr:
            problems.append(f"{at}: untranslated: {said}")
            continue
        problems += _placeholder_problems(entry, entry.msgid, entry.msgstr, at, said, strict=True)
    return problems


def _plural_problems(entry, plurals: int | None, at: str, said: str) -> list[str]:
    slots = entry.msgstr_plural or {}
    filled = {int(index): text for index, text in slots.items() if text}
    wanted = plurals if plurals is not None else max(len(slots), 1)
    if not filled:
        return [f"{at}: untranslated (plural): {said}"]
    missing = [index for index in range(wanted) if index not in filled]
    if missing:
        forms = ", ".join(f"msgstr[{index}]" for index in missing)
        return [f"{at}: plural forms missing ({forms} of {wanted}): {said}"]
    problems = []
    for index in range(wanted):
        problems += _placeholder_problems(
            entry,
            entry.msgid_plural,
            filled[index],
            at,
            said,
            strict=index == wanted - 1,
            slot=f"msgstr[{index}]",
            also=entry.msgid,
        )
    return problems


def _placeholder_problems(
    entry,
    msgid: str,
    msgstr: str,
    at: str,
    said: str,
    *,
    strict: bool,
    slot: str = "msgstr",
    also: str = "",
) -> list[str]:
    """Placeholders of ``msgid`` missing from ``msgstr`` (when ``strict``: a plural's other
    forms may leave out the number, "ein Spieler"), and any it does not know (a KeyError
    when the page is made)."""
    flags = entry.flags
    wanted = placeholders(msgid, flags)
    known = wanted | placeholders(also, flags)
    given = placeholders(msgstr, flags)
    problems = []
    if strict:
        dropped = sorted((wanted - given).elements())
        if dropped:
            problems.append(f"{at}: {slot} drops {', '.join(dropped)}: {said}")
    unknown = sorted(set(given) - set(known))
    if unknown:
        problems.append(
            f"{at}: {slot} has placeholders the msgid lacks ({', '.join(unknown)}): {said}"
        )
    return problems


def missing_from_catalogue(po_path: str | Path, msgids: Iterable[str]) -> list[str]:
    """The ``msgids`` (in their order, once each) that the catalogue has no live entry for."""
    import polib

    po = polib.pofile(str(po_path))
    present = {entry.msgid for entry in po if not entry.obsolete}
    return [msgid for msgid in dict.fromkeys(msgids) if msgid not in present]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else Path(__file__).resolve().parent.parent
    findings = audit_project(root)
    print(report(findings) if findings else "No unmarked strings.")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
