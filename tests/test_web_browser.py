"""End to end in a real browser: Debian's Chromium, driven by Playwright (pointed at the
installed browser; nothing is downloaded), against a real `cardrules serve`.  Two
people in two browser sessions make and join one room by its name, start it, and play
a full round with two bots: one of `oh-hell`, and the first round of `shanghai-isra`
(its `junior` mode; a whole game of seven rounds clicked through is minutes long).
A screenshot of each final table is kept in tests/artifacts/ (git-ignored).

Skipped, saying why, only when no Chromium is found and CARDRULES_REQUIRE_BROWSER is
not set (`scripts/test` sets it when it runs as root, so CI fails without a browser).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the tests then skip (or fail, when a browser is required)
    PlaywrightError = Exception  # type: ignore[misc,assignment]

pytestmark = pytest.mark.slow  # started first in a parallel run (tests/conftest.py)

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def _chromium() -> str | None:
    for candidate in (os.environ.get("CARDRULES_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def _need_browser() -> tuple[str, object]:
    chromium = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    missing = ("no Chromium found (apt-get install chromium)" if chromium is None else
               "the playwright package is not installed" if sync_playwright is None else None)
    if missing:
        if os.environ.get("CARDRULES_REQUIRE_BROWSER"):
            pytest.fail(f"CARDRULES_REQUIRE_BROWSER is set but {missing}")
        pytest.skip(f"{missing}; set CARDRULES_REQUIRE_BROWSER=1 to make this a failure")
    return chromium, sync_playwright  # type: ignore[return-value]


@pytest.fixture(scope="module")
def _chromium_started():
    """One Chromium for the module's tests (in each worker of a parallel run): starting
    one takes a second or two, and each test has contexts of its own in it."""
    chromium, sync_playwright = _need_browser()
    with sync_playwright() as p:  # type: ignore[operator]
        started = p.chromium.launch(executable_path=chromium, args=ARGS)
        yield started
        started.close()


@pytest.fixture
def browser(_chromium_started):
    """The module's Chromium, with every page a test opened closed after it (a page left
    open would go on playing its room beside the next test)."""
    yield _chromium_started
    for context in _chromium_started.contexts:
        context.close()


@pytest.fixture
def served(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "cardrules", "serve", "--port", str(port), "--data",
                               str(tmp_path / "rooms"), "--bot-delay", "0.02"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 30
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            break
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                server.kill()
                raise AssertionError("the server did not start: " + server.stderr.read().decode()[-500:])
            time.sleep(0.1)
    yield url
    server.terminate()
    _, stderr = server.communicate(timeout=10)
    assert b"Traceback" not in stderr and b"internal error" not in stderr, stderr.decode()[-2000:]


def _open_room(browser, url: str, ruleset: str, mode: str | None, last_seat: str = "bot"):
    """Ann makes the room (on a phone-sized screen), Bob joins it from its share link."""
    ann = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    bob = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))
        # the server's Content-Security-Policy allows only what the page loads from itself
        page.on("console", lambda message: errors.append(message.text)
                if "Content Security Policy" in message.text else None)
    ann.goto(url)
    ann.fill("#your-name", "Ann")
    ann.fill("#room-name", "Games Night")
    ann.click("#join")
    ann.wait_for_selector("#create:not([hidden])")
    ann.select_option("#ruleset", ruleset)
    ann.select_option("#players", "4")
    if mode:
        ann.select_option("#mode", mode)
    ann.select_option("#seat-kind-1", "human")
    ann.select_option("#seat-kind-2", "bot")
    ann.select_option("#seat-kind-3", last_seat)
    ann.click("#make-room")
    ann.wait_for_selector("#lobby:not([hidden])")
    share = ann.get_attribute("#share", "href")
    assert share and "Games%20Night" in share
    bob.goto(share)
    assert bob.input_value("#room-name") == "Games Night"
    bob.fill("#your-name", "Bob")
    bob.click("#join")
    bob.wait_for_selector("#lobby:not([hidden])")
    ann.wait_for_function("document.querySelector('#lobby-seats').textContent.includes('Bob')")
    assert bob.locator("#start").is_hidden()  # only the room's maker starts it
    ann.click("#start")
    for page in (ann, bob):
        page.wait_for_selector("#table:not([hidden])")
    return ann, bob, errors


def _click(locator) -> None:
    """Click, unless the table changed under the pointer (a bot moved): then the loop
    looks again, as a person would."""
    try:
        locator.click(timeout=1500)
    except PlaywrightError:
        pass


def _round_over(page) -> bool:
    return page.locator("#sheet tr").count() > 2  # header, round 1, totals


def _wait_text(page, selector: str, text: str, seconds: float = 15) -> None:
    """Wait until ``selector``'s text holds ``text`` (read from Python: the page's
    Content-Security-Policy allows no script from the test)."""
    deadline = time.time() + seconds
    while text not in (page.text_content(selector) or ""):
        assert time.time() < deadline, f"{selector} never said {text!r}: {page.text_content(selector)!r}"
        page.wait_for_timeout(50)


def _next_deal(page) -> bool:
    """Look at a finished round's summary and say "Next deal", if it is waiting for this
    page; whether it was."""
    button = page.locator("#next-deal:not([disabled])")
    if button.count() and page.locator("#round-end:not([hidden])").count():
        assert "is over" in (page.text_content("#round-end") or "")
        _click(button)
        return True
    return False


def _my_turn(page) -> bool:
    return (page.text_content("#prompt") or "").startswith("Your turn")


def test_two_people_and_two_bots_play_a_round_of_oh_hell(browser, served):
    ann, bob, errors = _open_room(browser, served, "oh-hell", None)
    ann.fill("#chat-text", "good luck <b>all</b>")  # the chat: plain text, on every page of the room
    ann.click("#chat-form button")
    _wait_text(bob, "#chat-lines", "Ann: good luck <b>all</b>")
    assert bob.locator("#chat-lines b").count() == 1  # the speaker's name only: the text stays text
    bob.click("#reactions button[aria-label='react 👏']")  # a reaction reaches the other page
    ann.wait_for_selector("#chat-lines li.reaction:has-text('👏')", timeout=10000)
    # each taken trick is swept to its winner on Ann's table; Bob has switched animations off
    for page in (ann, bob):
        page.evaluate("""() => { window.sweeps = 0; new MutationObserver((records) => {
            for (const r of records) for (const n of r.addedNodes)
              if (n.classList && n.classList.contains('taken')) window.sweeps++;
          }).observe(document.body, { childList: true, subtree: true }); }""")
    bob.uncheck("#setting-motion")
    checked_refusal = False
    trick_seen = False
    by_keyboard = tries = 0  # cards Bob plays with the keyboard alone: the card focused, then Enter
    deadline = time.time() + 120
    while not _round_over(ann) and time.time() < deadline:
        for page in (ann, bob):
            if not _my_turn(page):
                continue
            if not trick_seen and page.locator("#seats .on-table .card").count() >= 2:
                trick_seen = True  # the trick lies in the middle of the table, a card before each player
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "oh-hell-trick.png"), full_page=False)
            bids = page.locator("#buttons button[data-move]")
            cards = page.locator("#hand .card.playable")
            if by_keyboard < 2 and tries < 6 and page is bob and cards.count() and not bids.count():
                tries += 1
                held = page.locator("#hand .card").count()
                try:
                    cards.first.focus(timeout=1500)  # a playable card is a control: Tab reaches it
                    page.keyboard.press("Enter")
                except PlaywrightError:
                    continue  # the table changed under the key (a bot moved): look again
                until = time.time() + 5
                while page.locator("#hand .card").count() == held and time.time() < until:
                    page.wait_for_timeout(50)
                if page.locator("#hand .card").count() == held - 1:  # the card left the hand: played
                    by_keyboard += 1
                continue
            if bids.count():
                _click(bids.first)
            elif cards.count():
                blocked = page.locator("#hand .card:not(.playable)")
                if not checked_refusal and blocked.count():
                    _click(blocked.first)  # not sent: the page says why
                    page.wait_for_function("document.querySelector('#notice').textContent.length > 0")
                    assert "follow" in page.text_content("#notice")
                    checked_refusal = True
                _click(cards.first)
            page.wait_for_timeout(30)
    assert _round_over(ann), "the round did not end in time"
    assert trick_seen
    assert ann.evaluate("window.sweeps") > 0 and bob.evaluate("window.sweeps") == 0
    assert by_keyboard == 2, "two of Bob's cards played by the keyboard"
    for page in (ann, bob):
        page.wait_for_function("document.querySelectorAll('#sheet tr').length > 2")
        row = page.locator("#sheet tr").nth(1)
        assert row.locator("td").count() == 5  # the round, then bid/taken and points for each seat
    assert ann.locator("#seats .seat").count() == 4
    # the round's end stays on both tables until both have looked; then the next deal
    for page in (ann, bob):
        page.wait_for_selector("#round-end:not([hidden]) #next-deal")
    ann.click("#next-deal")
    _wait_text(ann, "#round-end", "Waiting for Bob to look")
    assert bob.locator("#round-end:not([hidden]) #next-deal:not([disabled])").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "oh-hell-round-end.png"), full_page=True)
    bob.click("#next-deal")
    for page in (ann, bob):
        page.wait_for_selector("#round-end", state="hidden")
        _wait_text(page, "#heading", "ound 2")
    ann.screenshot(path=str(ARTIFACTS / "oh-hell-ann-phone.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "oh-hell-bob.png"), full_page=True)
    assert errors == []


def test_two_people_and_two_bots_play_the_first_round_of_shanghai_isra(browser, served):
    ann, bob, errors = _open_room(browser, served, "shanghai-isra", "junior")
    assert "Contract" in ann.text_content("#panels")
    melds_seen = 0
    built_checked = False
    deadline = time.time() + 150
    while not _round_over(ann) and time.time() < deadline:
        melds_seen = max(melds_seen, ann.locator("[data-panel='melds'] .meld").count())
        for page in (ann, bob):
            if not _my_turn(page):
                continue
            cards = page.locator("#hand .card.discardable")
            if not built_checked and page is ann and cards.count() >= 3 and \
                    page.locator("button:has-text('Add as a meld')").count():
                # at Ann's first turn of play (whatever else she could do: a round may end
                # before she has a turn with nothing to meld), a meld being built: its
                # cards marked in the hand, then taken back
                _click(cards.nth(0))
                _click(cards.nth(1))
                _click(page.locator("button:has-text('Add as a meld')"))
                if page.locator("#hand .card.grouped").count() == 2:
                    assert page.locator("#hand .card[data-group='1'] .badge").count() == 2
                    assert page.locator("#composers .groups li").count() == 1
                    # the server says at once that two cards make no meld
                    page.wait_for_selector("#composers .groups .check.bad", timeout=5000)
                    assert page.text_content("#composers .groups .check.bad").startswith("✗")
                    _click(page.locator("#composers button.remove"))
                    assert page.locator("#hand .card.grouped").count() == 0
                    built_checked = True
                continue
            for choice in ("#buttons button[data-move^='meld']", "#buttons button[data-move^='layoff']",
                           "#buttons button[data-move='draw']", "#buttons button[data-move='pass']",
                           "#buttons button[data-move='allow']"):
                button = page.locator(choice)
                if button.count():
                    _click(button.first)
                    break
            else:
                if cards.count():
                    _click(cards.last)  # pick a card, then discard it
                    _click(page.locator("button[data-composer='Discard']"))
                elif page.locator("#buttons button[data-move]").count():
                    _click(page.locator("#buttons button[data-move]").first)
            page.wait_for_timeout(30)
    assert _round_over(ann), "the round did not end in time"
    assert melds_seen > 0  # someone went down: melds were on the table
    assert built_checked
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "shanghai-isra-ann-phone.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "shanghai-isra-bob.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("ruleset,rounds", [("skull-king", 10), ("wizard", 3)])
def test_a_pack_of_its_own_plays_in_the_browser_with_a_bot_and_a_search_seat(browser, served, ruleset, rounds):
    """Skull King whole (its 10 rounds) and Wizard's first three rounds: the cards show as
    the pack says (symbols and names, not codes), the Tigress is played by a button for
    each of its roles, and the score sheet fills in round by round."""
    ann, bob, errors = _open_room(browser, served, ruleset, None, last_seat="search")
    faces_checked = 0
    summaries = 0  # rounds whose end a page looked at before the next deal
    deadline = time.time() + 240
    while ann.locator("#sheet tr").count() < rounds + 2 and time.time() < deadline:
        for page in (ann, bob):
            if _next_deal(page):
                summaries += 1
                if summaries == 1:
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / f"{ruleset}-round-end.png"), full_page=True)
                continue
            if not _my_turn(page):
                continue
            buttons = page.locator("#buttons button[data-move]")
            cards = page.locator("#hand .card.playable")
            if faces_checked < 3 and page.locator("#hand .card").count():
                shown = page.locator("#hand .card").first
                code, text = shown.get_attribute("data-card"), shown.text_content()
                if code and text:
                    assert text != code or code in ("N", "Z"), (code, text)  # a face, not the record's code
                    faces_checked += 1
            if buttons.count():
                _click(buttons.first)
            elif cards.count():
                _click(cards.first)
            page.wait_for_timeout(20)
    rows = ann.locator("#sheet tr").count()
    assert rows >= rounds + 2, f"only {rows - 2} rounds were played in time"  # header, rounds, totals
    assert summaries >= 2 * (rounds - 1) - 1  # each of the two people saw every round's end but the last
    if ruleset == "skull-king":
        ann.wait_for_function("document.querySelector('#heading').textContent.includes('over')")
    assert faces_checked
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / f"{ruleset}-ann-phone.png"), full_page=True)
    assert errors == []


def test_five_crowns_plays_in_the_browser_with_its_own_pack(browser, served):
    """The first three hands of Five Crowns (a rummy pack of its own, going out by melding,
    the last turns): the stars show by their symbol, and the score sheet fills in. (Bots in
    the other seats: a search seat at the web table is played by the Skull King, Wizard and
    Knockout Whist tests, and in Five Crowns by tests/test_five_crowns.py; here it made the
    test take 10 to 55 s by the deal.)"""
    ann, bob, errors = _open_room(browser, served, "five-crowns", None)
    assert "no contract: go out by melding every card" in ann.text_content("#panels")
    stars_seen = False
    deadline = time.time() + 240
    while ann.locator("#sheet tr").count() < 3 + 2 and time.time() < deadline:
        for page in (ann, bob):
            stars_seen = stars_seen or "★" in (page.text_content("#hand") or "")
            if _next_deal(page):  # each hand's end, looked at before the next deal
                continue
            if not _my_turn(page):
                continue
            for choice in ("#buttons button[data-move^='meld']", "#buttons button[data-move='draw']"):
                button = page.locator(choice)
                if button.count():
                    _click(button.first)
                    break
            else:
                cards = page.locator("#hand .card.discardable")
                if cards.count():
                    _click(cards.last)  # pick a card, then discard it
                    _click(page.locator("button[data-composer='Discard']"))
                elif page.locator("#buttons button[data-move]").count():
                    _click(page.locator("#buttons button[data-move]").first)
            page.wait_for_timeout(30)
    rows = ann.locator("#sheet tr").count()
    assert rows >= 3 + 2, f"only {rows - 2} hands were played in time"
    assert stars_seen or "★" in (ann.text_content("#panels") or "")
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "five-crowns-ann-phone.png"), full_page=True)
    assert errors == []


def test_knockout_whist_plays_to_its_end_in_the_browser(browser, served):
    """Knockout Whist whole, two people, a bot and a search seat: a person who took most
    tricks names the trump with a button, a person knocked out has no more turns and the
    game goes on without them, the table names who sits a hand out, and the game ends with
    one player left."""
    ann, bob, errors = _open_room(browser, served, "knockout-whist", None, last_seat="search")
    deadline = time.time() + 240
    sitting_out_shown = knocked_out = False
    while "the game is over" not in (ann.text_content("#heading") or "") and time.time() < deadline:
        for page in (ann, bob):
            sitting_out_shown = sitting_out_shown or "Sitting out" in (page.text_content("#table") or "")
            for line in (page.text_content("#log") or "").splitlines():
                knocked_out = knocked_out or "sits this hand out" in line
            if _next_deal(page) or not _my_turn(page):
                continue
            buttons = page.locator("#buttons button[data-move]")
            cards = page.locator("#hand .card.playable")
            if buttons.count():
                _click(buttons.first)
            elif cards.count():
                _click(cards.first)
            page.wait_for_timeout(20)
    assert "the game is over" in (ann.text_content("#heading") or ""), "the game did not end in time"
    rounds = ann.locator("#sheet tr").count() - 2  # header and totals
    assert 1 <= rounds <= 7
    # the log said a seat sat a hand out: the table showed it too
    assert sitting_out_shown or not knocked_out
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "knockout-whist-ann-phone.png"), full_page=True)
    assert errors == []


def test_the_turn_clock_counts_down_warns_and_a_bot_moves_for_an_idle_player(browser, served):
    """A room made with a 30-second turn clock: the page counts the seconds down for the
    person in turn, warns in the last ten, and when the time is up a bot makes that move
    for them (the person is still at the table: the clock is for the idle, not the gone)."""
    ann = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    errors: list[str] = []
    ann.on("pageerror", lambda error: errors.append(str(error)))
    ann.goto(served)
    ann.fill("#your-name", "Ann")
    ann.fill("#room-name", "Clocked")
    ann.click("#join")
    ann.wait_for_selector("#create:not([hidden])")
    ann.select_option("#ruleset", "oh-hell")
    ann.select_option("#players", "3")
    ann.select_option("#clock", "30")
    ann.click("#make-room")
    ann.wait_for_selector("#lobby:not([hidden])")
    ann.click("#start")
    ann.wait_for_selector("#table:not([hidden])")
    ann.wait_for_selector("#prompt:has-text('Your turn')", timeout=20000)
    first = ann.text_content("#clock-left") or ""
    assert first.startswith("you have") and "s for this move" in first
    ann.wait_for_selector("#clock-left.warning", timeout=30000)  # the last ten seconds
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "turn-clock-warning.png"), full_page=False)
    ann.wait_for_selector("#log li:has-text('time ran out')", timeout=30000)
    assert "Ann's time ran out: a bot moves for them" in (ann.text_content("#log") or "")
    assert errors == []


# Counts the tones the page starts instead of playing them (before the page's own script
# runs; the page makes its one tone with an oscillator, and fetches no sound file).
_COUNT_TONES = """
window.__tones = 0;
class CountingAudio {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { return { frequency: {}, connect: (n) => n, start: () => { window.__tones++; }, stop() {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n }; }
}
window.AudioContext = CountingAudio;
"""


def test_a_person_alone_with_three_bots_plays_a_whole_game_of_oh_hell_by_tap_and_drag(browser, served):
    """A new user's whole game: Ann makes a room of oh-hell with three bots and plays its
    19 rounds with the mouse alone (a bid button, a card tapped or dragged onto the
    table, "Next deal" after each round); the sound on her turn is off until she turns it
    on, and then plays when her turn comes."""
    ann = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    errors: list[str] = []
    ann.on("pageerror", lambda error: errors.append(str(error)))
    ann.add_init_script(_COUNT_TONES)
    elsewhere: list[str] = []  # every request stays on the server: faces and sounds are made in the page
    ann.on("request", lambda request: None if request.url.startswith(served.replace("http", "ws", 1))
           or request.url.startswith(served) else elsewhere.append(request.url))
    ann.goto(served)
    ann.fill("#your-name", "Ann")
    ann.fill("#room-name", "Solo")
    ann.click("#join")
    ann.wait_for_selector("#create:not([hidden])")
    ann.select_option("#ruleset", "oh-hell")
    ann.select_option("#players", "4")
    for seat in (1, 2, 3):
        ann.select_option(f"#seat-kind-{seat}", "bot")
    ann.click("#make-room")
    ann.wait_for_selector("#lobby:not([hidden])")
    ann.click("#start")
    ann.wait_for_selector("#table:not([hidden])")
    assert not ann.is_checked("#setting-sound")  # off by default
    dragged = turns = 0
    sound_on_at = None
    deadline = time.time() + 420
    while "the game is over" not in (ann.text_content("#heading") or "") and time.time() < deadline:
        if _next_deal(ann) or not _my_turn(ann):
            ann.wait_for_timeout(20)
            continue
        turns += 1
        if turns == 2:  # each card's face is an SVG drawn in the page, no image fetched
            faces = ann.locator("#hand .card svg.face").count()
            assert faces and faces == ann.locator("#hand .card").count()
            assert ann.locator("img").count() == 0
        if turns == 6:  # a few turns in silence; then the sound goes on (it sounds once, as a check)
            assert ann.evaluate("window.__tones") == 0
            ann.check("#setting-sound")
            sound_on_at = ann.evaluate("window.__tones")
            assert sound_on_at == 1
        bids = ann.locator("#buttons button[data-move]")
        cards = ann.locator("#hand .card.playable")
        if bids.count():
            _click(bids.first)
        elif cards.count() and dragged < 3:
            held = ann.locator("#hand .card").count()
            try:
                cards.first.drag_to(ann.locator("#seats .felt"), timeout=1500)
            except PlaywrightError:
                continue  # the table changed under the pointer (a bot moved): look again
            until = time.time() + 5
            while ann.locator("#hand .card").count() == held and time.time() < until:
                ann.wait_for_timeout(50)
            dragged += ann.locator("#hand .card").count() == held - 1
        elif cards.count():
            _click(cards.first)
        ann.wait_for_timeout(20)
    assert "the game is over" in (ann.text_content("#heading") or ""), "the game did not end in time"
    assert ann.locator("#sheet tr").count() == 19 + 2  # every round on the score sheet (header, totals)
    assert ann.locator("#final:not([hidden]) #standings li").count() == 4
    assert dragged == 3, "three cards played by dragging them onto the table"
    assert sound_on_at is not None and ann.evaluate("window.__tones") > sound_on_at + 10  # a tone a turn
    assert elsewhere == []
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "oh-hell-whole-game.png"), full_page=True)
    assert errors == []


_UNNAMED_CONTROLS = """() => {
  const named = (el) => (el.getAttribute('aria-label') || '').trim() || (el.getAttribute('aria-labelledby') || '')
    || (el.labels && el.labels.length && [...el.labels].some((l) => l.textContent.trim()))
    || (el.getAttribute('title') || '').trim() || (el.tagName !== 'INPUT' && el.textContent.trim())
    || (el.tagName === 'INPUT' && ['submit', 'button'].includes(el.type) && el.value.trim());
  const shown = (el) => el.offsetParent !== null || el.getClientRects().length > 0;
  return [...document.querySelectorAll('button, input, select, textarea, a[href], [role=button], [tabindex]')]
    .filter((el) => shown(el) && el.tabIndex >= 0 && !named(el))
    .map((el) => el.outerHTML.slice(0, 120));
}"""


def test_every_control_has_a_name_a_reader_says_and_the_menus_speak_a_card_players_words(browser, served):
    """The rules menu is in the page itself (there with scripts off), the seat menus say
    "Bot" and "Strong bot (thinks longer)", and every control a keyboard reaches, on the
    front page and at the table in the middle of a round, has a name a screen reader says."""
    bare = browser.new_context(java_script_enabled=False).new_page()
    bare.goto(served)
    assert bare.locator("#ruleset option").count() >= 70  # every bundled ruleset, with no script run
    ann = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    ann.goto(served)
    assert ann.evaluate(_UNNAMED_CONTROLS) == []
    ann.fill("#your-name", "Ann")
    ann.fill("#room-name", "Names")
    ann.click("#join")
    ann.wait_for_selector("#create:not([hidden])")
    ann.select_option("#ruleset", "shanghai-isra")
    kinds = ann.locator("#seat-kind-1 option").all_text_contents()
    assert "Bot" in kinds and "Strong bot (thinks longer)" in kinds and not any("(bot)" in k for k in kinds)
    assert ann.evaluate(_UNNAMED_CONTROLS) == []
    ann.select_option("#players", "4")
    for seat in (1, 2, 3):
        ann.select_option(f"#seat-kind-{seat}", "bot")
    ann.click("#make-room")
    ann.wait_for_selector("#lobby:not([hidden])")
    ann.click("#start")
    ann.wait_for_selector("#table:not([hidden])")
    looked = 0
    deadline = time.time() + 60
    while looked < 3 and time.time() < deadline:  # at her turns: the draw, the discard, the hand
        if _my_turn(ann):
            assert ann.evaluate(_UNNAMED_CONTROLS) == []
            looked += 1
            buttons = ann.locator("#buttons button[data-move]")
            cards = ann.locator("#hand .card.discardable")
            if buttons.count():
                _click(buttons.first)
            elif cards.count():
                _click(cards.last)
                _click(ann.locator("button[data-composer='Discard']"))
        ann.wait_for_timeout(30)
    assert looked == 3


def _alone_with_bots(browser, url: str, ruleset: str, players: int, room: str, kinds: tuple[str, ...] = ()):
    """Ann makes a room of ``ruleset`` with bots in every other seat (or ``kinds``) and starts it."""
    ann = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    ann.goto(url)
    ann.fill("#your-name", "Ann")
    ann.fill("#room-name", room)
    ann.click("#join")
    ann.wait_for_selector("#create:not([hidden])")
    ann.select_option("#ruleset", ruleset)
    ann.select_option("#players", str(players))
    for seat in range(1, players):
        ann.select_option(f"#seat-kind-{seat}", kinds[seat - 1] if kinds else "bot")
    ann.click("#make-room")
    ann.wait_for_selector("#lobby:not([hidden])")
    ann.click("#start")
    ann.wait_for_selector("#table:not([hidden])")
    return ann


def _tap_along(page, done, seconds: float, look=lambda page: None, last_button: bool = False) -> None:
    """Play by taps until ``done(page)`` or ``seconds`` pass: "Next deal" at a round's end,
    and at each turn the first (or last) move button, else the first playable card;
    ``look(page)`` is called at every step, to note what the table shows."""
    deadline = time.time() + seconds
    while not done(page) and time.time() < deadline:
        look(page)
        # A round's summary is drawn with its row of the score sheet: looked at once it is
        # shown, ``done`` says whether it is the one waited for, before "Next deal" would
        # clear the round's log (the test read the next round's log on a busy machine).
        if page.locator("#round-end:not([hidden])").count() and done(page):
            break
        if _next_deal(page) or not _my_turn(page):
            page.wait_for_timeout(20)
            continue
        buttons = page.locator("#buttons button[data-move]")
        cards = page.locator("#hand .card.playable")
        if buttons.count():
            _click(buttons.last if last_button else buttons.first)
        elif cards.count():
            _click(cards.first)
        page.wait_for_timeout(20)


def _game_over(page) -> bool:
    return "the game is over" in (page.text_content("#heading") or "")


@pytest.mark.parametrize("ruleset, players, during, after, log", [
    ("hearts", 4, "Passing", ["Passed", "Received"], "passes cards to"),
    ("ninety-nine", 3, "Laying aside", ["Laid aside"], "laid aside)"),
])
def test_the_table_shows_a_pass_or_cards_laid_aside_as_a_bid(browser, served, ruleset, players, during, after, log):
    """A round with an exchange, played by tapping cards: Hearts' pass of three (what Ann
    put aside, then what she passed and received) and Ninety-Nine's three cards laid aside
    as a bid (the bid they make, hidden from the others until the round's end, when every
    bid and its cards are shown)."""
    ann = _alone_with_bots(browser, served, ruleset, players, "Pass " + ruleset)
    seen = {"during": False, "after": False}
    logged: list[str] = []

    def look(page) -> None:
        logged.append(page.text_content("#log") or "")
        panels = page.text_content("#panels") or ""
        seen["during"] = seen["during"] or (during in panels and page.locator("#panels .card").count() > 0)
        seen["after"] = seen["after"] or all(word in panels for word in after)

    _tap_along(ann, _round_over, 120, look)
    assert _round_over(ann), "the round did not end in time"
    assert seen["during"] and seen["after"]
    logged.append(ann.text_content("#log") or "")
    assert log in "".join(logged)
    if ruleset == "ninety-nine":  # each bid, shown at the end with its cards, against the nine tricks
        assert (ann.text_content("#log") or "").count("laid aside)") == 3
        assert " for 9 tricks" in (ann.text_content("#panels") or "")
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / f"{ruleset}-exchange.png"), full_page=True)


@pytest.mark.parametrize("ruleset, words", [
    ("euchre", ["Trump"]),            # order it up or pass, then name a suit; the dealer's pickup
    ("five-hundred", ["Auction", "Kitty"]),  # calls of tricks and a suit; the declarer's kitty
    ("spades-whiz", ["Bids"]),        # bids read from the hand: nil or the spades held
])
def test_the_phases_of_a_trick_taking_round_play_in_the_browser(browser, served, ruleset, words):
    """A round of each kind of trick-taking round, Ann with two bots and a search seat,
    played with taps alone: the table names each phase's facts as it goes, and the round
    ends and is scored."""
    ann = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors: list[str] = []
    ann.on("pageerror", lambda error: errors.append(str(error)))
    ann.goto(served)
    ann.fill("#your-name", "Ann")
    ann.fill("#room-name", "Phases " + ruleset)
    ann.click("#join")
    ann.wait_for_selector("#create:not([hidden])")
    ann.select_option("#ruleset", ruleset)
    ann.select_option("#players", "4")
    for seat, kind in ((1, "bot"), (2, "search"), (3, "bot")):
        ann.select_option(f"#seat-kind-{seat}", kind)
    ann.click("#make-room")
    ann.wait_for_selector("#lobby:not([hidden])")
    ann.click("#start")
    ann.wait_for_selector("#table:not([hidden])")
    seen: set[str] = set()
    _tap_along(ann, _round_over, 180, lambda page: seen.update(w for w in words if w in (page.text_content(
        "#panels") or "")), last_button=ruleset == "five-hundred")  # (Five Hundred's last call: a pass)
    assert _round_over(ann), "the round did not end in time"
    assert seen == set(words), seen
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / f"{ruleset}-round-phone.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("ruleset", ["hearts", "euchre"])
def test_hearts_and_euchre_play_whole_games_in_the_browser(browser, served, ruleset):
    """Hearts to 100 and Euchre to 10, whole: Ann with three bots, by taps alone (the pass,
    order-up and naming, the dealer's discard, the tricks, "Next deal" after each hand), to
    the final standings. (A search seat at the web table is played in the Skull King,
    Wizard and Five Crowns tests; a whole game of Hearts with one is a minute of thought.)"""
    ann = _alone_with_bots(browser, served, ruleset, 4, "Whole " + ruleset)
    _tap_along(ann, _game_over, 300)
    assert _game_over(ann), "the game did not end in time"
    # the standings: four players, or Euchre's two partnerships
    assert ann.locator("#final:not([hidden]) #standings li").count() == (2 if ruleset == "euchre" else 4)
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / f"{ruleset}-whole-game.png"), full_page=True)


def test_each_person_chooses_their_phase_by_a_button_in_phase_10_masters(browser, served):
    """contract.choose at the web table: after the deal Ann, then Bob, each picks the phase
    they attempt from a button per phase not made yet; every page's log says each choice,
    and play begins with the first player's draw."""
    ann, bob, errors = _open_room(browser, served, "phase-10-masters", None)
    chosen = {}
    deadline = time.time() + 60
    while len(chosen) < 2 and time.time() < deadline:
        for name, page in (("Ann", ann), ("Bob", bob)):
            choices = page.locator("#buttons button[data-move^='choose']")
            if name not in chosen and _my_turn(page) and choices.count():
                assert choices.count() == 10  # nothing made yet: any of the ten phases
                button = choices.nth(3)
                label = button.text_content() or ""
                assert label.startswith("phase 4")
                _click(button)
                chosen[name] = label
        ann.wait_for_timeout(30)
    assert len(chosen) == 2, "the choice was never offered"
    for page in (ann, bob):
        _wait_text(page, "#log", "Ann chooses phase 4")
        _wait_text(page, "#log", "Bob chooses phase 4")
    assert errors == []
