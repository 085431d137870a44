"""The services pass of scripts/test runs only what uses the database, the database tests
and the topology in two parts, and an empty run still fails unless everything selected
was left to another pass or part: each decision of tests/tiers.py, over stand-ins for
collected tests, with no pytest process started (tests/deploy/test_test_passes.py collects
the real files end to end)."""

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import tiers

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Stand:
    """A collected test as the tiers read it: where it lives, its markers, its fixtures
    (the whole closure, as pytest lists it in ``fixturenames``)."""

    file: str
    markers: tuple[pytest.MarkDecorator, ...] = ()
    fixturenames: tuple[str, ...] = ()
    name: str = "test_it"
    marks: dict[str, pytest.Mark] = field(init=False)

    def __post_init__(self) -> None:
        self.marks = {decorator.mark.name: decorator.mark for decorator in self.markers}

    @property
    def path(self) -> Path:
        return ROOT / self.file

    @property
    def nodeid(self) -> str:
        return f"{self.file}::{self.name}"

    def get_closest_marker(self, name: str) -> pytest.Mark | None:
        return self.marks.get(name)


# The four kinds of test tests/deploy/test_test_passes.py collects, as pytest lists them
# (AUTOUSE: what every test here gets, pytest-django's database blocker and marker included).
AUTOUSE = (
    "_django_db_marker",
    "django_db_blocker",
    "django_test_environment",
    "fast_password_hashing",
    "fresh_rate_limits",
    "monkeypatch",
    "request",
    "settings",
)
PURE = Stand("tests/unit/rules_engine/test_registry.py", fixturenames=(*AUTOUSE, "echo_question"))
USES_THE_DATABASE = Stand(
    "tests/arbiter/test_demo.py",
    markers=(pytest.mark.django_db,),
    fixturenames=(*AUTOUSE, "client"),
)
BROWSER = Stand(
    "tests/e2e/test_csp.py",
    markers=(pytest.mark.e2e, pytest.mark.django_db(transaction=True)),
    fixturenames=(*AUTOUSE, "allow_orm_beside_playwright", "hall", "live_server", "page"),
)
TOPOLOGY = Stand(
    "tests/integration/test_load.py",
    markers=(pytest.mark.integration,),
    fixturenames=(*AUTOUSE, "caplog", "make_topology", "tmp_path", "topology_template"),
)
ALL = (PURE, USES_THE_DATABASE, BROWSER, TOPOLOGY)
PASSES = ("", "services", "services-db", "services-topology")  # "": the first pass


def files(items) -> set[str]:
    return {item.file for item in items}


@pytest.mark.parametrize(
    ("test_pass", "runs"),
    [
        (None, {PURE.file, USES_THE_DATABASE.file, BROWSER.file, TOPOLOGY.file}),
        ("services", {USES_THE_DATABASE.file, TOPOLOGY.file}),
        ("services-db", {USES_THE_DATABASE.file}),
        ("services-topology", {TOPOLOGY.file}),
    ],
)
def test_each_pass_keeps_its_own_tests(test_pass, runs):
    keep, left_out = tiers.split(ALL, test_pass or "")
    assert files(keep) == runs
    assert files(left_out) == files(ALL) - runs
    assert [item for item in ALL if item in keep or item in left_out] == list(ALL)
    # What conftest reports to pytest as deselected: something in every part of pass 2 only.
    assert bool(left_out) == (test_pass is not None)
    assert tiers.is_services_pass(test_pass or "") == (test_pass is not None)


def test_a_selection_left_to_another_part_passes_but_nothing_selected_still_fails():
    no_tests = pytest.ExitCode.NO_TESTS_COLLECTED
    keep, pure_only = tiers.split([PURE], "services")
    assert keep == [] and pure_only == [PURE]
    assert tiers.exit_status(no_tests, len(pure_only)) == pytest.ExitCode.OK
    notice = tiers.left_out_notice("services", len(pure_only))
    assert "selected tests run in another pass or part" in notice
    assert notice.startswith("services pass (services): all 1 ")
    keep, topology_only = tiers.split([TOPOLOGY], "services-db")
    assert keep == [] and topology_only == [TOPOLOGY]
    assert tiers.exit_status(no_tests, len(topology_only)) == pytest.ExitCode.OK
    # -k no_such_test: pytest deselected everything before the tiers saw anything.
    keep, nothing = tiers.split([], "services")
    assert tiers.exit_status(no_tests, len(nothing)) == 5


@pytest.mark.parametrize(
    "status",
    [pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED, pytest.ExitCode.INTERRUPTED],
)
def test_only_an_empty_selection_is_forgiven(status):
    """Tests that ran (and failed, or were interrupted) keep their status whatever was left
    to another pass."""
    assert tiers.exit_status(status, 3) == status
    assert tiers.exit_status(status, 0) == status


def test_the_first_pass_runs_browser_tests_after_every_other_test():
    """Named first on the command line, a browser test still runs last: a socket test
    after it would meet Playwright's event loop in the same thread."""
    items = [BROWSER, PURE, USES_THE_DATABASE, TOPOLOGY]
    tiers.browser_tests_last(items)
    order = [item.file for item in items]
    assert order[-1] == BROWSER.file and order.index(BROWSER.file) > order.index(PURE.file)
    assert order.index(BROWSER.file) > order.index(USES_THE_DATABASE.file)
    assert order == [PURE.file, USES_THE_DATABASE.file, TOPOLOGY.file, BROWSER.file]


@pytest.mark.parametrize("fixture", sorted(tiers.SERVICE_FIXTURES))
def test_a_service_fixture_keeps_a_test_in_the_database_part(fixture):
    """Asked for anywhere in the closure (a fixture's fixture), with no marker at all."""
    test = Stand("tests/web/test_pages.py", fixturenames=(*AUTOUSE, "hall", fixture))
    assert tiers.uses_services(test)
    assert [tiers.in_pass(test, part) for part in ("services", "services-db")] == [True, True]
    assert not tiers.in_pass(test, "services-topology")


@pytest.mark.parametrize("marker", tiers.SERVICE_MARKERS)
def test_a_service_marker_alone_keeps_a_test_in_pass_two(marker):
    test = Stand("tests/web/test_cache.py", markers=(getattr(pytest.mark, marker),))
    assert tiers.uses_services(test) and tiers.in_pass(test, "services")
    topology = marker == "integration"
    assert tiers.in_pass(test, "services-topology") == topology
    assert tiers.in_pass(test, "services-db") == (not topology)


def test_a_test_outside_tests_unit_without_services_runs_in_the_first_pass_only():
    test = Stand("tests/web/test_headers.py", fixturenames=AUTOUSE)
    assert not tiers.uses_services(test) and not tiers.is_unit(test)
    assert tiers.in_pass(test, "")
    assert not any(tiers.in_pass(test, part) for part in PASSES if part)


def test_a_browser_test_of_the_topology_is_still_left_to_the_first_pass():
    test = Stand("tests/e2e/test_whole.py", markers=(pytest.mark.e2e, pytest.mark.integration))
    assert [tiers.in_pass(test, part) for part in PASSES] == [True, False, False, False]


def test_tests_unit_may_not_use_a_service():
    """conftest refuses the whole run (a UsageError) naming every such test."""
    impure = Stand("tests/unit/test_sneaky.py", fixturenames=(*AUTOUSE, "db"), name="test_a")
    marked = Stand("tests/unit/pairing/test_b.py", markers=(pytest.mark.services,), name="t")
    outside = Stand("tests/web/test_c.py", fixturenames=("db",))
    assert tiers.impure_unit_tests([PURE, impure, outside, marked]) == [
        "tests/unit/test_sneaky.py::test_a",
        "tests/unit/pairing/test_b.py::t",
    ]
    assert tiers.impure_unit_tests(ALL) == []
