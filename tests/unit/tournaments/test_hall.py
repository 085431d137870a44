"""The hall display's choices and layout (tournaments.pages.hall_screen), on plain data."""

import pytest

from tournaments.pages import hall_screen as hall
from tournaments.pages.hall_screen import HallParams, Person, Seat
from web.errors import ServiceError

# --- what an auto screen shows ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("event_status", "round_status", "in_cut", "mode"),
    [
        ("registration", None, False, "welcome"),
        ("running", None, False, "welcome"),
        ("running", "paired", False, "pairings"),
        ("running", "running", False, "pairings"),
        ("running", "closed", False, "standings"),
        ("running", "paired", True, "bracket"),
        ("running", "running", True, "bracket"),
        ("running", "closed", True, "bracket"),
        ("finished", "closed", False, "standings"),
        ("finished", "closed", True, "bracket"),
    ],
)
def test_an_auto_screen_follows_the_event(event_status, round_status, in_cut, mode):
    assert hall.hall_mode(event_status, round_status, in_cut) == mode


@pytest.mark.parametrize("event_status", ["running", "finished"])
def test_once_the_final_has_a_winner_the_screen_shows_the_winner(event_status):
    assert hall.hall_mode(event_status, "closed", True, cut_won=True) == "winner"
    assert hall.hall_mode(event_status, "closed", True, cut_won=False) == "bracket"


def test_a_screen_asked_for_one_thing_shows_it_whatever_the_event_does():
    assert hall.screen_mode(HallParams(screen="clock"), "standings") == "clock"
    assert hall.screen_mode(HallParams(screen="auto"), "standings") == "standings"


# --- parameters ----------------------------------------------------------------------------


def test_parameters_are_read_case_blind_and_default_to_the_whole_alphabet():
    assert hall.read_params({}) == HallParams()
    params = hall.read_params({"screen": "Pairings", "from": "a", "to": "k", "sort": "SURNAME"})
    wanted = ("pairings", "A", "K", "surname")
    assert (params.screen, params.first, params.last, params.sort) == wanted
    assert params.has_range and not HallParams().has_range


def test_the_fragment_repeats_only_the_parameters_that_differ():
    assert HallParams().query() == {}
    assert hall.read_params({"from": "l", "seconds": "5"}).query() == {"from": "L", "seconds": "5"}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"screen": "tv"}, "screen"),
        ({"from": "AB"}, "from"),
        ({"to": "1"}, "to"),
        ({"to": "Ä"}, "to"),
        ({"from": "M", "to": "C"}, "from"),
        ({"sort": "rating"}, "sort"),
        ({"seconds": "1"}, "seconds"),
        ({"seconds": "٣"}, "seconds"),
        ({"seconds": "9999999999999999999999"}, "seconds"),
    ],
)
def test_a_parameter_it_cannot_use_is_named(query, field):
    with pytest.raises(ServiceError) as caught:
        hall.read_params(query)
    assert caught.value.field == field
    assert f"'{field}'" in caught.value.message


# --- names ---------------------------------------------------------------------------------


def test_surnames_come_from_the_account_or_the_last_word():
    assert hall.split_name("Ada Lovelace") == ("Lovelace", "Ada")
    assert hall.split_name("Ludwig van Beethoven", "van Beethoven") == ("van Beethoven", "Ludwig")
    assert hall.split_name("Prince") == ("Prince", "")
    assert hall.split_name("Ada Johnson", "son") == ("Johnson", "Ada")  # a word, not its end
    assert hall.split_name("  Grace   Hopper ") == ("Hopper", "Grace")


def test_names_are_filed_under_the_letter_a_reader_looks_for():
    assert hall.initial("Émile Zola") == "E"
    assert hall.initial("łukasz") == "L"
    assert hall.initial("Øystein") == "O"
    assert hall.initial("3am") == ""
    assert hall.initial("李小龙") == ""


def test_names_without_a_letter_go_on_the_screen_ending_at_z():
    assert hall.in_letter_range("", "L", "Z")
    assert not hall.in_letter_range("", "A", "K")
    assert hall.in_letter_range("K", "A", "K") and not hall.in_letter_range("L", "A", "K")


def seats() -> list[Seat]:
    return [
        Seat(1, Person("Grace Hopper"), Person("Ada Lovelace"), extension_minutes=3),
        Seat(2, Person("alan Turing"), Person("Émile Borel")),
        Seat(None, Person("Zed Zulu"), None, is_bye=True),
        Seat(3, Person("李小龙"), Person("Barbara Liskov"), has_result=True),
    ]


def test_every_player_has_a_row_with_their_table_and_opponent_in_name_order():
    rows = hall.pairing_rows(seats())
    assert [r.shown for r in rows] == [
        "Ada Lovelace",
        "alan Turing",
        "Barbara Liskov",
        "Émile Borel",
        "Grace Hopper",
        "Zed Zulu",
        "李小龙",
    ]
    ada = next(r for r in rows if r.shown == "Ada Lovelace")
    assert (ada.table, ada.opponent, ada.extension_minutes) == (1, "Grace Hopper", 3)
    bye = next(r for r in rows if r.shown == "Zed Zulu")
    assert (bye.is_bye, bye.table, bye.opponent) == (True, None, "")
    assert next(r for r in rows if r.shown == "李小龙").has_result


def test_sorted_by_surname_the_rows_read_surname_first():
    rows = hall.pairing_rows(seats(), sort="surname")
    shown = [r.shown for r in rows]
    assert shown[:4] == ["Borel, Émile", "Hopper, Grace", "Liskov, Barbara", "Lovelace, Ada"]
    assert shown[-1] == "李小龙"  # no letter: last
    assert [r.letter for r in rows][:4] == ["B", "H", "L", "L"]


def test_a_letter_range_keeps_the_names_filed_in_it():
    rows = hall.pairing_rows(seats())
    first = [r.shown for r in hall.letter_range_filter(rows, "A", "F")]
    rest = [r.shown for r in hall.letter_range_filter(rows, "G", "Z")]
    assert first == ["Ada Lovelace", "alan Turing", "Barbara Liskov", "Émile Borel"]
    assert rest == ["Grace Hopper", "Zed Zulu", "李小龙"]
    assert sorted(first + rest) == sorted(r.shown for r in rows)


# --- pages ---------------------------------------------------------------------------------


def test_rows_that_fit_are_one_page_and_more_are_cut_down_then_across():
    rows = hall.pairing_rows(
        Seat(t, Person(f"{chr(65 + t % 26)}{t:03d} A"), Person(f"{chr(65 + t % 26)}{t:03d} B"))
        for t in range(60)
    )
    assert len(rows) == 120
    pages = hall.paged(rows, per_column=13, columns=2)
    assert [p.number for p in pages] == [1, 2, 3, 4, 5]
    assert all(p.of == 5 for p in pages)
    assert [len(c) for c in pages[0].columns] == [13, 13]
    assert [len(c) for c in pages[-1].columns] == [8, 8]  # shared, not 13 and 3
    flat = [row for page in pages for column in page.columns for row in column]
    assert flat == rows
    assert pages[0].letters == f"{rows[0].letter}{hall.DASH}{rows[25].letter}"
    assert len(hall.paged(rows[:26], 13, 2)) == 1
    assert hall.paged([], 13, 2) == []


def test_a_short_round_shares_its_rows_between_the_columns_to_fill_the_width():
    rows = hall.pairing_rows(
        Seat(t, Person(f"Player {2 * t:02d}"), Person(f"Player {2 * t + 1:02d}")) for t in range(6)
    )
    [page] = hall.paged(rows, per_column=13, columns=2)
    assert [len(c) for c in page.columns] == [6, 6]
    assert [row for column in page.columns for row in column] == rows  # down, then across
    [alone] = hall.paged(rows[:1], per_column=13, columns=2)
    assert [len(c) for c in alone.columns] == [1]


LONG = "Yukihiro Matsumoto-Fairweather"


def test_short_names_keep_the_type_read_from_five_metres():
    names = ["Ada Allen", "Grace Hopper", "Alan Turing"] * 9
    assert hall.type_step(names[:26], names[:26], columns=2, rows=13) <= 1  # 3.8vh: 41 px


def test_the_type_fits_the_pages_longest_name_in_two_lines_at_most():
    names = ["Ada Allen", "Björn Ödegaard-Müller", "山田 由紀宏", LONG]
    step = hall.type_step(names, names, columns=2, rows=6)
    assert step > 0  # smaller than short names get, but...
    size = hall.TYPE_SIZES[step]
    assert size >= 2.7  # ...still large on a wall: 29 px and more on 1080 lines
    # the longest name alone sets the page's size: without it the page is larger
    assert hall.type_step(names[:3], names[:3], columns=2, rows=6) < step


def test_a_line_breaks_at_spaces_and_hyphens_and_between_wide_characters():
    assert hall.lines_needed("Ada Allen", 20) == 1
    assert hall.lines_needed("Matsumoto-Fairweather", 8) == 2  # after the hyphen
    assert hall.lines_needed("山田由紀宏", 2.5) == 3  # two wide characters a line
    assert hall.lines_needed("Supercalifragilistic", 4) > 2  # never cut inside a word


def test_a_long_event_name_gets_smaller_type_not_an_ellipsis():
    assert hall.title_step("Harbour Open") == 0
    long_title = "第3回 イアクタ選手権 東京・池袋サンシャインシティ大会 2026 春季オープン"
    step = hall.title_step(long_title)
    assert 0 < step < len(hall.TITLE_SIZES) - 1
    assert hall.lines_needed(long_title, 87 / hall.TITLE_SIZES[step]) <= 2


def test_standings_pages_are_labelled_by_rank():
    rows = [{"rank": n} for n in range(1, 31)]
    pages = hall.paged(rows, 13, 2, label=hall.ranks_of)
    assert [p.letters for p in pages] == ["1\N{EN DASH}26", "27\N{EN DASH}30"]


def test_a_page_needs_room_for_a_row():
    with pytest.raises(ValueError):
        hall.paged([1], per_column=0)


# --- the bracket and the clock -------------------------------------------------------------


def test_the_bracket_shows_the_rounds_still_to_come_as_empty_slots():
    columns = hall.bracket_columns(8, [["qf1", "qf2", "qf3", "qf4"]])
    assert [c["title"] for c in columns] == ["Quarterfinals", "Semifinals", "Final"]
    assert [len(c["slots"]) for c in columns] == [0, 2, 1]
    assert columns[0]["matches"] == ["qf1", "qf2", "qf3", "qf4"]
    done = hall.bracket_columns(4, [["sf1", "sf2"], ["f"]])
    assert [(c["title"], len(c["slots"])) for c in done] == [("Semifinals", 0), ("Final", 0)]
    assert hall.bracket_columns(16, [])[0]["title"] == "Top 16"


def test_the_clock_reads_as_the_script_writes_it():
    assert hall.clock_text(42 * 60 + 7.4) == "42:07"
    assert hall.clock_text(0) == "0:00"
    assert hall.clock_text(-90) == "+1:30"
