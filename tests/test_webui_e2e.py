"""The table page end to end in Debian's headless chromium (Playwright): `mjcam serve` on a free port, real
photos from ``valid`` read, corrected through the palette until they match their labels, scored; a webcam run
from a video file. Screenshots go to ``test-artifacts/``.
"""
import base64
import csv
import json
import math
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Page, expect, sync_playwright

from scoring import score_table
from scoring.tiles import PLAYING_TILES, format_tiles, parse_tiles
from tests.table_video import VALID_IMAGES, write_table_video

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
DATA = VALID_IMAGES.parent.parent
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 412, "height": 915}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SMALL_PHONE = {**PHONE, "viewport": {"width": 390, "height": 844}}


def start_server(*extra: str) -> tuple[subprocess.Popen, str]:
    """`mjcam serve --port 0` (any free port) in a child process; returns it and the URL it prints."""
    process = subprocess.Popen([sys.executable, "-m", "mjcam.cli", "serve", "--port", "0", *extra], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not match:
        process.kill()
        raise RuntimeError(f"mjcam serve did not start: {line}{process.stdout.read()}")
    return process, match.group(0)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def playwright():
    assert CHROMIUM.exists(), "Debian's chromium is needed: apt-get install chromium (make test does it)"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(playwright):
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(autouse=True)
def close_pages(browser):
    """Each test's browser contexts closed after it: pages left open pile up in the one browser, and past
    about fifty a new page no longer loaded within Playwright's 30 s."""
    yield
    for context in browser.contexts:
        context.close()


@pytest.fixture(scope="module")
def server():
    process, url = start_server()
    yield url
    stop(process)


def open_page(browser, url: str, rules: str, device: dict = PHONE) -> Page:
    page = browser.new_context(**device).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#rules", rules)
    return page


def keep_settings(page: Page, settings: dict) -> None:
    """Settings as a page keeps them: for its tab (sessionStorage) and for the next tab (localStorage)."""
    page.evaluate("(s) => { localStorage.setItem('mjcam.settings', s); sessionStorage.setItem('mjcam.settings', s); }",
                  json.dumps(settings))


# -- labels ------------------------------------------------------------------------------------------

def tile_codes() -> dict[int, str]:
    with open(DATA / "classes.tsv", encoding="utf-8") as f:
        return {int(row["index"]): row["tile_code"] for row in csv.DictReader(f, delimiter="\t")}


def labelled_tiles(photo: Path, width: int, height: int) -> list[tuple[str, np.ndarray]]:
    """The photo's labelled tiles: (tile code, box x1 y1 x2 y2 in pixels)."""
    codes = tile_codes()
    out = []
    for line in (DATA / "valid" / "labels" / (photo.stem + ".txt")).read_text().split("\n"):
        if line.strip():
            cls, *values = line.split()
            points = np.array(values, float).reshape(-1, 2) * [width, height]
            out.append((codes[int(cls)], np.concatenate([points.min(0), points.max(0)])))
    return out


def iou(a: np.ndarray, b: np.ndarray) -> float:
    inter = np.prod(np.clip(np.minimum(a[2:], b[2:]) - np.maximum(a[:2], b[:2]), 0, None))
    return float(inter / (np.prod(a[2:] - a[:2]) + np.prod(b[2:] - b[:2]) - inter))


def match_labels(tiles: list[dict], labels: list[tuple[str, np.ndarray]]) -> dict[int, int]:
    """Detection index → label index, greedily by overlap (IoU ≥ 0.4)."""
    pairs = sorted(((iou(np.array(t["box"]), box), i, j) for i, t in enumerate(tiles) for j, (_, box) in enumerate(labels)),
                   reverse=True)
    matched: dict[int, int] = {}
    for overlap, i, j in pairs:
        if overlap >= 0.4 and i not in matched and j not in matched.values():
            matched[i] = j
    return matched


# -- driving the page --------------------------------------------------------------------------------

def hand_codes(page: Page, group: str | None = None) -> list[str]:
    selector = f'#groups [data-group="{group}"] .tile[data-code]' if group else "#groups .tile[data-code]"
    return [el.get_attribute("data-code") for el in page.query_selector_all(selector)]


def pick(page: Page, code: str) -> None:
    """Click ``code`` in the palette's own row of its suit (not in the "most likely" row)."""
    page.locator(f'#palette .palette-row .tile[data-code="{code}"]').last.click()


def press(box) -> None:
    """Open a box of the overlay from the keyboard (boxes of overlapping detections may cover each other)."""
    box.focus()
    box.press("Enter")


def close_dialog(page: Page) -> None:
    page.locator('#tile-dialog button[value="cancel"]').click()


def correct_to_labels(page: Page, detect: dict, labels: list[tuple[str, np.ndarray]]) -> None:
    """Fix what the camera got wrong, as a player would: melds back into the hand, every box made its labelled
    tile (replace, add a missed one, remove a false one), unboxed labelled tiles added, a winning tile marked."""
    while page.locator(".meld-kind").count():
        page.locator(".meld-kind").first.click()
        page.locator("#meld-break").click()
    while page.locator('#groups [data-group="flowers"] .tile[data-code]').count():
        page.locator('#groups [data-group="flowers"] .tile[data-code]').first.click()
        page.select_option("#act-move", "concealed")
    matched = match_labels(detect["tiles"], labels)
    for i in range(len(detect["tiles"])):
        box = page.locator(f'#overlay g[data-index="{i}"]')
        unused = "unused" in box.get_attribute("class")
        if i in matched:
            truth = labels[matched[i]][0]
            if unused:
                press(box)
                pick(page, truth)
                close_dialog(page)
            elif box.get_attribute("data-code") != truth:
                press(box)
                pick(page, truth)
            expect(box).to_have_attribute("data-code", truth)
        elif not unused:
            press(box)
            page.locator("#act-remove").click()
    for j in sorted(set(range(len(labels))) - set(matched.values())):
        page.locator('#groups [data-group="concealed"] .tile.add').click()
        pick(page, labels[j][0])
        close_dialog(page)
    if not hand_codes(page, "win"):
        page.locator('#groups [data-group="concealed"] .tile[data-code]').last.click()
        page.locator("#act-win").click()


def record_for(rules: str, concealed: list[str], win_tile: str, melds: list[dict] = ()) -> dict:
    """The record the page builds by default: seat 0 wins by self-draw, seat 0 deals, the others blank."""
    blank = {"concealed": "", "melds": [], "flowers": ""}
    return {"rules": rules, "options": {}, "dealer": 0, "dealer_streak": 0, "indicator": None,
            "players": [{"concealed": format_tiles(concealed), "melds": list(melds), "flowers": ""}] + [blank] * 3,
            "win": {"player": 0, "tile": win_tile, "by": "self_draw", "flags": []}, "context": {}}


def one_tile_change(rules: str, concealed: list[str], win_tile: str, melds: list[dict], net: list[int]) -> tuple[str, str, list[int] | None]:
    """A tile of the hand (not the winning one) and a replacement: one that keeps a legal win with another net
    if there is one, otherwise one that breaks the win (net None)."""
    rest = list(concealed)
    rest.remove(win_tile)
    breaking = None
    for old in sorted(set(rest)):
        for new in PLAYING_TILES:
            changed = list(concealed)
            changed[changed.index(old)] = new
            try:
                result = score_table(record_for(rules, changed, win_tile, melds))
            except ValueError:
                breaking = breaking or (old, new, None)
                continue
            if result["net"] != net:
                return old, new, result["net"]
    return breaking


def give_facts(page: Page) -> None:
    """Say what the photo cannot show, as `record_for` has it: a self-drawn win, seat 0 deals, no indicator."""
    page.locator('input[name="by"][value="self_draw"]').check()
    if page.locator("#dealer").input_value() == "":
        page.select_option("#dealer", "0")
    if page.locator("#indicator-field").is_visible():
        page.locator("#indicator-clear").click()


def detect_answer(page: Page, server: str, photo: Path, rules: str) -> dict:
    """What `/api/detect` answers for ``photo`` read with ``rules`` (asked beside the page, not through it)."""
    return page.request.post(server + "api/detect", multipart={
        "image": {"name": photo.name, "mimeType": "image/jpeg", "buffer": photo.read_bytes()}, "rules": rules}).json()


def won_on_discard(page: Page, seat: int) -> None:
    """Say the hand was won on seat ``seat``'s discard."""
    page.locator('input[name="by"][value="discard"]').check()
    page.select_option("#from", str(seat))


def scored(page: Page) -> None:
    """Wait until the score asked for by the last change has come (its request no longer pending)."""
    expect(page.locator("#score")).not_to_have_attribute("aria-busy", "true")


def read_again(page: Page) -> None:
    """Wait until the hand's photo is read again (a change of seat, rules or indicator)."""
    expect(page.locator("#hand")).not_to_have_attribute("aria-busy", "true")


def expect_net(page: Page, net: list[int]) -> None:
    for seat, value in enumerate(net):
        expect(page.locator(f"#net-{seat}")).to_have_text(f"+{value}" if value > 0 else str(value))


# -- the tests ---------------------------------------------------------------------------------------

CASES = {
    "daishan": ("hand_004", []),
    "wenling": ("hand_012", [{"type": "pung", "tiles": "111m"}]),
}


@pytest.mark.parametrize("rules", CASES)
def test_photo_read_corrected_and_scored(browser, server, rules):
    stem, melds = CASES[rules]
    photo = next(VALID_IMAGES.glob(f"{stem}_*.jpg"))
    page = open_page(browser, server, rules)
    with page.expect_response("**/api/detect") as response:
        page.set_input_files("#photo-file", str(photo))
    detect = response.value.json()
    boxes = page.locator("#overlay g.box")
    expect(boxes).to_have_count(len(detect["tiles"]))
    assert len(detect["tiles"]) >= 10
    assert hand_codes(page)  # the reader's hand, as tiles
    expect(page.locator("#status")).to_contain_text(f"Found {len(detect['tiles'])} tiles")
    page.screenshot(path=ARTIFACTS / f"e2e-{rules}-read.png", full_page=True)

    labels = labelled_tiles(photo, detect["width"], detect["height"])
    correct_to_labels(page, detect, labels)
    for meld in melds:
        page.locator("#add-meld").click()
        for code in parse_tiles(meld["tiles"]):
            pick(page, code)
        close_dialog(page)
    truth = sorted(code for code, _ in labels)
    assert sorted(hand_codes(page, "concealed") + hand_codes(page, "win")) == truth
    win_tile = hand_codes(page, "win")[0]
    net = score_table(record_for(rules, truth, win_tile, melds))["net"]
    expect(page.locator("#score-body")).to_be_hidden()  # nothing is assumed for how the hand was won
    expect(page.locator("#score-needed")).to_contain_text("how the hand was won")
    give_facts(page)
    expect_net(page, net)
    page.screenshot(path=ARTIFACTS / f"e2e-{rules}-corrected.png", full_page=True)

    old, new, changed_net = one_tile_change(rules, truth, win_tile, melds, net)
    page.locator(f'#groups [data-group="concealed"] .tile[data-code="{old}"]').first.click()
    expect(page.locator("#tile-dialog")).to_be_visible()
    pick(page, new)
    assert Counter(hand_codes(page, "concealed") + hand_codes(page, "win")) == Counter(truth) - Counter([old]) + Counter([new])
    if changed_net is not None:
        expect_net(page, changed_net)
    else:  # no single tile changes this hand's score: the score turns into the scorer's one line, then back
        expect(page.locator("#score-error")).to_contain_text("Cannot score: ")
        expect(page.locator("#score-error")).not_to_contain_text("invalid table record")
        expect(page.locator("#score-body")).to_be_hidden()
        page.screenshot(path=ARTIFACTS / f"e2e-{rules}-changed.png", full_page=True)
        page.locator(f'#groups [data-group="concealed"] .tile[data-code="{new}"]').first.click()
        pick(page, old)
        expect_net(page, net)
    if rules == "wenling":  # every hand is scored: the page says which seats are blank
        expect(page.locator("#blank-note")).to_contain_text("Seat 1")
        page.screenshot(path=ARTIFACTS / f"e2e-{rules}-changed.png", full_page=True)
    page.emulate_media(media="print")  # printable: the score stays, the controls go
    expect(page.locator("#drop")).to_be_hidden()
    expect(page.locator(".thumb-bar")).to_be_hidden()
    expect(page.locator("#score-body")).to_be_visible()
    page.screenshot(path=ARTIFACTS / f"e2e-{rules}-print.png", full_page=True)
    assert page.errors == []


def test_two_tabs_keep_their_own_rules_and_options(browser, server):
    first = open_page(browser, server, "daishan")
    second = first.context.new_page()  # the same browser: one localStorage, a sessionStorage per tab
    errors = []
    second.on("pageerror", lambda error: errors.append(str(error)))
    second.goto(server)
    second.wait_for_selector("body[data-ready=true]")
    for page, rules, di in ((first, "daishan", "3"), (second, "baicheng", "5")):
        page.select_option("#rules", rules)
        page.locator("#options-box summary").click()
        page.fill("#option-di", di)
        page.locator("#option-di").press("Tab")
    first.reload()
    first.wait_for_selector("body[data-ready=true]")
    expect(first.locator("#rules")).to_have_value("daishan")
    expect(first.locator("#option-di")).to_have_value("3")
    second.select_option("#rules", "fuzhou")
    third = first.context.new_page()  # a new tab starts from the settings set last
    third.on("pageerror", lambda error: errors.append(str(error)))
    third.goto(server)
    third.wait_for_selector("body[data-ready=true]")
    expect(third.locator("#rules")).to_have_value("fuzhou")
    assert first.errors == [] and errors == []


def test_a_choice_option_names_its_values_in_the_page_language(browser, server):
    page = open_page(browser, server, "baicheng")
    page.locator("#options-box summary").click()
    expect(page.locator("#option-model option")).to_have_text(["doubling", "linear"])
    expect(page.locator("#option-discard_payer option")).to_have_text(["all three others", "the discarder alone"])
    page.select_option("#option-discard_payer", label="the discarder alone")
    page.locator("#lang").click()
    expect(page.locator("#option-model option")).to_have_text(["翻倍", "线性"])
    expect(page.locator("#option-discard_payer option")).to_have_text(["三家都付", "只由点炮者付"])
    expect(page.locator("#option-discard_payer")).to_have_value('"discarder"')  # the value kept, named anew
    expect(page.locator("nav.thumb-bar")).to_have_attribute("aria-label", "快捷操作")
    assert page.errors == []


def test_chinese_interface_and_settings_are_remembered(browser, server):
    page = open_page(browser, server, "daishan")
    page.select_option("#dealer", "2")
    page.locator("#options-box summary").click()
    page.fill("#option-di", "0")
    page.locator("#option-di").press("Tab")
    expect(page.locator("#option-di-problem")).to_contain_text("A whole number from 1")  # Daishan's di is at least 1
    page.fill("#option-di", "3")
    page.locator("#option-di").press("Tab")
    expect(page).to_have_title("mjcam — score a mahjong hand")
    page.locator("#lang").click()
    expect(page.locator("#score-title")).to_have_text("计分")
    expect(page).to_have_title("mjcam — 拍牌算分")  # the tab and the phone's task list in Chinese too
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#context-title")).to_have_text("牌局")
    expect(page).to_have_title("mjcam — 拍牌算分")
    expect(page.locator("#rules")).to_have_value("daishan")
    expect(page.locator("#dealer")).to_have_value("2")
    expect(page.locator("#option-di")).to_have_value("3")
    expect(page.locator("#seat-tab-2")).to_contain_text("东")  # the dealer sits East
    page.screenshot(path=ARTIFACTS / "e2e-chinese.png", full_page=True)
    assert page.errors == []


def test_a_question_about_a_meld_names_its_tiles(browser, server):
    page = open_page(browser, server, "baicheng")
    upload(page, "370280965")  # a pung read: is it a pung of the 宝?
    expect(page.locator("#need-list")).to_contain_text("Is meld 1 (1 Character, 1 Character, 1 Character) a pung")
    assert page.errors == []


def test_a_photo_refused_from_the_quick_actions_is_said_where_the_player_looks(browser, server, tmp_path):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    page.locator("#thumb-score").click()  # down at the score, far below the status line
    expect(page.locator("#status")).not_to_be_in_viewport()
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    page.set_input_files("#photo-thumb", str(notes))
    expect(page.locator("#status")).to_have_text("notes.jpg: not an image (JPEG, PNG, WebP, AVIF, BMP or TIFF expected)")
    expect(page.locator("#status")).to_be_in_viewport()
    assert page.errors == []


def test_a_question_about_a_tile_names_the_tile(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")  # no tile set apart: the reader asks about the row's right end
    expect(page.locator("#need-list")).to_contain_text(re.compile(r"did \d \w+, the right end"))
    expect(page.locator("#need-list")).not_to_contain_text(re.compile(r"\b[1-9][mps]\b"))
    assert page.errors == []


def test_bad_upload_shows_one_line(browser, server, tmp_path):
    page = open_page(browser, server, "daishan")
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    page.set_input_files("#photo-file", str(notes))
    expect(page.locator("#status")).to_have_text("notes.jpg: not an image (JPEG, PNG, WebP, AVIF, BMP or TIFF expected)")
    expect(page.locator("#status")).to_have_class(re.compile("error"))


def test_drop_a_photo(browser, server):
    page = open_page(browser, server, "daishan")
    photo = next(VALID_IMAGES.glob("hand_005_*.jpg"))
    transfer = page.evaluate_handle("""(b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], "dropped.jpg", { type: "image/jpeg" }));
        return transfer;
    }""", base64.b64encode(photo.read_bytes()).decode())
    with page.expect_response("**/api/detect") as response:
        page.dispatch_event("#drop", "drop", {"dataTransfer": transfer})
    expect(page.locator("#overlay g.box")).to_have_count(len(response.value.json()["tiles"]))
    assert page.errors == []


def test_webcam_from_a_video_file(browser, tmp_path):
    video = tmp_path / "table.avi"
    photo = next(VALID_IMAGES.glob("hand_004_*.jpg"))
    empty = tmp_path / "felt.jpg"  # the table cleared for the next hand
    cv2.imwrite(str(empty), np.full((480, 640, 3), (60, 110, 40), np.uint8))
    write_table_video(video, [photo, empty], fps=10, still_seconds=10.0, sweep_seconds=0.8)
    process, url = start_server("--camera", str(video))
    try:
        page = open_page(browser, url, "daishan")
        expect(page.locator("#table-camera")).to_be_visible()
        page.wait_for_function("document.getElementById('live').naturalWidth === 640", timeout=20_000)
        capture_1 = re.compile(r"/api/camera/captures/1\.jpg\?run=[0-9a-f]{8}")  # this server run's capture 1
        expect(page.locator("#photo-img")).to_have_attribute("src", capture_1, timeout=20_000)
        expect(page.locator("#overlay g.box").first).to_be_visible()
        assert page.locator("#overlay g.box").count() >= 10
        expect(page.locator("#camera-status")).to_contain_text(re.compile("ended|still"))
        page.screenshot(path=ARTIFACTS / "e2e-webcam.png", full_page=True)
        first = page.locator('#groups [data-group="concealed"] .tile[data-code]').first
        first.click()
        pick(page, "5s")  # a correction, then the same hand captured again (a nudge, Capture now)
        corrected = hand_codes(page)
        page.locator("#capture-now").click()
        expect(page.locator("#status")).to_have_text(
            "The camera sees Seat 0's hand as read before: kept as it is, with any corrections.")
        expect(page.locator("#photo-img")).to_have_attribute("src", capture_1)
        assert hand_codes(page) == corrected
        status = json.loads(page.evaluate("fetch('/api/camera').then(r => r.text())"))
        assert status["capture"] == 2 and re.fullmatch("[0-9a-f]{8}", status["run"])
        # the table cleared: no tiles is no error for a fixed camera, and the hand stays
        expect(page.locator("#status")).to_have_text("No tiles in the camera's view: it waits for the next hand.",
                                                     timeout=30_000)
        expect(page.locator("#status")).not_to_have_class(re.compile("error"))
        assert hand_codes(page) == corrected
        # a reload once the server has restarted: the capture is refused as another run's, and the hand stays
        page.route(capture_1, lambda route: route.fulfill(status=404, content_type="application/json",
                                                          body='{"error": "taken before the server restarted"}'))
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        expect(page.locator("#photo-img")).to_be_hidden()
        expect(page.locator("#overlay g.box").first).to_be_visible()  # the boxes alone, over no broken picture
        assert hand_codes(page) == corrected
        assert page.errors == []
    finally:
        stop(process)


def write_y4m(path: Path, photo: Path, frames: int = 30) -> None:
    """A Y4M video of one photo (640×480): what chromium's fake camera plays to the page."""
    image = cv2.resize(cv2.imread(str(photo)), (640, 480), interpolation=cv2.INTER_AREA)
    planes = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes()
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W640 H480 F10:1 Ip A1:1 C420jpeg\n")
        for _ in range(frames):
            f.write(b"FRAME\n" + planes)


def test_a_webcam_keeps_the_hand_under_an_arm_and_starts_a_new_deal_for_another_hand(browser, tmp_path):
    first, other = (next(VALID_IMAGES.glob(f"{stem}_*.jpg")) for stem in ("hand_004", "hand_007"))
    covered = cv2.resize(cv2.imread(str(first)), (640, 480), interpolation=cv2.INTER_AREA)
    cv2.ellipse(covered, (470, 240), (200, 120), 10, 0, 360, (120, 160, 215), -1)  # an arm resting over half the row
    cv2.imwrite(str(tmp_path / "covered.jpg"), covered)
    video = tmp_path / "table.avi"
    write_table_video(video, [first, tmp_path / "covered.jpg", first, other], fps=10, still_seconds=4.0)
    process, url = start_server("--camera", str(video))
    try:
        page = open_page(browser, url, "daishan")
        expect(page.locator("#photo-img")).to_have_attribute("src", re.compile(r"captures/1\.jpg"), timeout=20_000)
        expect(page.locator("#camera-status")).to_have_text(  # not "still 3.5 s", as if a capture were coming
            "Watching: the picture is still and was captured; a hand laid down next is captured once it stays still.")
        page.locator('input[name="by"][value="self_draw"]').check()  # a fact of this deal
        page.locator('#groups [data-group="concealed"] .tile[data-code]').first.click()
        pick(page, "5s")  # and a correction
        corrected = hand_codes(page)
        expect(page.locator("#status")).to_have_text(re.compile(
            r"^The camera saw [1-9]\d? of the hand's 14 tiles \(something over it\?\): the hand is kept"), timeout=20_000)
        assert hand_codes(page) == corrected
        expect(page.locator("#status")).to_have_text(  # the arm gone: the same hand, the correction kept
            "The camera sees Seat 0's hand as read before: kept as it is, with any corrections.", timeout=20_000)
        assert hand_codes(page) == corrected
        expect(page.locator("#photo-img")).to_have_attribute("src", re.compile(r"captures/4\.jpg"), timeout=20_000)
        other = hand_codes(page)
        assert other != corrected  # another hand: a new deal, how it was won asked again
        expect(page.locator('input[name="by"]:checked')).to_have_count(0)
        expect(page.locator("#undo-bar")).to_be_visible()
        page.select_option("#move-hand", "1")  # it was seat 1's: moved there, seat 0's own and the facts brought back
        expect(page.locator("#seat-tab-1")).to_have_attribute("aria-pressed", "true")
        assert hand_codes(page) == other
        expect(page.locator('input[name="by"][value="self_draw"]')).to_be_checked()
        page.locator("#seat-tab-0").click()
        assert hand_codes(page) == corrected
        assert page.errors == []
    finally:
        stop(process)


def test_a_table_camera_error_is_labelled_on_the_chinese_page(browser, tmp_path):
    video = tmp_path / "table.avi"
    felt = tmp_path / "felt.jpg"
    cv2.imwrite(str(felt), np.full((480, 640, 3), (60, 110, 40), np.uint8))
    write_table_video(video, [felt], still_seconds=0.5, sweep_seconds=0.2)
    process, url = start_server("--camera", str(video))
    try:
        page = browser.new_context(**PHONE).new_page()
        status = {"source": str(video), "frames": 1, "still_seconds": 0.0, "capture": None, "ended": False,
                  "run": "0a1b2c3d", "error": "camera source 0: the device is gone", "lost": False}  # no words for it
        page.route("**/api/camera", lambda route: route.fulfill(json=status))
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        expect(page.locator("#camera-status")).to_have_text("camera source 0: the device is gone")
        page.locator("#lang").click()
        expect(page.locator("#camera-status")).to_have_text("摄像头出错（英文说明）：camera source 0: the device is gone")
        status |= {"error": "camera source 0: no frame, reopening", "lost": True}  # one it has
        expect(page.locator("#camera-status")).to_have_text("摄像头没有画面：正在重新连接…（显示的是最后一帧）")
        page.unroute("**/api/camera")
        page.route("**/api/camera", lambda route: route.abort())  # the server stopped
        expect(page.locator("#camera-status")).to_have_text("连不上服务器。")
        expect(page.locator("#camera-status")).to_have_class(re.compile(r"\berror\b"))
        expect(page.locator("#capture-now")).to_be_disabled()
        assert errors == []
    finally:
        stop(process)


def test_no_camera_is_said_in_the_players_words(browser, server):
    page = open_page(browser, server, "daishan")  # a browser with no camera device
    page.locator("#browser-camera").click()
    expect(page.locator("#status")).to_have_text("The camera is not available: this device has no camera the browser can use")
    expect(page.locator("#device-camera")).to_be_hidden()
    assert page.errors == []


def test_browser_camera_capture(playwright, server, tmp_path):
    video = tmp_path / "hand.y4m"
    write_y4m(video, next(VALID_IMAGES.glob("hand_004_*.jpg")))
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS + [
        "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    try:
        page = open_page(browser, server, "daishan")
        page.locator("#browser-camera").click()
        page.wait_for_function("document.getElementById('video').videoWidth === 640")
        with page.expect_response("**/api/detect") as response:
            page.locator("#snap").click()
        detect = response.value.json()
        assert (detect["width"], detect["height"]) == (640, 480) and len(detect["tiles"]) >= 10
        expect(page.locator("#overlay g.box")).to_have_count(len(detect["tiles"]))
        page.screenshot(path=ARTIFACTS / "e2e-browser-camera.png", full_page=True)
        page.locator("#close-camera").click()
        expect(page.locator("#device-camera")).to_be_hidden()
        # tapped twice while open, then twice while the browser still asks (slowly), then closed: no camera
        # stream is left running, and nothing throws
        page.evaluate("""() => {
          const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
          window.streams = [];
          navigator.mediaDevices.getUserMedia = async (how) => {
            const s = await open(how);
            streams.push(s);
            await new Promise((done) => setTimeout(done, 300));
            return s;
          };
        }""")
        for _ in range(2):
            page.locator("#browser-camera").click()
            page.wait_for_function("document.getElementById('video').videoWidth === 640")
        page.locator("#browser-camera").click()
        page.locator("#browser-camera").click()
        page.wait_for_function("document.getElementById('video').videoWidth === 640 && streams.length === 4")
        page.locator("#close-camera").click()
        ended = "streams.flatMap((s) => s.getTracks()).map((track) => track.readyState)"
        page.wait_for_function(f"{ended}.every((state) => state === 'ended')")
        assert page.evaluate(ended) == ["ended"] * 4
        assert page.errors == []
    finally:
        browser.close()


# -- what a player at the table runs into ------------------------------------------------------------

def upload(page: Page, stem: str, *, english: bool = True) -> dict:
    """Choose the photo of ``valid`` named ``stem…`` and wait until the page has drawn its reading (``english``:
    the page's language)."""
    with page.expect_response("**/api/detect") as response:
        page.set_input_files("#photo-file", str(next(VALID_IMAGES.glob(f"{stem}_*.jpg"))))
    expect(page.locator("#status")).to_contain_text("Found" if english else "找到")
    return response.value.json()


def test_an_invalid_option_is_refused_at_its_field_and_never_blocks_a_photo(browser, server):
    page = open_page(browser, server, "wenling")
    page.locator("#options-box summary").click()
    page.fill("#option-flower_groups", "1234f")  # half typed
    page.locator("#option-flower_groups").press("Tab")
    expect(page.locator("#option-flower_groups-problem")).to_contain_text("Two groups of four flowers")
    expect(page.locator("#option-flower_groups")).to_have_attribute("aria-invalid", "true")
    page.locator("#lang").click()  # drawn anew with the value kept: no note left over in the other language
    expect(page.locator("#option-flower_groups-problem")).to_be_hidden()
    page.locator("#lang").click()
    page.fill("#option-flower_groups", "1234f")
    page.locator("#option-flower_groups").press("Tab")
    expect(page.locator("#option-flower_groups-problem")).to_contain_text("Two groups of four flowers")
    settings = json.loads(page.evaluate("localStorage.getItem('mjcam.settings')"))
    assert "flower_groups" not in settings["options"]["wenling"]  # not kept
    upload(page, "hand_006")  # read with the value before (the default)
    page.fill("#option-flower_groups", "1357f 2468f")
    page.locator("#option-flower_groups").press("Tab")
    expect(page.locator("#option-flower_groups-problem")).to_be_hidden()
    settings = json.loads(page.evaluate("localStorage.getItem('mjcam.settings')"))
    assert settings["options"]["wenling"]["flower_groups"] == ["1357f", "2468f"]

    # a bad value kept by an older page: dropped on load, named at its field, the options box open
    settings["options"]["wenling"]["flower_groups"] = ["1234f"]
    keep_settings(page, settings)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#options-box")).to_have_attribute("open", "")
    expect(page.locator("#option-flower_groups-problem")).to_be_visible()
    upload(page, "hand_006")
    assert page.errors == []


def test_another_seats_photo_is_read_as_a_hand_that_did_not_win_and_does_not_move_the_winner(browser, server):
    page = open_page(browser, server, "wenling")
    upload(page, "hand_006")
    expect(page.locator("#winner")).to_have_value("0")
    page.locator("#seat-tab-1").click()
    detect = upload(page, "368055741")  # a photo with a tile set apart: as a winner's, its winning tile
    assert detect["hand"]["win_tile"] is None
    assert not {"win.by", "win.tile"} & {need["key"] for need in detect["needs"]}
    expect(page.locator("#winner")).to_have_value("0")
    expect(page.locator("#seat-tab-0 .badge:not(.dealer)")).to_have_text("won")
    expect(page.locator("#seat-tab-1 .badge:not(.dealer)")).to_have_count(0)
    regrouped = []
    page.on("response", lambda response: "/api/group" in response.url and regrouped.append(response))
    with page.expect_response("**/api/group"):  # a drawn hand: nobody won, every hand is read so
        page.select_option("#winner", "none")
    read_again(page)
    page.wait_for_timeout(500)
    assert regrouped and all(response.json()["hand"]["win_tile"] is None for response in regrouped)
    expect(page.locator('#groups [data-group="win"] .tile[data-code]')).to_have_count(0)
    assert page.errors == []


def test_a_hand_the_rules_do_not_score_is_not_checked_for_its_size(browser, server):
    # Daishan scores the winner alone: seat 1's photo (14 tiles, one too many as read) is sent as unknown
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    won_on_discard(page, 1)
    scored(page)
    net = page.locator("#net-0").inner_text()
    page.locator("#seat-tab-1").click()
    upload(page, "hand_005")
    scored(page)
    expect(page.locator("#score-body")).to_be_visible()  # not refused for seat 1's size
    expect(page.locator("#net-0")).to_have_text(net)
    scored_as_drawn(page)  # no hand is scored
    assert page.errors == []


def test_a_drawn_hand_is_scored_without_asking_for_the_dealer_or_the_gold(browser, server):
    page = open_page(browser, server, "fuzhou")
    upload(page, "hand_009")
    scored_as_drawn(page)  # 和局: nothing is paid, whoever dealt and whatever the 金
    assert hand_codes(page, "win") == []  # read again as no winner's: no tile is asked to be marked as the winning one
    expect(page.locator('#groups [data-group="win"] .hint')).to_have_text("None: nobody won this hand (a drawn hand).")
    assert page.errors == []


def scored_as_drawn(page: Page) -> None:
    """Make the hand a drawn one (no winner) and check that it is scored: nothing paid."""
    page.select_option("#winner", "none")
    read_again(page)
    scored(page)
    expect(page.locator("#score-body")).to_be_visible()
    expect(page.locator("#net-0")).to_have_text("0")


def test_another_seats_photo_of_a_winning_hand_asks_whether_that_seat_won(browser, server, tmp_path):
    from datasets.synth import generate_scene

    photo = tmp_path / "won.jpg"
    cv2.imwrite(str(photo), generate_scene(9_000_000, "wenling").image)  # a winning hand, a tile set apart
    page = open_page(browser, server, "wenling")
    upload(page, "hand_006")
    page.locator("#seat-tab-1").click()
    with page.expect_response("**/api/detect") as response:
        page.set_input_files("#photo-file", str(photo))
    hand = response.value.json()["hand"]
    assert hand["apart"] is True and hand["win_tile"] is None
    assert hand["problems"] == ["a tile is set apart and the hand holds a winner's tiles: did this player win? "
                                "(17 tiles, a meld counting three)"]
    assert response.value.json()["suggestions"] == []  # none of its tiles is offered for dropping
    expect(page.locator("#status")).to_contain_text("This hand has a tile set apart, but Seat 0 is the winner")
    expect(page.locator('#groups [data-group="win"] .hint')).to_have_text("None: Seat 0 won this hand.")
    page.locator("#seat-tab-0").click()  # the winner's hand, none set apart: the winning tile is asked for
    expect(page.locator('#groups [data-group="win"] .hint')).to_contain_text("None marked: tap the tile that won")
    assert page.errors == []


def correct_a_tile(page: Page) -> None:
    """Read `hand_003` and correct its first concealed tile to 5s: work the player would not want to lose."""
    upload(page, "hand_003")
    page.locator('#groups [data-group="concealed"] .tile[data-code]').first.click()
    pick(page, "5s")


def test_the_hand_in_progress_survives_a_reload_and_back_forward(browser, server):
    page = open_page(browser, server, "daishan")
    correct_a_tile(page)
    won_on_discard(page, 2)
    hand = hand_codes(page)
    assert "5s" in hand
    for leave in (page.reload, lambda: (page.goto("about:blank"), page.go_back())):
        leave()
        page.wait_for_selector("body[data-ready=true]")
        assert hand_codes(page) == hand
        expect(page.locator('input[name="by"][value="discard"]')).to_be_checked()
        expect(page.locator("#from")).to_have_value("2")
        expect(page.locator("#photo-img")).to_have_attribute("src", re.compile("^data:image/jpeg"))
        expect(page.locator("#overlay g.box.corrected")).to_have_count(1)
    assert page.errors == []


def test_work_replaced_or_cleared_can_be_undone(browser, server):
    page = open_page(browser, server, "daishan")
    correct_a_tile(page)
    corrected = hand_codes(page)
    for lose in (lambda: page.locator("#new-hand").click(), lambda: page.locator("#clear-hand").click(),
                 lambda: upload(page, "hand_006")):
        lose()
        assert hand_codes(page) != corrected
        page.locator("#undo").click()
        assert hand_codes(page) == corrected
        expect(page.locator("#undo")).to_be_hidden()
    assert page.errors == []


def test_changing_the_rules_regroups_the_hand_and_keeps_the_indicator(browser, server):
    page = open_page(browser, server, "fuzhou")
    upload(page, "hand_006")
    assert "4z" in hand_codes(page, "flowers")  # Fuzhou lays winds aside like flowers
    index = page.locator('#overlay g.box[data-code="1m"]').first.get_attribute("data-index")
    press(page.locator(f'#overlay g[data-index="{index}"]'))
    pick(page, "9m")
    page.locator("#indicator-pick").click()
    pick(page, "2s")
    with page.expect_response("**/api/group"):
        page.select_option("#rules", "daishan")
    expect(page.locator('#groups [data-group="flowers"] .tile[data-code]')).to_have_count(3)
    assert all(code.endswith("f") for code in hand_codes(page, "flowers"))
    assert "4z" in hand_codes(page, "concealed")
    expect(page.locator(f'#overlay g[data-index="{index}"]')).to_have_attribute("data-code", "9m")  # the correction stays
    page.locator('input[name="by"][value="self_draw"]').check()
    scored(page)
    expect(page.locator("#score-error")).not_to_contain_text("not a flower")
    with page.expect_response("**/api/group"):
        page.select_option("#rules", "fuzhou")
    expect(page.locator("#indicator-tile .tile")).to_have_attribute("data-code", "2s")
    # waited for: the groups are drawn after the answer arrives (read at once, a loaded machine saw the old ones)
    expect(page.locator('#groups [data-group="flowers"] .tile[data-code="4z"]')).not_to_have_count(0)
    assert page.errors == []


def test_none_said_for_one_rules_indicator_is_asked_again_for_anothers(browser, server):
    page = open_page(browser, server, "wenling")
    expect(page.locator("#indicator-clear")).to_have_text("None")  # the button, as "(or None)" asks
    page.locator("#indicator-clear").click()  # no 得 at this table
    expect(page.locator("#indicator-tile")).to_have_text("none")
    page.select_option("#rules", "fuzhou")  # a 金 is another matter
    expect(page.locator("#indicator-tile")).to_have_text("—")
    assert page.errors == []


def test_an_indicator_the_new_rules_refuse_is_dropped_and_asked_again(browser, server):
    page = open_page(browser, server, "wenling")
    page.locator("#indicator-pick").click()
    pick(page, "7z")  # 中 may be Wenling's 得, never Fuzhou's 金 (a suited tile)
    page.select_option("#rules", "fuzhou")
    expect(page.locator("#status")).to_contain_text("Red cannot be the 金 under these rules")
    expect(page.locator("#indicator-tile .tile")).to_have_count(0)
    page.select_option("#rules", "wenling")  # and back: it comes back, and the note goes
    expect(page.locator("#indicator-tile .tile")).to_have_attribute("data-code", "7z")
    expect(page.locator("#status")).not_to_contain_text("cannot be the")
    page.select_option("#rules", "fuzhou")
    upload(page, "hand_006")  # read, not refused for the indicator
    page.locator("#indicator-pick").click()
    expect(page.locator('#palette .tile[data-code="7z"]')).to_have_count(0)
    expect(page.locator('#palette .tile[data-code="5p"]')).to_have_count(1)
    page.keyboard.press("Escape")
    page.select_option("#rules", "wenling")  # back to rules that take it, none said meanwhile: it comes back
    expect(page.locator("#indicator-tile .tile")).to_have_attribute("data-code", "7z")
    assert page.errors == []


def test_no_score_is_shown_until_the_player_says_how_the_hand_was_won(browser, server):
    page = open_page(browser, server, "daishan")
    expect(page.locator("#score-error")).to_be_hidden()  # nothing read yet: a hint, no error, no winner
    expect(page.locator("#score-needed")).to_contain_text("Take a photo")
    expect(page.locator("#seat-tabs .badge:not(.dealer)")).to_have_count(0)
    upload(page, "hand_004")
    if not hand_codes(page, "win"):
        page.locator('#groups [data-group="concealed"] .tile[data-code]').last.click()
        page.locator("#act-win").click()
    expect(page.locator("#score-needed")).to_contain_text("how the hand was won")
    expect(page.locator("#score-body")).to_be_hidden()
    expect(page.locator("#thumb-score")).to_have_text(re.compile(r"^Score[12] to set$"))  # how won, maybe the dealer
    expect(page.locator("#thumb-score small")).to_have_text(re.compile(r"^[12] to set$"))  # a line under "Score"
    expect(page.locator("#win-by")).to_have_class(re.compile(r"\bmissing\b"))  # ringed where it is set, "needed"
    expect(page.locator("#thumb-score")).to_have_attribute("href", "#win-by")  # a tap goes there
    expect(page.locator("#need-list li.given")).not_to_contain_text(["How was the hand won"])
    page.locator('input[name="by"][value="discard"]').check()
    expect(page.locator("#score-needed")).to_contain_text("whose discard")
    expect(page.locator("#win-by")).not_to_have_class(re.compile(r"\bmissing\b"))
    expect(page.locator("#from-field")).to_have_class(re.compile(r"\bmissing\b"))
    page.locator("#lang").click()
    page.locator('input[name="by"][value="rob_kong"]').check()  # the robbed player too
    expect(page.locator("#score-needed")).to_have_text("还不能计分：请在“牌局”中填写谁放炮（或被抢杠）。")
    page.locator('input[name="by"][value="discard"]').check()
    page.locator("#lang").click()
    expect(page.locator("#need-list li.given").first).to_contain_text("How was the hand won")
    page.select_option("#from", "2")
    expect(page.locator("#score-body")).to_be_visible()
    expect(page.locator("#score-needed")).to_be_hidden()
    expect(page.locator("#context .missing")).to_have_count(0)
    assert page.errors == []


def test_a_hand_one_tile_from_a_win_is_told_under_the_hand_and_mended_with_one_tap(browser, server):
    page = open_page(browser, server, "daishan")
    add_tiles(page, "123m456m789m123p1z5p")  # East where a 5 Dots would pair the winning 5 Dots
    expect(page.locator("#win-group")).to_have_class(re.compile(r"\bmissing\b"))  # no winning tile marked yet
    expect(page.locator("#thumb-score")).to_have_attribute("href", "#win-group")
    page.locator('#groups [data-group="concealed"] .tile[data-code="5p"]').last.click()
    page.locator("#act-win").click()
    expect(page.locator("#win-group")).not_to_have_class(re.compile(r"\bmissing\b"))
    give_facts(page)
    expect(page.locator("#score-error")).to_contain_text("it would be one with 5 Dots changed to East, or East to 5 Dots")
    expect(page.locator("#score-problem-text")).to_have_text(page.locator("#score-error").inner_text())
    expect(page.locator("#thumb-score")).to_have_text("Score ⚠")
    expect(page.locator("#thumb-score")).to_have_attribute("href", "#score-problem")  # to the changes, under the hand
    fixes = page.locator("#score-fixes button")
    expect(fixes).to_have_text(["5 Dots → East", "East → 5 Dots"])  # the winning tile, or the East in hand
    fixes.nth(1).click()
    expect(page.locator("#score-body")).to_be_visible()
    expect(page.locator("#score-problem")).to_be_hidden()
    assert hand_codes(page) == ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p", "5p"]
    expect(page.locator("#undo-note")).to_have_text("East changed to 5 Dots.")
    expect(page.locator("#thumb-score")).to_have_text(re.compile(r"^Score \+\d+$"))
    expect(page.locator("#thumb-score")).to_have_attribute("href", "#score")
    page.locator("#undo").click()  # brought back: refused again, the same changes offered
    expect(fixes).to_have_text(["5 Dots → East", "East → 5 Dots"])
    page.locator("#lang").click()
    expect(fixes).to_have_text(["五筒 → 東", "東 → 五筒"])
    expect(page.locator("#thumb-score")).to_have_text("计分 ⚠")
    held = hold_first(page, "**/api/score")  # the next score slow to come: the buttons of this refusal stay meanwhile
    page.locator('#groups [data-group="concealed"] .tile[data-code="1z"]').click()
    page.locator("#act-remove").click()  # East gone
    first_held(page, held)
    fixes.nth(1).click()  # "East → 5 Dots", stale: nothing to change, no error
    held[0].continue_()
    expect(page.locator("#score-problem-text")).to_contain_text("有 13 张牌")  # the page in Chinese by now
    page.locator("#seat-tabs button").nth(1).click()  # another seat's hand: the refusal named, no change offered
    expect(page.locator("#score-problem")).to_be_visible()
    expect(page.locator("#score-fixes button")).to_have_count(0)
    expect(page.locator("#score-fixes-label")).to_be_hidden()
    assert page.errors == []


def test_a_hand_a_tile_short_is_completed_with_one_tap(browser, server):
    page = open_page(browser, server, "daishan")
    type_hand(page, "123m456m789m12p5z5z", "5z")  # a 3 Dots left out
    give_facts(page)
    fix = page.locator("#score-fixes button")
    expect(fix).to_have_text(["add 3 Dots"])
    fix.click()
    expect(page.locator("#score-body")).to_be_visible()
    assert sorted(hand_codes(page, "concealed")) == sorted(["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m",
                                                            "1p", "2p", "3p", "5z"])
    expect(page.locator("#undo-note")).to_have_text("3 Dots added to the hand.")
    page.locator("#lang").click()
    expect(page.locator("#undo-note")).to_have_text("已把三筒加入手牌。")  # the tile named in the new language too
    page.locator("#undo").click()
    expect(fix).to_have_text(["补上三筒"])
    assert page.errors == []


def test_a_winning_flower_laid_aside_with_one_tap_asks_for_the_winning_tile_again(browser, server):
    page = open_page(browser, server, "wenling")
    type_hand(page, "123m456m789m123p456p5p5p1f", "1f")  # Spring marked as the winning tile, in the hand
    give_facts(page)
    page.locator("#score-fixes button", has_text="lay Spring aside").click()
    assert hand_codes(page, "flowers") == ["1f"] and hand_codes(page, "win") == []
    expect(page.locator("#win-group")).to_have_class(re.compile(r"\bmissing\b"))  # marked again where it won
    expect(page.locator("#score-error")).to_be_hidden()
    assert page.errors == []


def test_the_thumb_bars_score_leads_to_another_winners_hand_by_its_tab(browser, server):
    page = open_page(browser, server, "daishan")
    type_hand(page, "123m456m789m123p55p", "5p")
    page.select_option("#winner", "1")  # seat 1 won: its winning tile not marked, its hand not the one shown
    expect(page.locator("#thumb-score")).to_have_attribute("href", "#seat-tab-1")
    assert page.errors == []


def test_on_a_wide_screen_the_score_is_under_the_table_beside_the_photo(browser, server):
    page = open_page(browser, server, "daishan", {"viewport": {"width": 1280, "height": 800}})
    upload(page, "hand_004")
    give_facts(page)
    expect(page.locator("#score-body")).to_be_visible()
    photo, table, score = (page.locator(sel).bounding_box() for sel in ("#capture", "#context", "#score"))
    assert score["x"] == table["x"] > photo["x"] + photo["width"]  # the right column, not under the photo
    assert table["y"] + table["height"] < score["y"] < table["y"] + table["height"] + 40  # just below the facts
    pill = page.locator("#thumb-score")  # and the net in view wherever the page is: the thumb bar's score alone
    expect(pill).to_have_text(re.compile(r"^Score \+\d+$"))
    expect(pill).to_be_in_viewport()
    expect(page.locator(".thumb-bar a[href='#hand']")).to_be_hidden()
    page.evaluate("scrollTo(0, 0)")
    expect(pill).to_be_in_viewport()
    assert page.errors == []


def test_a_hand_small_in_the_photo_is_shown_larger_its_boxes_labelled_by_short_names(browser, server, tmp_path):
    far = np.full((1200, 1600, 3), (40, 90, 50), np.uint8)  # a real hand photo set in a wide table: small in the frame
    far[400:1040, 500:1140] = cv2.imread(str(next(VALID_IMAGES.glob("hand_004_*.jpg"))))
    scene = tmp_path / "far.jpg"
    cv2.imwrite(str(scene), far)
    page = open_page(browser, server, "daishan", {**PHONE, "viewport": {"width": 360, "height": 740}})
    with page.expect_response("**/api/detect") as response:
        page.set_input_files("#photo-file", str(scene))
    detect = response.value.json()
    expect(page.locator("#photo-wrap")).to_have_class(re.compile(r"\bzoomed\b"))
    x, y, w, h = (float(v) for v in page.locator("#overlay").get_attribute("viewBox").split())
    assert w < 0.5 * detect["width"] and h < 0.5 * detect["height"]  # the part with the tiles, not the whole table
    for tile in detect["tiles"]:  # every box within it
        x1, y1, x2, y2 = tile["box"]
        assert x <= x1 and y <= y1 and x2 <= x + w and y2 <= y + h
    photo, shown, rect = page.evaluate(  # at one moment: the page may still be scrolling the photo into view
        "['#photo-img', '#photo-wrap', '#overlay g.box rect'].map((s) => document.querySelector(s).getBoundingClientRect())"
        ".map(({x, y, width, height}) => ({x, y, width, height}))")
    assert photo["width"] > 2 * shown["width"]  # the picture enlarged under the same boxes
    box = detect["tiles"][int(page.locator("#overlay g.box").first.get_attribute("data-index"))]["box"]
    scale = photo["width"] / detect["width"]
    centre = (rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2)  # drawn over its tile
    assert abs(centre[0] - photo["x"] - (box[0] + box[2]) / 2 * scale) < 1
    assert abs(centre[1] - photo["y"] - (box[1] + box[3]) / 2 * scale) < 1
    short = re.compile(r"^([1-9][CDB]|E|S|W|N|Wh|Gr|Rd|Sp|Su|Au|Wi|Pl|Or|Ch|Bm|▮)$")
    assert all(short.match(label) for label in page.locator("#overlay g.box text").all_text_contents())
    page.locator("#lang").click()
    assert all(not short.match(label) for label in page.locator("#overlay g.box text").all_text_contents() if label != "▮")
    upload(page, "hand_004", english=False)  # a row across the photo: its band, as wide as the photo
    photo, shown = page.locator("#photo-img").bounding_box(), page.locator("#photo-wrap").bounding_box()
    assert photo["width"] < 1.2 * shown["width"]
    assert page.errors == []


def test_a_hand_among_other_tiles_is_shown_alone_and_the_whole_photo_on_a_tap(browser, server):
    page = open_page(browser, server, "fuzhou")
    detect = upload(page, "hand_009")  # a whole table: the hand, the discards, the others' tiles
    held = [int(i) for i in page.locator("#overlay g.box:not(.unused)").evaluate_all("gs => gs.map((g) => g.dataset.index)")]
    others = [i for i in range(len(detect["tiles"])) if i not in held]
    assert len(held) >= 14 and others
    x, y, w, h = (float(v) for v in page.locator("#overlay").get_attribute("viewBox").split())
    inside = lambda box: x <= box[0] and y <= box[1] and box[2] <= x + w and box[3] <= y + h  # noqa: E731
    assert all(inside(detect["tiles"][i]["box"]) for i in held)  # the hand's tiles, whatever else the photo shows
    assert not all(inside(detect["tiles"][i]["box"]) for i in others)
    drawn = page.locator("#overlay g.box")  # the boxes cut out of the view are not drawn, nor reached by Tab
    assert len(held) <= drawn.count() < len(detect["tiles"])
    view = page.locator("#photo-view")
    expect(view).to_have_text("Whole photo")
    view.click()
    expect(page.locator("#overlay")).to_have_attribute("viewBox", f"0 0 {detect['width']} {detect['height']}")
    expect(drawn).to_have_count(len(detect["tiles"]))
    expect(view).to_have_text("Just the hand")
    view.click()
    expect(page.locator("#overlay")).to_have_attribute("viewBox", re.compile(r"^(?!0 0 )"))
    view.click()
    upload(page, "hand_004")  # a new photo: its hand's part again
    expect(view).to_have_text("Whole photo")
    assert page.errors == []


def test_a_photo_of_the_next_hand_starts_a_new_deal_and_a_retake_keeps_the_facts(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    won_on_discard(page, 2)
    page.select_option("#dealer", "2")
    upload(page, "hand_004")  # a retake of the same hand: the facts stay
    expect(page.locator('input[name="by"][value="discard"]')).to_be_checked()
    expect(page.locator("#dealer")).to_have_value("2")
    upload(page, "hand_007")  # another hand in this seat's place: the next deal, how it was won asked again
    expect(page.locator('input[name="by"]:checked')).to_have_count(0)
    expect(page.locator("#dealer")).to_have_value("")
    page.locator("#undo").click()  # the last deal back, its facts and the line about its photo too
    expect(page.locator('input[name="by"][value="discard"]')).to_be_checked()
    expect(page.locator("#dealer")).to_have_value("2")
    expect(page.locator("#status")).to_contain_text("Found 14 tiles")
    assert page.errors == []


def test_a_photo_showing_more_of_the_same_hand_keeps_the_facts(browser, server):
    page = open_page(browser, server, "daishan")
    photo = next(VALID_IMAGES.glob("hand_004_*.jpg"))
    whole = detect_answer(page, server, photo, "daishan")
    part = json.loads(json.dumps(whole))  # the first photo cut six tiles of the hand off
    concealed = next(g for g in part["hand"]["groups"] if g["kind"] == "concealed")
    concealed["tiles"] = concealed["tiles"][:-6]
    page.route("**/api/detect", lambda route: route.fulfill(json=part))
    page.set_input_files("#photo-file", str(photo))
    expect(page.locator("#status")).to_contain_text("Found")
    page.locator('input[name="by"][value="self_draw"]').check()
    page.select_option("#dealer", "3")
    page.unroute("**/api/detect")
    upload(page, "hand_004")  # the whole hand: all of the last photo's tiles in it, the same deal
    expect(page.locator('input[name="by"][value="self_draw"]')).to_be_checked()
    expect(page.locator("#dealer")).to_have_value("3")
    assert page.errors == []


def test_a_row_running_down_a_turned_photo_is_shown_no_taller_than_wide(browser, server, tmp_path):
    turned = tmp_path / "turned.jpg"  # the photo turned a quarter (pixels, no EXIF): the row runs down it
    cv2.imwrite(str(turned), cv2.rotate(cv2.imread(str(next(VALID_IMAGES.glob("hand_004_*.jpg")))), cv2.ROTATE_90_CLOCKWISE))
    page = open_page(browser, server, "daishan")
    with page.expect_response("**/api/detect"):
        page.set_input_files("#photo-file", str(turned))
    expect(page.locator("#overlay g.box").first).to_be_visible()
    x, y, w, h = (float(v) for v in page.locator("#overlay").get_attribute("viewBox").split())
    assert h <= 1.2 * w + 0.5  # widened round the row, not a strip a screen tall
    assert page.locator("#photo-wrap").bounding_box()["height"] < 600
    assert page.errors == []


def test_a_photo_with_no_tiles_says_so_and_keeps_the_hand(browser, server, tmp_path):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    hand = hand_codes(page)
    felt = tmp_path / "felt.jpg"
    cv2.imwrite(str(felt), np.full((480, 640, 3), (60, 110, 40), np.uint8))
    page.set_input_files("#photo-file", str(felt))
    expect(page.locator("#status")).to_contain_text("No tiles found")
    expect(page.locator("#status")).to_have_class(re.compile("error"))
    assert hand_codes(page) == hand
    assert page.errors == []


def test_a_blurred_photo_asks_for_a_sharper_one(browser, server, tmp_path):
    """Hands with three or more doubtful tiles are rarely read right: the page says a better photo reads better
    (a sharp photo of the same hand does not get that note). Blurred by σ 6 px: a photo the detector is unsure
    of may be read from a squeezed view (`TileDetector.find_tiles_unstretched`), which reads some blurred
    photos better."""
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    expect(page.locator("#status")).not_to_contain_text("a closer, sharper photo")
    blurred = tmp_path / "blurred.jpg"
    cv2.imwrite(str(blurred), cv2.GaussianBlur(cv2.imread(str(next(VALID_IMAGES.glob("hand_004_*.jpg")))), (0, 0), 6))
    page.set_input_files("#photo-file", str(blurred))
    expect(page.locator("#status")).to_contain_text(re.compile(r"\d+ tiles of the hand are doubtful: a closer, sharper photo"))
    assert page.errors == []


def test_a_large_photo_is_sent_as_a_smaller_copy_and_read_the_same(browser, server, tmp_path):
    from datasets.synth import generate_scene

    photo = tmp_path / "phone.jpg"
    cv2.imwrite(str(photo), generate_scene(9_000_002, "daishan", size=(4000, 3000)).image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    page = open_page(browser, server, "daishan")
    with page.expect_response("**/api/detect") as response:
        page.set_input_files("#photo-file", str(photo))
    answer = response.value.json()
    assert (answer["width"], answer["height"]) == (1000, 750)  # the copy the reader reads, not the 4000×3000 photo
    mjcam = Path(sys.executable).parent / "mjcam"
    original = json.loads(subprocess.run([str(mjcam), "read", str(photo), "--rules", "daishan", "--json"],
                                         capture_output=True, text=True, check=True).stdout)
    assert {key: answer["hand"][key] for key in ("concealed", "melds", "flowers", "win_tile")} == \
        {key: original[key] for key in ("concealed", "melds", "flowers", "win_tile")}
    expect(page.locator("#status")).to_contain_text("Found")
    assert page.errors == []


def test_a_photo_over_the_limit_gets_one_line(browser, server, tmp_path):
    page = open_page(browser, server, "daishan")
    big = tmp_path / "big.jpg"
    big.write_bytes(b"\xff\xd8\xff" + bytes(21 * 2**20))
    page.set_input_files("#photo-file", str(big))
    expect(page.locator("#status")).to_have_text("big.jpg: the photo is larger than the 20 MB limit.")
    expect(page.locator("#status")).to_have_class(re.compile("error"))


def test_chinese_page_gives_the_scorers_refusal_in_chinese(browser, server):
    page = open_page(browser, server, "baicheng")
    page.locator("#lang").click()
    upload(page, "hand_006", english=False)
    if not hand_codes(page, "win"):
        page.locator('#groups [data-group="concealed"] .tile[data-code]').last.click()
        page.locator("#act-win").click()
    page.locator('input[name="by"][value="self_draw"]').check()
    page.select_option("#dealer", "0")
    page.locator("#indicator-clear").click()
    expect(page.locator("#score-error")).to_contain_text(re.compile("^无法计分：白城麻将不用花牌：请拿掉.号位的花牌$"))
    page.screenshot(path=ARTIFACTS / "e2e-chinese-refusal.png", full_page=True)
    page.locator("#lang").click()  # in English, the scorer's line without the record's jargon
    expect(page.locator("#score-error")).to_contain_text("Cannot score: ")
    expect(page.locator("#score-error")).to_contain_text(re.compile(r"Seat \d · \w+'s flowers hold \w+: Baicheng rules have no flowers"))
    expect(page.locator("#score-error")).not_to_contain_text("invalid table record")
    expect(page.locator("#score-error")).not_to_contain_text("players[")
    assert page.errors == []


def test_chinese_page_shows_the_readers_problems_in_chinese(browser, server):
    page = open_page(browser, server, "baicheng")
    page.locator("#lang").click()
    photo = next(VALID_IMAGES.glob("hand_006_*.jpg"))
    answer = detect_answer(page, server, photo, "baicheng")
    assert answer["hand"]["problems"][0].startswith("Baicheng is played without flowers")
    answer["hand"]["problems"].append("the photo is blurred")  # a sentence the server has no Chinese for
    answer["hand"]["problems_zh"].append(None)
    page.route("**/api/detect", lambda route: route.fulfill(json=answer))
    page.set_input_files("#photo-file", str(photo))
    problems = page.locator("#problem-list li")
    expect(page.locator("#problems h3")).to_have_text("识别发现的问题")
    expect(problems.first).to_contain_text("白城麻将不用花牌：「春")  # Baicheng has no flowers
    expect(problems.first).not_to_contain_text("flowers")
    expect(problems.first).to_have_attribute("lang", "zh-Hans")
    expect(problems.last).to_have_text("（英文说明）the photo is blurred")
    hint = "点上面的牌或照片上的方框即可改牌" + ("，或采用下面的建议。" if answer["suggestions"] else "。")
    expect(page.locator("#problems-hint")).to_have_text(hint)  # what to do about them
    page.screenshot(path=ARTIFACTS / "e2e-chinese-problems.png", full_page=True)
    page.locator("#lang").click()
    expect(problems.first).to_have_text(re.compile("^Baicheng is played without flowers: (Spring|Summer|Autumn|Winter)"))
    expect(problems.first).not_to_have_text(re.compile(r"\b[1-8]f\b"))  # tiles named as the page names them
    expect(problems.last).to_have_text("The photo is blurred")  # begun with a capital
    expect(page.locator("#problems-hint")).to_have_text(re.compile(r"^Tap a tile above, or its box on the photo, to correct it"))
    assert page.errors == []


def test_the_tile_dialog_on_a_phone_closes_within_reach(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_003")
    page.locator('#groups [data-group="concealed"] .tile[data-code]').first.tap()
    dialog = page.locator("#tile-dialog")
    expect(dialog).to_be_visible()
    close = page.locator('#tile-dialog button[value="cancel"]').bounding_box()
    flowers = page.locator('#palette .palette-row .tile[data-code="8f"]').bounding_box()
    height = PHONE["viewport"]["height"]
    assert close["y"] + close["height"] <= height and flowers["y"] + flowers["height"] <= height  # all 42 in one screen
    page.mouse.click(4, 4)  # the backdrop
    expect(dialog).to_be_hidden()
    page.locator('#groups [data-group="concealed"] .tile[data-code]').first.tap()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.errors == []


def test_keyboard_focus_stays_where_the_player_is(browser, server):
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#rules", "daishan")
    page.locator("#rules").focus()
    for _ in range(12):  # Tab to the hidden file input of "Take a photo": its button shows the focus ring
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "photo-camera":
            break
    assert page.evaluate("getComputedStyle(document.activeElement.parentElement).outlineStyle") == "solid"
    detect = upload(page, "hand_006")
    order = [int(i) for i in page.locator("#overlay g.box").evaluate_all("gs => gs.map((g) => g.dataset.index)")]
    lefts = [detect["tiles"][i]["box"][0] for i in order]
    assert lefts == sorted(lefts)  # one row of tiles, in reading order
    expect(page.locator('#overlay g.box[tabindex="0"]')).to_have_count(1)  # the photo is one Tab stop
    page.locator(f'#overlay g[data-index="{order[0]}"]').focus()
    for _ in range(3):  # the arrow keys go left to right
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.index") == str(order[3])
    box = page.locator(f'#overlay g[data-index="{order[3]}"]')
    page.keyboard.press("Enter")
    page.locator('#palette .palette-row .tile[data-code="9p"]').last.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#tile-dialog")).to_be_hidden()
    # focus comes back once the page has drawn the corrected tile (later on a loaded machine): wait for it
    page.wait_for_function("(i) => document.activeElement?.dataset.index === i", arg=str(order[3]), timeout=10_000)
    expect(box).to_have_attribute("data-code", "9p")


def test_words_for_players_not_codes(browser, server):
    page = open_page(browser, server, "fuzhou")
    page.locator("#options-box summary").click()
    expect(page.locator("#options")).not_to_contain_text("discard_payer")
    expect(page.locator("#options")).to_contain_text("who pays a 点炮 win")
    upload(page, "hand_006")
    page.locator('#groups [data-group="concealed"] .tile.add').click()
    pick(page, "1p")
    pick(page, "2p")
    expect(page.locator("#tile-dialog-title")).to_have_text("Add to In hand — added: 1 Dot, 2 Dots")
    assert page.errors == []


def switch_rules(page: Page, rules: str) -> None:
    """Choose other rules and wait until every photographed hand is read again for them."""
    page.select_option("#rules", rules)
    read_again(page)


def hold_first(page: Page, url: str) -> list:
    """Hold the page's first request to ``url`` (a slow answer): it goes into the list returned, and on when the
    test calls its ``continue_()``; later requests go at once."""
    held = []
    page.route(url, lambda route: route.continue_() if held else held.append(route))
    return held


def first_held(page: Page, held: list):
    while not held:
        page.wait_for_timeout(50)
    return held[0]


def upload_held(page: Page, name: str):
    """Choose a `valid` photo whose reading is held (`hold_first`); returns the held request."""
    held = hold_first(page, "**/api/detect")
    page.set_input_files("#photo-file", str(next(VALID_IMAGES.glob(f"{name}_*.jpg"))))
    return first_held(page, held)


def test_a_fourth_tile_added_to_a_pung_read_from_the_photo_makes_it_a_kong(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "370280965")
    kinds = page.locator(".meld-kind")
    expect(kinds).to_have_text(["Pung ← Seat 2"])
    code = page.locator('#groups [data-group="meld:0"] .tile[data-code]').first.get_attribute("data-code")
    page.locator('#groups [data-group="meld:0"] .tile.add').click()
    pick(page, code)
    close_dialog(page)
    expect(kinds).to_have_text(["Exposed kong ← Seat 2"])  # claimed from the same seat
    assert page.errors == []


def test_changing_the_rules_keeps_the_players_melds(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "370280965")
    kinds = page.locator(".meld-kind")
    expect(kinds).to_have_text(["Pung ← Seat 2"])
    kinds.first.click()
    page.select_option("#meld-from", "3")
    page.locator('#meld-dialog button[value="done"]').click()
    page.locator("#add-meld").click()
    for _ in range(3):
        pick(page, "5p")
    close_dialog(page)
    kinds.nth(1).click()
    expect(page.locator("#meld-dialog-tiles")).to_have_attribute("aria-label", "5 Dots, 5 Dots, 5 Dots")  # what it edits
    expect(page.locator("#meld-dialog-tiles .tile")).to_have_count(3)
    page.select_option("#meld-from", "1")
    page.locator('#meld-dialog button[value="done"]').click()
    for rules in ("wenling", "daishan"):
        switch_rules(page, rules)
        expect(kinds).to_have_text(["Pung ← Seat 3", "Pung ← Seat 1"])
        assert hand_codes(page, "meld:0") == ["1m"] * 3 and hand_codes(page, "meld:1") == ["5p"] * 3
        assert "5p" not in hand_codes(page, "concealed")
    assert page.errors == []


def test_a_chow_is_claimed_only_from_the_player_before(browser, server):
    page = open_page(browser, server, "daishan")
    page.locator("#seat-tab-1").click()
    page.locator("#add-meld").click()
    for code in ("4p", "5p", "6p"):
        pick(page, code)
    close_dialog(page)
    kinds = page.locator(".meld-kind")
    expect(kinds).to_have_text(["Chow"])
    kinds.first.click()
    sources = page.locator("#meld-from option")
    expect(sources).to_have_text(["unknown", "Seat 0"])  # seat 1's 上家; a pung may come from any other seat
    page.locator('#meld-kinds input[value="pung"]').check()
    expect(sources).to_have_count(4)
    page.select_option("#meld-from", "2")
    page.locator('#meld-kinds input[value="chow"]').check()  # from seat 2 no chow can be: its source is unknown
    expect(page.locator("#meld-from")).to_have_value("")
    expect(sources).to_have_text(["unknown", "Seat 0"])
    assert page.errors == []


def test_chinese_melds_are_called_as_players_call_them(browser, server):
    page = open_page(browser, server, "daishan")
    page.locator("#lang").click()
    expect(page.locator("#add-meld")).to_have_text("+ 吃碰杠")  # not 副露, a word of Japanese mahjong
    page.locator("#add-meld").click()
    expect(page.locator("#tile-dialog-title")).to_have_text("加到第1组吃碰杠")
    for _ in range(3):
        pick(page, "5p")
    close_dialog(page)
    expect(page.locator(".meld-kind")).to_have_text(["碰"])
    expect(page.locator(".meld-kind")).to_have_attribute("aria-label", "第1组吃碰杠：碰——修改")
    page.locator(".meld-kind").click()
    expect(page.locator("#meld-dialog-title")).to_have_text("第1组吃碰杠")
    expect(page.locator("#meld-kinds label")).to_have_text(["吃", "碰", "明杠", "补杠", "暗杠"])
    expect(page.locator("#meld-remove")).to_have_text("删除这组吃碰杠")
    expect(page.locator("#meld-dialog label", has=page.locator("#meld-from"))).to_contain_text("吃碰杠谁的牌")  # kongs too
    expect(page.locator("#meld-from option").first).to_have_text("未知")
    page.locator('#meld-dialog button[value="done"]').click()
    expect(page.locator('#groups [data-group="win"] .hint')).to_have_text("未标出：请点一下和牌的那张，选“设为和牌张”。")
    add_tiles(page, "1m")
    page.locator('#groups [data-group="concealed"] .tile[data-code="1m"]').click()
    expect(page.locator("#tile-dialog-title")).to_have_text("修改「一萬」")
    expect(page.locator("#act-win")).to_have_text("设为和牌张")  # the button the hint above names
    expect(page.locator("#act-move option")).to_contain_text(["第1组吃碰杠（碰）"])  # Chinese brackets, not " (碰)"
    assert page.errors == []


def test_a_meld_claimed_from_the_seat_its_hand_is_moved_to_asks_its_source_again(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "370280965")
    kinds = page.locator(".meld-kind")
    kinds.first.click()
    page.select_option("#meld-from", "3")
    page.locator('#meld-dialog button[value="done"]').click()
    expect(kinds).to_have_text(["Pung ← Seat 3"])
    give_facts(page)
    page.select_option("#move-hand", "3")  # the photo was of seat 3's hand: its pung cannot be claimed from seat 3
    read_again(page)
    expect(page.locator("#hand-title")).to_contain_text("Seat 3")
    expect(kinds).to_have_text(["Pung"])
    scored(page)
    expect(page.locator("#score-error")).to_be_hidden()
    kinds.first.click()
    expect(page.locator("#meld-from")).to_have_value("")
    page.locator("#meld-dialog #meld-from").select_option("1")
    page.locator('#meld-dialog button[value="done"]').click()
    expect(kinds).to_have_text(["Pung ← Seat 1 · South"])
    assert page.errors == []


def test_the_scorers_refusal_of_a_meld_names_the_seats_meld_and_its_tiles(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "370280965")
    page.locator('#groups [data-group="concealed"] .tile[data-code]').last.click()
    page.locator("#act-win").click()
    give_facts(page)
    page.locator(".meld-kind").first.click()
    page.locator('#meld-kinds input[value="chow"]').check()  # three 1 Characters are no chow
    page.locator('#meld-dialog button[value="done"]').click()
    expect(page.locator("#score-error")).to_have_text(
        "Cannot score: Seat 0 · East's meld 1: 1 Character, 1 Character, 1 Character is not a chow (three "
        "consecutive tiles of one suit)")
    assert page.errors == []


def test_a_tile_the_photo_did_not_show_is_added_with_one_tap_and_undone(browser, server):
    page = open_page(browser, server, "daishan")
    photo = next(VALID_IMAGES.glob("370263729_*.jpg"))
    answer = detect_answer(page, server, photo, "daishan")
    assert answer["hand"]["problems"] == [] and answer["hand"]["concealed"] == "123555667788m55z"
    hidden = next(g for g in answer["hand"]["groups"] if g["kind"] == "concealed")["tiles"][-1]  # a 5z
    tiles = [tile for i, tile in enumerate(answer["tiles"]) if i != hidden]
    short = page.request.post(server + "api/group", data={
        "rules": "daishan", "width": answer["width"], "height": answer["height"], "tiles": tiles}).json()
    assert [s["added"] for s in short["suggestions"]] == [["5z"]]
    page.route("**/api/detect", lambda route: route.fulfill(json={**short, "width": answer["width"],
                                                                  "height": answer["height"], "tiles": tiles}))
    page.set_input_files("#photo-file", str(photo))
    suggestion = page.locator("#suggestion-list li")
    expect(suggestion).to_have_count(1)
    expect(suggestion).to_contain_text("add White (not found in the photo) (100%)")
    expect(page.locator("#problems-hint")).to_have_text(
        "Tap a tile above, or its box on the photo, to correct it, or accept a suggestion below.")
    before = sorted(hand_codes(page, "concealed") + hand_codes(page, "win"))
    suggestion.locator("button").click()
    assert sorted(hand_codes(page, "concealed") + hand_codes(page, "win")) == sorted(before + ["5z"])
    expect(page.locator("#suggestions")).to_be_hidden()
    expect(page.locator("#hand-title")).to_be_focused()  # the button is gone: the keyboard is on the hand
    page.locator("#undo").click()
    assert sorted(hand_codes(page, "concealed") + hand_codes(page, "win")) == before
    page.locator("#suggestion-list li button").click()
    switch_rules(page, "baicheng")  # read again for other rules: the added tile is the player's, and stays
    assert sorted(hand_codes(page, "concealed") + hand_codes(page, "win")) == sorted(before + ["5z"])
    assert page.errors == []


def test_a_slanted_row_is_one_row_in_a_suggestions_words(browser, server):
    page = open_page(browser, server, "daishan")
    photo = next(VALID_IMAGES.glob("hand_006_*.jpg"))
    answer = detect_answer(page, server, photo, "daishan")
    w, h, turn = answer["width"], answer["height"], math.radians(20)

    def slanted(box):  # the box's centre turned by 20° about the photo's centre (a hand photographed aslant)
        x, y = (box[0] + box[2]) / 2 - w / 2, (box[1] + box[3]) / 2 - h / 2
        x, y = x * math.cos(turn) - y * math.sin(turn) + w / 2, x * math.sin(turn) + y * math.cos(turn) + h / 2
        return [x - (box[2] - box[0]) / 2, y - (box[3] - box[1]) / 2, x + (box[2] - box[0]) / 2, y + (box[3] - box[1]) / 2]

    tiles = [{**tile, "box": slanted(tile["box"])} for tile in answer["tiles"]]
    fourth = sorted(range(len(tiles)), key=lambda i: answer["tiles"][i]["box"][0])[3]
    change = {"changes": [{"index": fourth, "tile": "9m"}], "added": [], "probability": 0.6, "text": "", "text_zh": None,
              "hand": answer["hand"], "win_tile": answer["hand"]["win_tile"]}
    page.route("**/api/detect", lambda route: route.fulfill(json={**answer, "tiles": tiles, "suggestions": [change]}))
    page.set_input_files("#photo-file", str(photo))
    expect(page.locator("#suggestion-list li")).to_contain_text("(tile 4 from the left in the photo) → 9 Characters")
    assert page.errors == []


def test_a_meld_being_built_asks_for_its_tiles_instead_of_a_refusal(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "370280965")
    page.locator("#add-meld").click()
    pick(page, "5p")
    close_dialog(page)
    expect(page.locator("#score-needed")).to_contain_text("meld 2 has 1 of its three or four tiles")
    expect(page.locator("#score-error")).to_be_hidden()
    assert page.errors == []


def test_undo_is_offered_in_view_only_until_the_next_change(browser, server, tmp_path):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_002")
    first = hand_codes(page)
    upload(page, "hand_003")
    undo = page.locator("#undo")
    expect(undo).to_be_in_viewport()
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    page.set_input_files("#photo-file", str(notes))
    expect(page.locator("#status")).to_contain_text("not an image")
    felt = tmp_path / "felt.jpg"
    cv2.imwrite(str(felt), np.full((480, 640, 3), (60, 110, 40), np.uint8))
    page.set_input_files("#photo-file", str(felt))
    expect(page.locator("#status")).to_contain_text("No tiles found")
    expect(undo).to_be_visible()  # a refused photo, or one without tiles, changed nothing: the offer stays
    undo.focus()
    page.keyboard.press("Enter")
    assert hand_codes(page) == first
    assert page.evaluate("document.activeElement.id") == "hand-title"  # the hand brought back
    expect(undo).to_be_hidden()

    upload(page, "hand_003")
    expect(undo).to_be_visible()
    page.locator('#groups [data-group="concealed"] .tile[data-code]').first.click()
    pick(page, "5s")
    expect(undo).to_be_hidden()  # Undo would wipe this correction: no longer offered
    page.locator("#new-hand").click()  # far down on a phone: the offer is shown where the player is
    expect(undo).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # at the page's end it covers nothing
    page.wait_for_timeout(300)
    bar, last = page.locator("#undo-bar").bounding_box(), page.locator("#print").bounding_box()
    assert last["y"] + last["height"] <= bar["y"], (last, bar)
    page.locator('input[name="by"][value="self_draw"]').check()
    expect(undo).to_be_hidden()
    assert page.errors == []


def test_undo_after_a_rules_change_reads_the_hand_for_the_rules_now_chosen(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_002")
    assert "6z" in hand_codes(page, "concealed")
    page.locator("#clear-hand").click()
    switch_rules(page, "fuzhou")
    page.locator("#undo").click()
    expect(page.locator('#groups [data-group="flowers"] .tile[data-code="6z"]')).to_have_count(3)  # Fuzhou's grouping
    read_again(page)
    assert "6z" not in hand_codes(page, "concealed")
    assert page.errors == []


def test_an_integer_option_out_of_range_is_refused_at_its_field(browser, server):
    page = open_page(browser, server, "daishan")
    page.locator("#options-box summary").click()
    for typed in ("99999999999999999999999", "1e25", "2.5", ""):
        page.fill("#option-di", typed)
        page.locator("#option-di").press("Tab")
        expect(page.locator("#option-di-problem")).to_have_text("A whole number from 1 to 1,000,000. Not saved: the value before is used.")
        expect(page.locator("#option-di")).to_have_attribute("aria-invalid", "true")
        assert "di" not in json.loads(page.evaluate("localStorage.getItem('mjcam.settings')"))["options"].get("daishan", {})
    upload(page, "hand_004")  # read with the value before

    # rules whose metadata gives no maximum: the largest whole number a page sends exactly
    regions = page.request.get(server + "api/regions").json()
    for option in regions["daishan"]["options"]:
        option.pop("maximum", None)
    page.route("**/api/regions", lambda route: route.fulfill(json=regions))
    settings = json.loads(page.evaluate("localStorage.getItem('mjcam.settings')"))
    settings["options"].setdefault("daishan", {})["di"] = 1e23  # kept by an older page: dropped on load, named at its field
    keep_settings(page, settings)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#option-di-problem")).to_contain_text("from 1 to 9,007,199,254,740,991")
    page.fill("#option-di", "1e25")
    page.locator("#option-di").press("Tab")
    expect(page.locator("#option-di-problem")).to_contain_text("from 1 to 9,007,199,254,740,991")
    upload(page, "hand_004")
    assert page.errors == []


def test_a_photo_read_while_the_rules_changed_is_read_for_the_new_rules(browser, server):
    page = open_page(browser, server, "daishan")
    reading = upload_held(page, "hand_002")
    page.select_option("#rules", "fuzhou")
    reading.continue_()
    expect(page.locator("#status")).to_contain_text("Found")
    expect(page.locator('#groups [data-group="flowers"] .tile[data-code="6z"]')).to_have_count(3)
    assert page.errors == []


def test_a_correction_made_while_the_hand_is_read_again_stays(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_002")
    held = hold_first(page, "**/api/group")
    page.select_option("#rules", "baicheng")
    regrouping = first_held(page, held)
    page.locator('#groups [data-group="concealed"] .tile[data-code="8m"]').first.click()
    pick(page, "9m")
    regrouping.continue_()  # its answer is about the hand before the correction: asked again
    read_again(page)
    assert hand_codes(page).count("9m") == 1 and hand_codes(page).count("8m") == 2
    assert page.errors == []


def test_the_rules_are_the_tabs_own_over_a_reload(browser, server):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#rules", "daishan")
    upload(page, "hand_002")
    other = context.new_page()  # another tab of the same browser chooses other rules
    other.goto(server)
    other.wait_for_selector("body[data-ready=true]")
    other.select_option("#rules", "fuzhou")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#rules")).to_have_value("daishan")
    assert "6z" in hand_codes(page, "concealed")
    # reloaded while being read again for other rules: read for them on load
    page.evaluate("""() => {
        const table = JSON.parse(sessionStorage.getItem('mjcam.hand'));
        sessionStorage.setItem('mjcam.hand', JSON.stringify({ ...table, rules: 'fuzhou' }));
    }""")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#rules")).to_have_value("fuzhou")
    expect(page.locator('#groups [data-group="flowers"] .tile[data-code="6z"]')).to_have_count(3)
    context.close()


def test_the_dealer_is_asked_each_hand_and_the_streak_kept(browser, server):
    page = open_page(browser, server, "fuzhou")
    page.select_option("#dealer", "1")
    page.fill("#streak", "2")
    page.locator("#streak").press("Tab")
    page.locator("#new-hand").click()
    expect(page.locator("#dealer")).to_have_value("")
    expect(page.locator("#streak")).to_have_value("2")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#dealer")).to_have_value("")
    page.select_option("#dealer", "1")  # the same dealer: the streak goes on
    expect(page.locator("#streak")).to_have_value("2")
    page.locator("#new-hand").click()
    page.select_option("#dealer", "2")  # another dealer: a streak of its own, from 0, not the last one's
    expect(page.locator("#streak")).to_have_value("0")
    assert page.errors == []


def test_the_readers_notes_follow_a_rules_change(browser, server):
    page = open_page(browser, server, "fuzhou")
    upload(page, "hand_006")
    problems = page.locator("#problem-list")
    expect(problems).to_contain_text("No tile is set apart")  # a sentence, begun with a capital
    switch_rules(page, "daishan")  # nothing corrected: the reader's notes for these rules
    expect(page.locator("#problems")).to_be_hidden()
    switch_rules(page, "fuzhou")
    expect(problems).to_contain_text("No tile is set apart")
    page.locator('#groups [data-group="concealed"] .tile[data-code="7m"]').first.click()
    page.locator("#act-win").click()
    for rules in ("daishan", "fuzhou"):  # the reader's notes on its own grouping no longer apply
        switch_rules(page, rules)
        assert hand_codes(page, "win") == ["7m"]
        expect(page.locator("#problems")).to_be_hidden()
        expect(page.locator("#need-list")).not_to_contain_text("3z")
    assert page.errors == []


def test_events_the_way_of_winning_rules_out_are_not_sent(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    if not hand_codes(page, "win"):
        page.locator('#groups [data-group="concealed"] .tile[data-code]').last.click()
        page.locator("#act-win").click()
    expect(page.locator("#score-needed")).to_have_text("No score yet: set how the hand was won (Won by) under “The table”.")
    page.locator('input[name="by"][value="self_draw"]').check()
    page.locator("#flag-last_tile").check()
    page.locator('input[name="by"][value="discard"]').check()
    expect(page.locator("#flag-last_tile")).to_be_disabled()
    expect(page.locator("#flag-last_tile")).not_to_be_checked()
    expect(page.locator("#flag-last_tile-note")).to_have_text("(only on a win by self-draw)")
    with page.expect_request("**/api/score") as request:
        page.select_option("#from", "2")
    assert request.value.post_data_json["win"]["flags"] == []
    scored(page)
    expect(page.locator("#score-error")).to_be_hidden()
    page.locator('input[name="by"][value="self_draw"]').check()
    expect(page.locator("#flag-last_tile")).to_be_checked()  # kept for the way of winning that allows it
    assert page.errors == []


def add_tiles(page: Page, codes: str) -> None:
    """Enter tiles through the palette into the hand shown, no photo."""
    page.locator('#groups [data-group="concealed"] .tile.add').click()
    for code in parse_tiles(codes):
        pick(page, code)
    close_dialog(page)


def self_drawn(browser, server, rules: str, codes: str, win: str) -> Page:
    """A page of ``rules`` with a hand entered through the palette (`type_hand`) and won by self-draw."""
    page = open_page(browser, server, rules)
    type_hand(page, codes, win)
    page.locator('input[name="by"][value="self_draw"]').check()
    return page


def type_hand(page: Page, codes: str, win: str) -> None:
    """Enter a hand through the palette, no photo: ``codes`` into the hand, ``win`` marked as winning."""
    add_tiles(page, codes)
    page.locator(f'#groups [data-group="concealed"] .tile[data-code="{win}"]').last.click()
    page.locator("#act-win").click()


@pytest.mark.parametrize("rules, tiles, win, asked", [
    ("baicheng", "888m777p666s666z77z", "7z", ["the dealer"]),
    ("wenling", "111m222m333m444p555p66p", "6p", ["the dealer", "the indicator"])])
def test_a_hand_entered_without_a_photo_waits_for_what_the_rules_ask(browser, server, rules, tiles, win, asked):
    page = open_page(browser, server, rules)
    type_hand(page, tiles, win)
    page.locator('input[name="by"][value="self_draw"]').check()
    for fact in asked:
        expect(page.locator("#score-needed")).to_contain_text(fact)
    if len(asked) > 1:  # a list in words: "the dealer and the indicator 得 (or None)"
        expect(page.locator("#score-needed")).to_contain_text(" and ".join(asked))
    expect(page.locator("#score-body")).to_be_hidden()
    page.select_option("#dealer", "1")
    if rules == "wenling":
        page.locator("#indicator-clear").click()
    expect(page.locator("#score-needed")).to_be_hidden()  # nothing more to say: a score, or why not
    assert page.errors == []


def test_a_winning_tile_marked_names_the_winner_a_hand_given_first_only_assumed(browser, server):
    page = open_page(browser, server, "wenling")
    add_tiles(page, "123m456m789m123p44s")  # seat 0's hand, given first: taken to be the winner's…
    expect(page.locator("#winner")).to_have_value("0")
    page.locator("#seat-tab-1").click()
    type_hand(page, "111m222m333m444p555p66p", "6p")  # …until another seat's winning tile is marked
    expect(page.locator("#winner")).to_have_value("1")
    page.locator("#seat-tab-2").click()
    type_hand(page, "111s222s333s444s555s66s", "6s")  # seat 1 has its winning tile: it stays the winner
    expect(page.locator("#winner")).to_have_value("1")
    assert page.errors == []


def test_a_rules_change_reads_every_box_but_those_removed(browser, server):
    page = open_page(browser, server, "fuzhou")
    upload(page, "hand_008")
    assert hand_codes(page, "flowers").count("7z") == 2
    removed = page.locator('#groups [data-group="concealed"] .tile[data-code]').first
    removed_code = removed.get_attribute("data-code")
    before = hand_codes(page).count(removed_code)
    removed.click()
    page.locator("#act-remove").click()
    for rules in ("wenling", "fuzhou"):
        switch_rules(page, rules)
    assert hand_codes(page, "flowers").count("7z") == 2  # left out by the Wenling reader, read again for Fuzhou
    assert hand_codes(page).count(removed_code) == before - 1
    assert page.errors == []


def test_an_indicator_said_after_the_photo_reads_the_hand_again_and_the_score_waits(browser, server):
    page = open_page(browser, server, "wenling")
    upload(page, "hand_004")
    assert "6z" in hand_codes(page, "concealed")
    held = hold_first(page, "**/api/group")
    page.locator("#indicator-pick").click()
    pick(page, "5z")
    regrouping = first_held(page, held)
    expect(page.locator("#score-needed")).to_contain_text("read again")
    regrouping.abort()  # the server cannot be reached: the score still waits, with a way to try again
    expect(page.locator("#regroup-retry")).to_be_visible()
    expect(page.locator("#score-body")).to_be_hidden()
    page.locator("#regroup-retry").click()
    expect(page.locator('#groups [data-group="flowers"] .tile[data-code="6z"]')).to_have_count(3)
    expect(page.locator("#regroup-retry")).to_be_hidden()
    assert page.errors == []


def test_each_seats_photo_goes_to_its_seat_and_the_page_stays_on_the_seat_chosen(browser, server):
    page = open_page(browser, server, "wenling")
    reading = upload_held(page, "hand_006")
    page.locator("#seat-tab-1").click()
    expect(page.locator("#seat-tab-1")).to_be_focused()  # drawn anew, the tab chosen keeps the keyboard
    upload(page, "hand_007")
    reading.continue_()
    expect(page.locator("#seat-tab-0")).to_contain_text("tiles")
    expect(page.locator("#seat-tab-1")).to_have_attribute("aria-pressed", "true")
    assert page.errors == []


@pytest.mark.parametrize("lose", ["#clear-hand", "#new-hand"])
def test_a_photo_still_being_read_does_not_fill_a_hand_cleared_meanwhile(browser, server, lose):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_002")
    reading = upload_held(page, "hand_004")
    page.locator(lose).click()
    with page.expect_response("**/api/detect"):
        reading.continue_()
    page.wait_for_timeout(500)  # the late answer handled
    expect(page.locator("#groups .tile[data-code]")).to_have_count(0)
    expect(page.locator("#undo-bar")).to_be_visible()  # the Clear's or New hand's Undo still offered
    assert page.errors == []


def test_a_tile_dialog_closes_when_its_hand_is_replaced(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_002")
    reading = upload_held(page, "hand_004")
    page.locator("#groups .tile[data-code]").first.click()
    expect(page.locator("#tile-dialog")).to_be_visible()
    reading.continue_()
    expect(page.locator("#tile-dialog")).to_be_hidden()
    assert page.errors == []


def test_events_the_facts_rule_out_are_greyed_out(browser, server):
    page = self_drawn(browser, server, "daishan", "123m456p789s11z555z", "1z")
    page.select_option("#dealer", "2")
    expect(page.locator("#flag-heaven")).to_be_disabled()
    expect(page.locator("#flag-heaven-note")).to_have_text("(only when the dealer wins)")
    page.select_option("#dealer", "0")
    expect(page.locator("#flag-heaven")).to_be_enabled()
    assert page.errors == []


def test_an_event_that_excludes_one_ticked_is_greyed_out(browser, server):
    page = self_drawn(browser, server, "fuzhou", "123m456p789s11m234s567p", "1m")
    page.select_option("#dealer", "0")
    page.locator("#flag-heaven").check()
    expect(page.locator("#flag-rob_gold")).to_be_disabled()
    expect(page.locator("#flag-rob_gold-note")).to_contain_text("(not with")
    page.locator("#flag-heaven").uncheck()
    expect(page.locator("#flag-rob_gold")).to_be_enabled()
    assert page.errors == []


def test_a_fuzhou_event_of_the_gold_is_greyed_out_at_a_table_without_one(browser, server):
    page = self_drawn(browser, server, "fuzhou", "123m456p789s11m234s567p", "1m")
    page.locator("#flag-gold_kan").check()
    page.locator("#indicator-clear").click()  # no 金 at this table
    expect(page.locator("#flag-gold_kan")).to_be_disabled()
    expect(page.locator("#flag-gold_kan-note")).to_have_text("(only with a 金 indicator)")
    expect(page.locator("#flag-heaven")).to_be_enabled()  # 天和 needs no 金
    assert page.errors == []


def test_a_baicheng_bao_draw_asks_for_the_bao(browser, server):
    page = self_drawn(browser, server, "baicheng", "123m456p789s555p22s", "2s")
    page.select_option("#dealer", "0")
    expect(page.locator("#score-body")).to_be_visible()
    page.locator("#flag-bao_draw").check()  # 摸宝 is scored only with the 宝 said
    expect(page.locator("#score-needed")).to_contain_text("the indicator 宝")
    assert page.errors == []


@pytest.mark.parametrize("how", ["tap", "click"])
def test_a_seat_tab_tapped_straight_after_typing_an_option_is_taken(browser, server, how):
    page = open_page(browser, server, "daishan")
    page.locator("#options-box summary").click()
    page.fill("#option-di", "3")  # its change comes as the field loses focus, as the tab is tapped
    getattr(page.locator("#seat-tab-2"), how)()
    expect(page.locator("#seat-tab-2")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("JSON.parse(localStorage.getItem('mjcam.settings')).options.daishan.di") == 3
    assert page.errors == []


def test_an_event_the_scorer_refuses_is_named_as_the_page_names_it(browser, server):
    page = self_drawn(browser, server, "daishan", "123m456p789s11z555z", "1z")
    page.locator("#flag-kong_replacement").check()  # no kong or flower: the scorer refuses it
    expect(page.locator("#score-error")).to_have_text(
        "Cannot score: “won on the tile drawn after a kong or flower (杠上开花)” needs a kong or flower of the winner: "
        "a replacement tile is drawn only after one")
    assert page.errors == []


def test_the_dealer_streak_is_checked_at_its_field(browser, server):
    page = open_page(browser, server, "fuzhou")
    page.fill("#streak", "3")
    page.locator("#streak").press("Tab")
    for bad in ("1e30", "101", "-2", "2.5"):
        page.fill("#streak", bad)
        page.locator("#streak").press("Tab")
        expect(page.locator("#streak-problem")).to_have_text("A whole number from 0 to 100. Not saved: the value before is used.")
    page.locator("#lang").click()  # the note said again in the language switched to
    expect(page.locator("#streak-problem")).to_have_text("须为 0 到 100 之间的整数。未保存，仍用原来的值。")
    page.locator("#lang").click()
    assert json.loads(page.evaluate("localStorage.getItem('mjcam.settings')"))["streak"] == 3
    upload(page, "hand_006")  # the reader asks for the streak: its field answers it, ticked
    expect(page.locator("#need-list li", has_text="kept the deal")).to_have_class(re.compile(r"\bgiven\b"))
    assert page.errors == []


def test_a_hand_kept_by_another_version_is_not_restored(browser, server):
    page = open_page(browser, server, "daishan")
    page.evaluate("sessionStorage.setItem('mjcam.hand', JSON.stringify({ flags: 'not a list', hands: 7 }))")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert hand_codes(page) == []
    assert page.errors == []


def test_chinese_events_are_named_as_each_regions_rules_name_them(browser, server):
    page = open_page(browser, server, "daishan")
    page.locator("#lang").click()
    expect(page.locator("#flags label", has=page.locator("#flag-heaven"))).to_have_text("天胡 ")  # 「天胡：庄家…」
    expect(page.locator("#flags label", has=page.locator("#flag-last_tile"))).to_contain_text("海底捞月")  # as its item
    page.select_option("#dealer", "0")  # the dealer (seat 0) wins: 地胡 is ruled out
    expect(page.locator("#flag-earth-note")).to_have_text("（仅限庄家打出的牌、由闲家和牌）")
    page.select_option("#rules", "fuzhou")
    expect(page.locator("#flags label", has=page.locator("#flag-heaven"))).to_have_text("天和 ")
    page.locator("#flag-heaven").check()
    expect(page.locator("#flag-rob_gold-note")).to_have_text("（不能与“天和”同时勾选）")
    page.locator('input[name="by"][value="discard"]').check()
    expect(page.locator("#from-field")).to_contain_text("放炮者/被抢杠者")
    page.select_option("#rules", "baicheng")  # no flowers: 杠开
    expect(page.locator("#flags label", has=page.locator("#flag-kong_replacement"))).to_contain_text("杠开（杠后补牌和）")
    page.select_option("#rules", "wenling")
    expect(page.locator("#flags label", has=page.locator("#flag-kong_replacement"))).to_contain_text("杠上开花（")
    page.locator('input[name="by"][value="self_draw"]').check()
    expect(page.locator("#flag-after_special_kong-note")).to_have_text("（须同时勾选“杠上开花”）")  # its short name
    page.locator("#lang").click()
    page.select_option("#rules", "daishan")
    expect(page.locator("#flags label", has=page.locator("#flag-heaven"))).to_contain_text("(天胡)")
    assert page.errors == []


def test_chinese_event_notes_follow_the_name_with_no_space_and_stay_whole_on_a_small_phone(browser, server):
    page = open_page(browser, server, "daishan", {**PHONE, "viewport": {"width": 360, "height": 640}})
    page.locator("#lang").click()
    type_hand(page, "123m456p789s11z555z", "1z")
    page.locator('input[name="by"][value="discard"]').check()
    note = page.locator("#flag-kong_replacement-note")
    expect(note).to_have_text("（仅限自摸）")
    assert page.locator("#flags label", has=note).text_content().strip() == "杠上开花（杠或补花后摸牌和）（仅限自摸）"
    notes = page.locator('#flags small[id$="-note"]:not(:empty)')
    expect(notes).to_have_count(3)  # 杠上开花, 海底捞月, 天胡: self-drawn only
    assert page.evaluate("""[...document.querySelectorAll('#flags small[id$="-note"]:not(:empty)')].every((note) =>
        getComputedStyle(note).whiteSpace === "nowrap" && note.getClientRects().length === 1)""")  # not "（仅限自 / 摸）"
    page.locator("#lang").click()
    expect(note).to_have_text("(only on a win by self-draw)")
    assert page.locator("#flags label", has=note).text_content().endswith(") (only on a win by self-draw)")  # a space between
    assert page.errors == []


def test_a_chinese_event_that_needs_the_indicator_asks_for_it_to_be_chosen_first(browser, server):
    page = open_page(browser, server, "fuzhou")
    page.locator("#lang").click()
    type_hand(page, *FUZHOU_HAND)
    give_facts(page)  # no 金
    expect(page.locator("#flag-three_golds-note")).to_have_text("（须先选定金牌）")  # as the refusal says, not 须有金
    expect(page.locator("#flag-three_golds")).to_be_disabled()
    assert page.errors == []


def test_chinese_questions_name_the_regions_indicator_and_keep_the_guess_open(browser, server):
    page = open_page(browser, server, "fuzhou")
    page.locator("#lang").click()
    upload(page, "hand_002", english=False)
    expect(page.locator("#need-list")).to_contain_text("翻出的金牌")
    expect(page.locator("#need-list")).not_to_contain_text("得、金或宝")
    expect(page.locator("#need-list")).to_contain_text("特殊情况（天和、抢金、三金倒、金坎）")  # the rules' own events
    expect(page.locator("#need-list")).not_to_contain_text("海底")  # a Daishan event
    assert page.errors == []


# -- reading the score at the table -------------------------------------------------------------------

def test_the_score_shows_how_each_total_is_worked_out_and_the_winners_sets(browser, server):
    page = open_page(browser, server, "fuzhou")
    type_hand(page, "123m456m789m123p456p55p", "5p")
    give_facts(page)
    page.locator("#indicator-pick").click()
    pick(page, "1m")  # the 金: the winner's 1m stands in for itself
    record = record_for("fuzhou", parse_tiles("123m456m789m123p456p55p"), "5p")
    result = score_table({**record, "indicator": "1m"})
    formula = result["players"][0]["formula"]
    assert "from P1" in formula
    expect(page.locator("#seat-score-0 .formula")).to_have_text("Worked out: " + re.sub(r"\bP(\d)", r"Seat \1", formula))
    sets = page.locator("#seat-score-0 .reading .set")
    expect(sets).to_have_count(len(result["reading"]))
    for i, block in enumerate(result["reading"]):
        expect(sets.nth(i).locator(".tile")).to_have_count(len(parse_tiles(block["tiles"])))
        assert [tile.get_attribute("data-code") for tile in sets.nth(i).locator(".tile").all()] == parse_tiles(block["tiles"])
    expect(page.locator("#seat-score-0 .set .tile.won")).to_have_attribute("data-code", "5p")
    expect(page.locator("#seat-score-0 .set .tile.wild")).to_have_attribute("data-code", "1m")
    expect(page.locator("#seat-score-0 .reading")).to_contain_text("★ a 金 standing in")
    expect(page.locator("#seat-scores .reading .set")).to_have_count(len(result["reading"]))  # the winner's only
    page.locator("#lang").click()
    expect(page.locator("#seat-score-0 .reading .hint")).to_have_text(  # the star explained inside the brackets
        "拆成以下几组（红框：和牌张；灰底：吃碰杠的牌；★：金，代替所示的牌）：")
    expect(page.locator("#seat-score-0 .formula")).to_have_text(  # each payment, then who pays it
        re.compile("^计算：\\d+（1号位付）\\+ \\d+（2号位付）\\+ \\d+（3号位付）= \\d+$"))

    page = open_page(browser, server, "wenling")  # a power of two, raised
    type_hand(page, "111m222m333m444p555p66p", "6p")
    give_facts(page)
    expect(page.locator("#seat-score-0 .formula")).to_have_text("Worked out: (28 + 20) × 23 = 384 → 390")
    expect(page.locator("#seat-score-0 .formula sup")).to_have_text("3")
    expect(page.locator("#seat-score-1 .formula")).to_have_text("Worked out: (0 + 20) × 20 = 20")
    expect(page.locator("#seat-score-0 .reading .hint")).to_have_text(  # no wild: no star
        "Read as these sets (winning tile ringed red, melds shaded):")
    triplet = page.locator("#seat-score-0 .items summary").nth(1)  # its tiles drawn, not written "111m"
    expect(triplet).to_contain_text("concealed triplet of winds, terminals or dragons:")
    expect(triplet).not_to_contain_text("111m")
    assert [tile.get_attribute("data-code") for tile in triplet.locator(".set .tile").all()] == ["1m"] * 3
    page.locator("#score").screenshot(path=ARTIFACTS / "e2e-score-worked-out.png")
    no_de = page.locator("#seat-score-0 .items summary").filter(has_text="无“得”")
    expect(no_de.locator(".rule")).to_have_count(0)  # "no 得 无“得”", not "无“得” 无得" after it in English too
    why = page.locator("#payments tr td:nth-child(4)")  # who pays whom, and why: in the page's language
    expect(why.first).to_have_text("to the winner (points ÷ 10)")
    page.locator("#lang").click()
    expect(why.first).to_have_text("和牌支付（牌点汇总/10）")
    expect(page.locator("#seat-score-0 .reading .hint")).to_have_text("拆成以下几组（红框：和牌张；灰底：吃碰杠的牌）：")
    rules = page.locator("#seat-score-0 .items .rule")  # a rule term the Chinese name holds is not said again
    expect(page.locator("#seat-score-0 .items summary").filter(has_text="无“得”").locator(".rule")).to_have_count(0)
    expect(rules.filter(has_text="幺九").first).to_have_text("暗刻（幺九）")  # in Chinese brackets
    assert all("(" not in text for text in rules.all_inner_texts())
    assert page.errors == []


def test_a_daishan_total_says_who_pays_it(browser, server):
    page = self_drawn(browser, server, "daishan", "123m456p789s11z555z", "1z")
    expect(page.locator("#seat-score-0 .formula")).to_contain_text("; each of the three pays it")
    heading = page.locator("#seat-score-0 h3")
    total = page.locator("#seat-score-0 .total").inner_text()
    expect(heading).to_have_text(re.compile(f"— {total} 分 from each of the three$"))  # not its net, 3 × that
    won_on_discard(page, 2)
    expect(heading).to_have_text(re.compile(r"— \d+ 分 from the discarder$"))
    page.locator("#lang").click()
    expect(heading).to_have_text(re.compile(r"— 放炮者付 \d+ 分$"))
    page.locator('input[name="by"][value="self_draw"]').check()
    expect(page.locator("#seat-score-0 .formula")).to_contain_text("；三家各付")
    expect(heading).to_have_text(re.compile(f"— 三家各付 {total} 分$"))
    assert page.errors == []


FUZHOU_HAND = ("123m456m789m123p456p55p", "5p")


def test_a_none_said_for_one_rules_indicator_is_asked_again_after_an_undo_under_others(browser, server):
    page = open_page(browser, server, "fuzhou")
    type_hand(page, *FUZHOU_HAND)
    give_facts(page)  # None for the 金
    expect(page.locator("#score-body")).to_be_visible()
    page.locator("#new-hand").click()
    switch_rules(page, "wenling")
    page.locator("#undo").click()
    expect(page.locator("#score-needed")).to_contain_text("the indicator 得")  # not taken as "no 得"
    assert page.errors == []


def test_a_streak_typed_for_this_hand_is_its_dealers_whoever_is_chosen(browser, server):
    page = open_page(browser, server, "fuzhou")
    page.fill("#streak", "1")
    page.locator("#streak").press("Tab")
    page.select_option("#dealer", "1")  # a slip…
    expect(page.locator("#streak")).to_have_value("1")
    page.select_option("#dealer", "0")  # …corrected: the streak typed is the dealer's, not the slip's
    expect(page.locator("#streak")).to_have_value("1")
    page.fill("#streak", "2")
    page.locator("#streak").press("Tab")
    page.locator("#new-hand").click()  # kept for the next hand as the last dealer's: another dealer's is 0…
    page.select_option("#dealer", "3")
    expect(page.locator("#streak")).to_have_value("0")
    page.select_option("#dealer", "0")  # …and the last dealer's comes back
    expect(page.locator("#streak")).to_have_value("2")
    assert page.errors == []


def test_undo_brings_back_the_streak_the_hand_was_scored_with(browser, server):
    page = open_page(browser, server, "fuzhou")
    type_hand(page, *FUZHOU_HAND)
    give_facts(page)
    page.fill("#streak", "3")
    page.locator("#streak").press("Tab")
    expect(page.locator("#score-body")).to_be_visible()
    scored(page)  # the score with streak 3
    net = page.locator("#net-0").inner_text()
    page.locator("#new-hand").click()
    page.fill("#streak", "4")  # the next hand's
    page.locator("#streak").press("Tab")
    page.locator("#undo").click()
    expect(page.locator("#streak")).to_have_value("3")
    scored(page)
    expect(page.locator("#score-body")).to_be_visible()
    expect(page.locator("#net-0")).to_have_text(net)
    assert page.errors == []


def test_a_score_on_its_way_marks_the_one_shown_as_old(browser, server):
    page = open_page(browser, server, "fuzhou")
    type_hand(page, *FUZHOU_HAND)
    give_facts(page)
    scored(page)
    net = page.locator("#net-0").inner_text()
    held = hold_first(page, "**/api/score")
    page.fill("#streak", "3")
    page.locator("#streak").press("Tab")
    answer = first_held(page, held)
    expect(page.locator("#score")).to_have_attribute("aria-busy", "true")
    expect(page.locator("#net-0")).to_have_text(net)  # still the old score, shown faded
    answer.continue_()
    scored(page)
    expect(page.locator("#net-0")).not_to_have_text(net)
    assert page.errors == []


@pytest.mark.parametrize("rules, hand, flag, name", [
    ("baicheng", ("888m777p666s666z77z", "7z"), "bao_draw", "宝"),
    ("fuzhou", ("123m456m789m123p456p55p", "5p"), "rob_gold", "金"),
])
def test_an_event_won_on_the_indicator_is_greyed_for_another_winning_tile(browser, server, rules, hand, flag, name):
    page = self_drawn(browser, server, rules, *hand)
    page.locator("#indicator-pick").click()
    pick(page, "9m")
    box = page.locator(f"#flag-{flag}")
    expect(box).to_be_disabled()
    expect(page.locator(f"#flag-{flag}-note")).to_have_text(f"(only when the winning tile is the {name})")
    assert page.errors == []


def test_a_baicheng_score_without_the_bao_says_so(browser, server):
    page = self_drawn(browser, server, "baicheng", "888m777p666s666z77z", "7z")
    page.select_option("#dealer", "0")
    expect(page.locator("#score-assumed")).to_have_text("Scored with no 宝: if one is turned up, set it under “The table”.")
    page.locator("#indicator-clear").click()  # none turned up: said
    expect(page.locator("#score-assumed")).to_be_hidden()
    assert page.errors == []


@pytest.mark.parametrize("how", ["button", "move"])
def test_a_wenling_lazi_won_on_a_flower_drawn_keeps_the_flower_laid_aside(browser, server, how):
    page = open_page(browser, server, "wenling")
    add_tiles(page, "2345m1788p679s66z111z")  # 16: no complete hand, none needed
    page.locator('#groups [data-group="flowers"] .tile.add').click()
    for code in ("5f", "6f", "7f", "8f"):  # four 黑花: a 腊子, completed by the 8f drawn
        pick(page, code)
    close_dialog(page)
    page.locator('#groups [data-group="flowers"] .tile[data-code="8f"]').click()
    if how == "button":
        page.locator("#act-win").click()
    else:
        page.select_option("#act-move", "win")
    page.locator('input[name="by"][value="self_draw"]').check()
    page.select_option("#dealer", "0")
    page.locator("#indicator-pick").click()
    with page.expect_request("**/api/score") as request:
        pick(page, "3s")
    player = request.value.post_data_json["players"][0]
    assert sorted(parse_tiles(player["concealed"])) == sorted(parse_tiles("2345m1788p679s66z111z"))
    assert player["flowers"] == "5678f"
    assert request.value.post_data_json["win"]["tile"] == "8f"
    expect(page.locator("#seat-score-0 .total")).to_have_text("500")
    expect(page.locator("#seat-score-0 .formula")).to_have_text("Worked out: 腊子: the limit, 500")  # English words
    page.locator("#lang").click()
    expect(page.locator("#seat-score-0 .formula")).to_have_text("计算：腊子和为满贯 = 500")
    assert page.errors == []


def test_a_chinese_breakdown_names_each_item_in_chinese_with_its_tiles(browser, server):
    page = open_page(browser, server, "fuzhou")
    type_hand(page, "123m456m789m123p456p55p", "5p")
    give_facts(page)  # seat 0, the dealer, self-draws
    page.fill("#streak", "2")
    page.locator("#streak").press("Tab")
    page.locator("#indicator-pick").click()
    pick(page, "1m")  # the 金: one in the hand
    items = page.locator("#seat-score-0 .items summary")
    expect(items.filter(has_text="golds")).to_have_count(1)  # English: the English name, its tiles in it
    expect(items.filter(has_text="base").locator(".rule")).to_have_count(0)  # 基数 5 says its rule term, 5
    page.locator("#lang").click()
    expect(items.filter(has_text="连庄")).to_have_text("连庄（每家都付）")  # no "dealer streak: each payer"
    expect(page.locator("#print-summary")).to_have_text("福州麻将 · 庄家：0号位 · 东 · 和牌者：0号位 · 东，自摸")
    gold = items.filter(has=page.locator('.tile[data-code="1m"]'))
    expect(gold).to_have_count(1)
    expect(gold.locator("span").first).to_contain_text("金")
    for text in items.all_inner_texts():
        assert not re.search(r"[A-Za-z]", text), text
    assert page.errors == []


def score_on_a_small_phone(browser, server, chinese: bool) -> Page:
    """A Fuzhou hand won on seat 2's discard, scored on a 360 px phone in Chinese or English: nothing to scroll
    sideways."""
    page = open_page(browser, server, "fuzhou", {**PHONE, "viewport": {"width": 360, "height": 640}})
    if chinese:
        page.locator("#lang").click()
    type_hand(page, "123m456m789m123p456p55p", "5p")
    give_facts(page)
    won_on_discard(page, 2)
    expect(page.locator("#payments td").first).to_contain_text("1号位 · 南" if chinese else "Seat 1")
    assert page.evaluate("[document.documentElement, document.getElementById('score-body')]"
                         ".every((e) => e.scrollWidth <= e.clientWidth)")  # "North" was cut off: 13 px too wide
    return page


def lines_of(page: Page, selector: str) -> list[list]:
    """[text, lines it takes] of each element ``selector`` finds."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)].map((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        return [e.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
    })""", selector)


def test_the_chinese_score_tables_fit_a_small_phone_without_breaking_words(browser, server):
    page = score_on_a_small_phone(browser, server, chinese=True)
    expect(page.locator("#print-summary")).to_have_text("福州麻将 · 庄家：0号位 · 东 · 和牌者：0号位 · 东，点炮（2号位 · 西）")  # whose discard
    lines = lines_of(page, "#net-table th, #payments th, .seat span")
    assert ["付方", 1] in lines and ["0号位", 1] in lines  # headers and a seat's parts are never broken
    assert [text for text, n in lines if n > 1 and "号位 ·" not in text] == [], lines
    assert page.errors == []


def test_the_english_net_table_fits_a_small_phone_with_each_seat_broken_only_before_its_wind(browser, server):
    page = score_on_a_small_phone(browser, server, chinese=False)
    expect(page.locator("#print-summary")).to_have_text(
        "Fuzhou 福州 · Dealer: Seat 0 · East · Winner: Seat 0 · East, discard from Seat 2 · West")  # as the menu
    lines = lines_of(page, "#net-table .seat span, #payments .seat span")
    assert len(lines) > 8 and {n for _, n in lines} == {1}  # "Seat 3" and "· North" each on one line, Pays and To too
    assert page.errors == []


def test_a_refusal_names_the_pages_groups_not_the_records_fields(browser, server):
    page = open_page(browser, server, "fuzhou")
    type_hand(page, "123m456m789m123p456p5p1z", "5p")  # East typed into the hand: a flower in Fuzhou
    give_facts(page)
    expect(page.locator("#score-error")).to_have_text(
        "Cannot score: Seat 0 · East's tiles in hand hold East; in Fuzhou rules honours and flowers are flowers, "
        "laid aside under “Flowers”")  # not "concealed tiles", not "in 'flowers'"
    lay = page.locator("#score-fixes button")
    expect(lay).to_have_text(["lay East aside"])  # one tap, not the tile dialog's Move to
    lay.click()
    assert hand_codes(page, "flowers") == ["1z"] and "1z" not in hand_codes(page, "concealed")
    expect(page.locator("#undo-note")).to_have_text("East laid aside with the flowers.")
    expect(page.locator("#score-error")).not_to_contain_text("hold East")
    assert page.errors == []


def test_payers_whose_items_only_make_up_their_payment_show_no_total_of_zero(browser, server):
    page = open_page(browser, server, "baicheng")
    type_hand(page, "888m777p666s666z77z", "7z")
    give_facts(page)
    expect(page.locator("#seat-score-0 h3")).to_contain_text("total")  # the winner's total
    expect(page.locator("#seat-score-1 h3")).to_have_text("Seat 1 · South — what its payment is made of")
    expect(page.locator("#seat-scores")).not_to_contain_text("total 0")
    why = page.locator("#payments tr td:nth-child(4)").first  # the power summed and raised, its terms after it
    expect(why).to_have_text(  # each term kept whole on a narrow screen: "dealer" and its 1 joined by no-break spaces
        re.compile(r"^the win: 1 × 2\d+ = \d+ \(\d+\u00a0番( \+ (dealer|discarder|背靠背)\u00a01)*\)$"))
    expect(why.locator("sup")).to_have_text(re.compile(r"^\d+$"))
    row, payer = page.locator("#payments tr").nth(1).bounding_box(), page.locator("#payments tr td").first.bounding_box()
    cell = why.bounding_box()  # on a phone: under who pays whom, the row's whole width, not a column of a few words
    assert cell["x"] == payer["x"] and cell["y"] > payer["y"] and cell["width"] > 0.9 * row["width"]
    page.locator("#lang").click()
    expect(page.locator("#seat-score-0 .formula")).to_have_text(  # the winner's 番, then how each payer's is made
        re.compile(r"^计算：和牌者\s\d+\s番；每家付 底 × 2\(番数 \+ 庄 \+ 点炮 \+ 背靠背\)$"))
    expect(page.locator("#seat-score-0 .formula sup")).to_have_text("(番数 + 庄 + 点炮 + 背靠背)")  # one power, bracketed
    page.locator("#options-box summary").click()
    page.select_option("#option-model", label="线性")
    expect(page.locator("#seat-score-0 .formula")).to_contain_text("（和庄有关 0.4，否则 0.2）")  # 「和庄有關時」
    expect(page.locator("#seat-score-0 .formula")).to_contain_text("× 底 × (1 + 番数 + 各项)")
    assert page.errors == []


def test_a_settlement_with_blank_seats_says_so_in_the_score(browser, server):
    page = open_page(browser, server, "wenling")
    type_hand(page, "111m222m333m444p555p66p", "6p")
    give_facts(page)
    note = page.locator("#score-blank")
    expect(note).to_have_text("Seat 1, Seat 2 and Seat 3 are blank: scored from their melds and flowers only, so the nets may change — "
                              "photograph or enter their hands for the full settlement.")
    page.locator("#seat-tab-1").click()
    add_tiles(page, "456m789m123s456s789p7p")
    expect(note).to_have_text(re.compile("^Seat 2 and Seat 3 are blank: "))
    page.locator("#seat-tab-2").click()
    add_tiles(page, "123p456p789p1234z66z7z")
    expect(page.locator("#net-2")).to_have_text("-37")
    expect(note).to_have_text("Seat 3 is blank: scored from its melds and flowers only, so the nets may change — "
                              "photograph or enter its hand for the full settlement.")
    page.select_option("#winner", "none")  # a drawn hand pays nothing, whatever the blank seat holds
    expect(note).to_be_hidden()
    expect(page.locator("#blank-note")).to_be_hidden()
    page.select_option("#winner", "0")
    expect(note).to_be_visible()
    page.locator("#lang").click()
    expect(note).to_have_text("3号位是空的：只按吃碰杠和花计分，输赢可能还会变——拍下或输入这家的牌，才是完整结算。")
    expect(page.locator("#blank-note")).to_have_text(
        "这套规则四家都要算分。未录入：3号位 · 北——只按吃碰杠和花牌计分；请逐家拍照或输入。")
    page.locator("#seat-tab-1").click()
    page.locator("#clear-hand").click()
    expect(page.locator("#blank-note")).to_contain_text("未录入：1号位 · 南、3号位 · 北——")  # 、 not ", "
    page.locator("#seat-tab-0").click()
    page.locator("#clear-hand").click()  # the winner's own hand blank: no score, nothing to name
    expect(page.locator("#score-body")).to_be_hidden()

    page = open_page(browser, server, "daishan")  # rules that score the winner alone
    type_hand(page, "123m456p789s11z555z", "1z")
    give_facts(page)
    expect(page.locator("#net-0")).to_be_visible()
    expect(note).to_be_hidden()
    assert page.errors == []


PHOTO_IN_VIEW = """() => {
    const photo = document.getElementById('photo').getBoundingClientRect();
    return photo.top >= 0 && photo.bottom <= document.querySelector('.thumb-bar').getBoundingClientRect().top;
}"""  # the photo with its boxes wholly on the screen, above the quick-action bar


def test_a_new_photo_is_brought_into_view_on_a_phone(browser, server):
    page = open_page(browser, server, "daishan", {**PHONE, "viewport": {"width": 412, "height": 640}})
    upload(page, "hand_004")  # its row's band shown, under the capture buttons: below the screen's end
    # scrolled (smoothly) until the line about it is at the top of the screen, the photo under it
    page.wait_for_function(f"() => ({PHOTO_IN_VIEW})() && Math.abs(document.getElementById('status').getBoundingClientRect().top - 8) < 1")
    page.screenshot(path=ARTIFACTS / "e2e-photo-in-view.png")
    page.evaluate("scrollTo(0, 0)")
    switch_rules(page, "fuzhou")  # read again for other rules: the page stays where the player is
    page.wait_for_timeout(600)
    assert page.evaluate("scrollY") == 0 and not page.evaluate(PHOTO_IN_VIEW)
    assert page.errors == []


def small_targets(page: Page, least: int = 40) -> list[str]:
    """What a finger aims at on the screen that is under ``least`` px either way (a checkbox or radio by its
    label)."""
    return page.evaluate("""(least) => [...document.querySelectorAll(
            'button, a, select, summary, input:not([type=checkbox], [type=radio], .visually-hidden), '
            + 'label:has(> input[type=checkbox]), label:has(> input[type=radio])')]
        .filter((el) => el.checkVisibility())
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.width < least || r.height < least)
        .map(([el, r]) => `${el.id || el.className || el.tagName} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.width)}×${Math.round(r.height)}`)""",
        least)


def test_every_tap_target_on_a_phone_is_at_least_40_px(browser, server):
    page = open_page(browser, server, "wenling", SMALL_PHONE)
    type_hand(page, "222m333m444p555p66p", "6p")
    page.locator("#add-meld").click()
    for _ in range(3):
        pick(page, "1m")
    close_dialog(page)
    give_facts(page)
    page.select_option("#dealer", "1")
    expect(page.locator("#score-body")).to_be_visible()
    page.locator("#options-box summary").click()
    for lang in ("en", "zh"):
        assert small_targets(page) == [], lang
        page.locator('#groups [data-group="concealed"] .tile[data-code]').first.click()
        assert small_targets(page) == [], lang
        dialog = page.locator("#tile-dialog").bounding_box()
        rows = [[tile.bounding_box() for tile in row.locator(".tile").all()] for row in page.locator("#palette .palette-row").all()]
        suits = [boxes for boxes in rows if len(boxes) == 9]
        assert len(suits) == 3
        for boxes in suits:  # each in one row, within the dialog
            assert len({box["y"] for box in boxes}) == 1
            assert boxes[-1]["x"] + boxes[-1]["width"] <= dialog["x"] + dialog["width"]
        if lang == "en":
            page.screenshot(path=ARTIFACTS / "e2e-palette-phone.png")
        close_dialog(page)
        page.locator(".meld-kind").click()
        assert small_targets(page) == [], lang
        page.locator('#meld-dialog button[value="done"]').click()
        page.locator("#lang").click()
        scored(page)  # the score drawn again in the other language
    assert page.errors == []


def test_on_a_360_px_phone_the_palette_keeps_nine_tiles_a_row_each_a_finger_wide(browser, server):
    page = open_page(browser, server, "wenling", {**PHONE, "viewport": {"width": 360, "height": 740}})
    page.locator('#groups [data-group="concealed"] .tile.add').click()
    dialog = page.locator("#tile-dialog").bounding_box()
    rows = [[tile.bounding_box() for tile in row.locator(".tile").all()] for row in page.locator("#palette .palette-row").all()]
    assert [len(boxes) for boxes in rows] == [9, 9, 9, 7, 8]  # suits, honours, flowers: no row of five and four
    for boxes in rows:
        assert len({box["y"] for box in boxes}) == 1 and boxes[-1]["x"] + boxes[-1]["width"] <= dialog["x"] + dialog["width"]
        assert all(box["width"] >= 36 and box["height"] >= 44 for box in boxes)
    assert page.errors == []


def test_a_hand_photographed_with_the_wrong_seat_chosen_is_moved_to_its_seat(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")  # seat 0 was chosen, but it is seat 2's hand
    read = hand_codes(page)
    page.select_option("#move-hand", "2")
    read_again(page)
    expect(page.locator("#seat-tab-2")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#hand-title")).to_contain_text("Seat 2")
    expect(page.locator("#seat-tab-0")).to_contain_text("blank")
    expect(page.locator("#seat-tab-2 .badge")).to_have_text("won")  # the winner, never chosen, moves with it
    assert sorted(hand_codes(page)) == sorted(read)
    expect(page.locator("#undo-note")).to_have_text("The hand was moved from Seat 0 to Seat 2.")
    page.locator("#undo").click()
    expect(page.locator("#seat-tab-0")).not_to_contain_text("blank")
    expect(page.locator("#seat-tab-2")).to_contain_text("blank")
    expect(page.locator("#hand-title")).to_contain_text("Seat 0")  # back on the seat whose hand it brought back
    page.locator("#seat-tab-1").click()
    expect(page.locator("#move-hand")).to_be_disabled()  # a blank seat has nothing to move
    upload(page, "hand_005")
    page.select_option("#move-hand", "0")  # two photographed hands swap: the winner, never chosen, follows its hand
    expect(page.locator("#seat-tab-1 .badge")).to_have_text("won")
    expect(page.locator("#seat-tab-0 .badge")).to_have_count(0)
    assert page.errors == []


@pytest.mark.parametrize("seat_2_had", [None, "hand_005"])
def test_a_photo_that_replaced_a_corrected_hand_moved_to_its_seat_brings_that_hand_back(browser, server, seat_2_had):
    page = open_page(browser, server, "daishan")
    seat_2 = []
    if seat_2_had:
        page.locator("#seat-tab-2").click()
        upload(page, seat_2_had)
        seat_2 = hand_codes(page)
        page.locator("#seat-tab-0").click()
    correct_a_tile(page)
    corrected = hand_codes(page)
    upload(page, "hand_004")  # seat 2's hand, taken with seat 0 still chosen: it replaces the corrected hand
    read = hand_codes(page)
    page.select_option("#move-hand", "2")
    read_again(page)
    replacing = " replacing Seat 2's," if seat_2_had else ""
    expect(page.locator("#undo-note")).to_have_text(
        f"The hand was moved from Seat 0 to Seat 2,{replacing} and Seat 0's hand it had replaced is back.")
    assert sorted(hand_codes(page)) == sorted(read)
    if not seat_2_had:
        expect(page.locator("#seat-tab-0 .badge")).to_have_text("won")  # the hand read first keeps the winner
    page.locator("#seat-tab-0").click()
    assert hand_codes(page) == corrected
    page.locator("#undo").click()  # the table as it was before the photo: both hands as they were
    expect(page.locator("#hand-title")).to_contain_text("Seat 0")
    assert hand_codes(page) == corrected
    page.locator("#seat-tab-2").click()
    assert hand_codes(page) == seat_2
    assert page.errors == []


COVERED = """() => {
  const focused = document.activeElement, box = focused.getBoundingClientRect();
  if (focused === document.body || focused.closest(".thumb-bar, #undo-bar") || !box.height) return null;
  const covers = [".thumb-bar", "#undo-bar"].map((s) => document.querySelector(s))
    .filter((el) => el.getClientRects().length);
  const over = covers.find((el) => {
    const r = el.getBoundingClientRect();
    return box.bottom > r.top + 1 && box.top < r.bottom;
  });
  return over ? `${focused.tagName}#${focused.id} "${(focused.textContent || "").trim().slice(0, 30)}"` : null;
}"""


def test_a_control_reached_by_the_keyboard_is_never_under_the_bottom_bars(browser, server):
    small = {**PHONE, "viewport": {"width": 360, "height": 640}, "has_touch": False}
    page = open_page(browser, server, "daishan", small)
    correct_a_tile(page)  # a hand, and no Undo bar: then a hand replaced, with the Undo offer open
    for replaced in (False, True):
        if replaced:
            upload(page, "hand_004")
            expect(page.locator("#undo-bar")).to_be_visible()
        page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
        covered = []
        for _ in range(80):
            page.keyboard.press("Tab")
            covered.append(page.evaluate(COVERED))
        assert [c for c in covered if c] == [], replaced
    assert page.errors == []


def test_the_chosen_seat_shows_in_forced_colours(browser, server):
    page = open_page(browser, server, "daishan")
    page.emulate_media(forced_colors="active")
    colours = page.evaluate("""[...document.querySelectorAll('#seat-tabs button')].map((b) => {
      const style = getComputedStyle(b);
      return [b.getAttribute('aria-pressed'), style.backgroundColor, style.borderTopWidth];
    })""")
    chosen = [c for c in colours if c[0] == "true"]
    others = {tuple(c[1:]) for c in colours if c[0] != "true"}
    assert len(chosen) == 1 and tuple(chosen[0][1:]) not in others
    assert page.errors == []


def test_the_status_line_names_the_hands_doubtful_tiles(browser, server):
    # hand_003 reads as a legal hand, its 1f at confidence 0.48: a misread there would score wrong unnoticed
    page = open_page(browser, server, "daishan")
    detect = upload(page, "hand_003")
    held = [i for group in detect["hand"]["groups"] for i in group["tiles"]]
    assert [detect["tiles"][i]["tile"] for i in held if detect["tiles"][i]["confidence"] < 0.5] == ["1f"]
    assert detect["hand"]["problems"] == []
    status = page.locator("#status")
    expect(status).to_contain_text("doubtful). Check the hand's doubtful tiles (dashed orange): Spring.")
    page.locator("#lang").click()
    expect(status).to_contain_text("请核对手牌中不确定的牌（橙色虚线）：春。")
    assert page.errors == []


def test_the_status_line_follows_the_language(browser, server, tmp_path):
    page = open_page(browser, server, "daishan")
    detect = upload(page, "hand_004")
    found = len(detect["tiles"])
    doubtful = sum(tile["confidence"] < 0.5 for tile in detect["tiles"])
    status = page.locator("#status")
    expect(status).to_have_text(f"Found {found} tiles ({doubtful} doubtful).")
    page.locator("#lang").click()
    expect(status).to_have_text(f"找到{found}张牌（{doubtful}张不确定）。")
    page.locator("#lang").click()
    expect(status).to_have_text(f"Found {found} tiles ({doubtful} doubtful).")
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    page.set_input_files("#photo-file", str(notes))
    expect(status).to_have_text("notes.jpg: not an image (JPEG, PNG, WebP, AVIF, BMP or TIFF expected)")
    page.locator("#lang").click()  # the server's own Chinese for it
    expect(status).to_have_text("notes.jpg：不是图片（请用 JPEG、PNG、WebP、AVIF、BMP 或 TIFF）")
    expect(status).to_have_class(re.compile("error"))
    page.locator("#lang").click()
    expect(status).to_have_text("notes.jpg: not an image (JPEG, PNG, WebP, AVIF, BMP or TIFF expected)")
    page.locator("#clear-hand").click()  # the Undo bar's note follows the language too
    note = page.locator("#undo-note")
    english = note.inner_text()
    assert english.isascii() and english
    page.locator("#lang").click()
    expect(note).not_to_have_text(english)
    assert not note.inner_text().isascii()
    assert page.errors == []


def test_the_score_says_whether_the_bao_facts_ticked_come_to_bao(browser, server):
    page = open_page(browser, server, "wenling")
    type_hand(page, "111m222m333m444p555p66p", "6p")
    give_facts(page)
    won_on_discard(page, 2)
    note = page.locator("#score-bao")
    expect(page.locator("#score-body")).to_be_visible()
    expect(note).to_be_hidden()  # nothing said of 包三家
    page.locator("#context-bao").click()
    expect(note).to_have_text("no 包三家: the table was not in the 生牌 phase")
    page.locator("#context-bao-sheng_phase").click()
    expect(note).to_have_text("no 包三家: the winning discard was not a 生牌")
    page.locator("#context-bao-tile_was_sheng").click()
    expect(note).to_have_text("包三家 applies: the discarder pays for everyone (Seat 2 · West)")
    expect(page.locator("#net-2")).to_have_class("loss")
    for seat in (1, 3):
        expect(page.locator(f"#net-{seat}")).not_to_have_class("loss")
    page.locator("#lang").click()
    expect(note).to_have_text("包三家：放炮者2号位 · 西为被包方，代付三家")  # the seat named as the discarder
    expect(page.locator("#seat-score-2 .formula")).to_have_text(re.compile("= \\d+ → 0（包三家）$"))
    expect(page.locator("#payments td:nth-child(4)").first).to_have_text("包三家：被包方代付三家和牌支付")
    assert page.errors == []


def test_the_bao_switch_keeps_the_keyboard_when_its_facts_are_drawn(browser, server):
    page = open_page(browser, server, "wenling")
    page.locator("#context-bao").click()
    expect(page.locator("#context-bao")).to_be_focused()
    expect(page.locator("#context-bao")).to_be_checked()
    assert page.errors == []


# -- photos being read, Undo and what the page keeps (from a review of the page's state) ----------------

def photo_of(stem: str) -> str:
    return str(next(VALID_IMAGES.glob(f"{stem}_*.jpg")))


def hold_all(page: Page, url: str) -> list:
    """Hold every request to ``url`` until the test calls its ``continue_()``."""
    held = []
    page.route(url, lambda route: held.append(route))
    return held


def held_count(page: Page, held: list, count: int) -> None:
    while len(held) < count:
        page.wait_for_timeout(50)


def test_two_photos_of_the_next_deal_read_at_once_both_fill_their_seats(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    page.locator("#seat-tab-1").click()
    upload(page, "hand_006")
    held = hold_all(page, "**/api/detect")
    page.locator("#seat-tab-0").click()
    page.set_input_files("#photo-file", photo_of("hand_007"))  # the next deal's hands, sent one after the other
    page.locator("#seat-tab-1").click()
    page.set_input_files("#photo-file", photo_of("hand_012"))
    held_count(page, held, 2)
    for route in reversed(held):  # the later photo answered first starts the new deal; the earlier is its too
        with page.expect_response("**/api/detect"):
            route.continue_()
    for seat in (0, 1):
        expect(page.locator(f"#seat-tab-{seat}")).to_contain_text("tiles")
    assert page.errors == []


def test_undo_keeps_a_photo_still_being_read_for_a_seat_it_leaves_alone(browser, server):
    page = open_page(browser, server, "daishan")
    page.locator("#seat-tab-1").click()
    type_hand(page, "123m456m789m123p456p55p", "5p")
    page.locator("#clear-hand").click()
    page.locator("#seat-tab-0").click()
    reading = upload_held(page, "hand_004")
    page.locator("#undo").click()  # brings seat 1's hand back, says nothing of seat 0's photo
    expect(page.locator("#seat-tab-1")).to_contain_text("tiles")
    with page.expect_response("**/api/detect"):
        reading.continue_()
    expect(page.locator("#seat-tab-0")).to_contain_text("tiles")
    expect(page.locator("#status")).to_contain_text("Found")
    assert page.errors == []


def test_undo_of_a_replaced_hand_keeps_the_streak_typed_since(browser, server):
    page = open_page(browser, server, "fuzhou")
    upload(page, "hand_004")
    page.fill("#streak", "2")
    page.locator("#streak").press("Tab")
    upload(page, "hand_004")  # a retake replaces the hand; Undo offered
    page.fill("#streak", "5")
    page.locator("#streak").press("Tab")
    page.locator("#undo").click()
    expect(page.locator("#streak")).to_have_value("5")  # the streak is this deal's: Undo never wipes later work
    assert page.errors == []


def test_a_photo_of_the_next_deal_moved_to_its_seat_brings_the_table_back_whatever_view_was_shown(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    page.locator("#seat-tab-1").click()
    upload(page, "hand_006")
    upload(page, "hand_009")  # another hand in seat 1's place: the next deal (it is seat 2's, in fact)
    expect(page.locator("#seat-tab-0")).to_contain_text("blank")
    page.locator("#photo-view").click()  # the whole photo looked at: a view, not a change to the table
    page.select_option("#move-hand", "2")
    read_again(page)
    for seat in (0, 1, 2):
        expect(page.locator(f"#seat-tab-{seat}")).to_contain_text("tiles")
    assert page.errors == []


def test_a_photo_of_the_next_deal_in_a_seat_whose_tiles_were_all_removed_can_be_undone(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    page.locator("#seat-tab-1").click()
    type_hand(page, "123m456m789m123p456p55p", "5p")
    page.select_option("#dealer", "2")
    page.locator("#seat-tab-0").click()
    tiles = page.locator("#groups .tile[data-code]")
    while tiles.count():
        tiles.first.click()
        page.locator("#act-remove").click()  # the dialog closes with it
    upload(page, "hand_007")  # seat 0's last photo was another hand: the next deal, the table cleared
    expect(page.locator("#dealer")).to_have_value("")
    page.locator("#undo").click()
    expect(page.locator("#dealer")).to_have_value("2")
    expect(page.locator("#seat-tab-1")).to_contain_text("tiles")
    assert page.errors == []


def test_a_server_not_reached_at_first_is_said_and_asked_again(browser, server):
    page = browser.new_context(**PHONE).new_page()
    page.route("**/api/regions", lambda route: route.fulfill(status=502, body="Bad Gateway"))
    page.goto(server)
    expect(page.locator("#status")).to_have_text("The server cannot be reached.")
    page.unroute("**/api/regions")
    page.wait_for_selector("body[data-ready=true]", timeout=10_000)
    expect(page.locator("#status")).to_have_text("")


def test_settings_another_page_left_out_of_range_are_not_taken(browser, server):
    page = open_page(browser, server, "daishan")
    keep_settings(page, {"seat": 4, "lang": "fr", "options": [1], "rules": "nowhere"})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#seat-tab-0")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#hand-title")).to_contain_text("Seat 0")
    assert errors == []


def test_a_hand_cannot_be_moved_to_a_seat_whose_photo_is_being_read(browser, server):
    page = open_page(browser, server, "daishan")
    page.locator("#seat-tab-1").click()
    reading = upload_held(page, "hand_004")
    page.locator("#seat-tab-0").click()
    type_hand(page, "123m456m789m123p456p55p", "5p")
    expect(page.locator('#move-hand option[value="1"]')).to_be_disabled()
    expect(page.locator('#move-hand option[value="2"]')).to_be_enabled()
    reading.continue_()
    expect(page.locator('#move-hand option[value="1"]')).to_be_enabled()
    assert page.errors == []


def test_a_reading_again_that_failed_is_no_longer_said_once_it_succeeds(browser, server):
    page = open_page(browser, server, "daishan")
    upload(page, "hand_004")
    failed = []
    page.route("**/api/group", lambda route: route.fulfill(status=500, json={"error": "the reader stopped"})
               if not failed and not failed.append(1) else route.continue_())
    page.select_option("#rules", "fuzhou")  # the hand read again for other rules: the first try fails
    expect(page.locator("#status")).to_contain_text("the reader stopped")
    page.locator("#regroup-retry").click()
    read_again(page)
    expect(page.locator("#status")).to_have_text("")
    assert page.errors == []


# -- an evening at one table (from a review playing whole evenings) ----------------------------------------

def test_a_drawn_deal_is_scored_with_no_tile_given(browser, server):
    page = open_page(browser, server, "baicheng")
    page.select_option("#winner", "none")
    scored(page)
    expect(page.locator("#score-body")).to_be_visible()
    for seat in range(4):
        expect(page.locator(f"#net-{seat}")).to_have_text("0")
    expect(page.locator("#score-assumed")).to_be_hidden()  # no "scored with no 宝": nothing is won with it
    assert page.errors == []


def test_baicheng_says_the_seats_with_nothing_given_are_taken_as_concealed(browser, server):
    page = open_page(browser, server, "baicheng")
    page.locator("#seat-tab-1").click()
    type_hand(page, "888m777p666s666z77z", "7z")
    expect(page.locator("#blank-note")).to_contain_text(
        "Nothing given: Seat 0, Seat 2, Seat 3 — taken as 门清 with no kong")
    give_facts(page)
    expect(page.locator("#score-blank")).to_have_text(
        "Seat 0, Seat 2 and Seat 3 have nothing given: taken as 门清 with no kong, so the nets may change — enter their melds "
        "for the full settlement.")
    page.locator("#seat-tab-2").click()
    page.locator('#groups [data-group="concealed"] .tile.add').click()
    expect(page.locator('#palette .tile[data-code="5z"]')).to_have_count(1)
    expect(page.locator('#palette .tile[data-code="1f"]')).to_have_count(0)  # Baicheng plays no flowers
    close_dialog(page)
    add_tiles(page, "5p")
    expect(page.locator("#seat-tab-2")).to_contain_text("1 tile")
    expect(page.locator("#score-blank")).to_contain_text("Seat 0 and Seat 3 have nothing given")
    assert page.errors == []


def test_the_next_deals_dealer_is_offered_kept_by_a_dealer_who_won_passed_on_otherwise(browser, server):
    page = open_page(browser, server, "fuzhou")
    type_hand(page, *FUZHOU_HAND)
    give_facts(page)  # seat 0 deals and wins
    page.fill("#streak", "1")
    page.locator("#streak").press("Tab")
    page.locator("#new-hand").click()
    offer = page.locator("#next-dealer")
    expect(offer).to_have_text("Set dealer: Seat 0, streak 2 — won as dealer: keeps the deal")
    offer.click()
    expect(page.locator("#dealer")).to_have_value("0")
    expect(page.locator("#streak")).to_have_value("2")
    expect(offer).to_be_hidden()
    page.locator("#seat-tab-3").click()
    type_hand(page, *FUZHOU_HAND)
    page.select_option("#winner", "3")  # seat 3 won: the deal passes to the dealer's 下家
    give_facts(page)
    scored(page)
    expect(page.locator("#score-body")).to_be_visible()
    page.locator("#new-hand").click()
    expect(offer).to_be_visible()
    expect(offer).to_have_text("Set dealer: Seat 1, streak 0 — Seat 3 won: the deal passes")
    page.locator("#undo").click()  # the new deal undone: its dealer back, nothing offered
    expect(page.locator("#dealer")).to_have_value("0")
    expect(offer).to_be_hidden()
    page.locator("#new-hand").click()
    offer.click()
    expect(page.locator("#dealer")).to_have_value("1")
    expect(page.locator("#streak")).to_have_value("0")
    assert page.errors == []


@pytest.mark.parametrize("rules, winner, offered", [
    ("daishan", "2", "Set dealer: Seat 2 — Seat 2 won: the winner deals"),  # 「之后哪个玩家胡就那个玩家坐庄」
    ("daishan", "none", "Set dealer: Seat 1 — a drawn deal: the dealer keeps it"),  # 「流局不会过庄」
    ("wenling", "none", "Set dealer: Seat 2 — a drawn deal: the deal passes"),  # 黄牌 「同时庄家自动下庄」
    ("baicheng", "none", "Set dealer: Seat 1 — a drawn deal: the dealer keeps it"),  # 「流局…莊家繼續做莊」
    ("fuzhou", "none", None)])  # the rules say nothing of it: nothing offered
def test_the_next_deals_dealer_follows_the_regions_rules(browser, server, rules, winner, offered):
    page = open_page(browser, server, rules)
    page.select_option("#dealer", "1")
    if winner == "none":
        page.select_option("#winner", "none")
    else:
        page.locator(f"#seat-tab-{winner}").click()
        type_hand(page, "123m456m789m123p55p", "5p")
        page.select_option("#winner", winner)
        give_facts(page)
    scored(page)  # a deal joins the evening, and says who deals next, once scored
    page.locator("#new-hand").click()
    if offered:
        expect(page.locator("#next-dealer")).to_be_visible()
        expect(page.locator("#next-dealer")).to_have_text(offered)
    else:
        expect(page.locator("#next-dealer")).to_be_hidden()
    assert page.errors == []


def fuzhou_deal_scored(browser, server) -> Page:
    """A Fuzhou page with `FUZHOU_HAND` entered for seat 0, who deals, won by self-draw, and its score shown."""
    page = open_page(browser, server, "fuzhou")
    type_hand(page, *FUZHOU_HAND)
    give_facts(page)
    scored(page)
    expect(page.locator("#score-body")).to_be_visible()
    return page


def test_the_evening_adds_up_each_deal_scored_as_the_next_starts(browser, server):
    page = fuzhou_deal_scored(browser, server)
    net = [page.locator(f"#net-{seat}").inner_text() for seat in range(4)]
    evening = page.locator("#evening")
    expect(evening).to_be_hidden()  # nothing yet: a deal joins the evening as the next starts
    page.locator("#new-hand").click()
    expect(evening).to_be_visible()
    rows = page.locator("#evening-table tr")
    expect(rows).to_have_count(3)  # the seats, the deal, the total
    expect(rows.nth(1)).to_have_text(re.compile(r"^1\. Fuzhou\u00a0· Seat 0 won"))
    expect(rows.nth(1).locator("td")).to_have_text(net)
    expect(rows.nth(2).locator("td")).to_have_text(net)
    page.locator("#undo").click()  # the deal back on the table: out of the evening again
    expect(evening).to_be_hidden()
    scored(page)
    page.locator("#new-hand").click()
    expect(rows).to_have_count(3)
    page.select_option("#winner", "none")  # a drawn deal: nothing paid, counted
    scored(page)
    page.locator("#new-hand").click()  # a deal never scored (nothing given) adds nothing
    page.locator("#new-hand").click()
    expect(rows).to_have_count(4)
    expect(rows.nth(2)).to_have_text(re.compile(r"^2\. Fuzhou\u00a0· drawn"))
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(rows).to_have_count(4)  # kept in the tab over a reload
    expect(rows.nth(3).locator("td")).to_have_text(net)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#evening-clear").click()
    expect(evening).to_be_hidden()
    assert page.errors == []


def test_players_named_are_named_everywhere_their_seat_is(browser, server):
    page = open_page(browser, server, "fuzhou")
    page.locator("#names-box summary").click()
    page.fill("#name-0", "  Ann  ")
    page.locator("#name-0").press("Tab")
    page.fill("#name-2", "<b>Bo</b>")  # a name is text, never markup
    page.locator("#name-2").press("Tab")
    type_hand(page, *FUZHOU_HAND)
    give_facts(page)
    scored(page)
    expect(page.locator("#seat-tab-0 > span")).to_have_text("Ann · East")
    expect(page.locator("#seat-tab-2 > span")).to_have_text("<b>Bo</b> · West")
    expect(page.locator("#seat-tab-1 > span")).to_have_text("Seat 1 · South")
    expect(page.locator("#net-table th.seat").first).to_have_text("Ann · East")
    expect(page.locator("#seat-scores h3").first).to_contain_text("Ann · East")
    page.locator("#new-hand").click()
    expect(page.locator("#evening-table tr").first.locator("th")).to_have_text(
        ["", "Ann", "Seat 1", "<b>Bo</b>", "Seat 3"])
    expect(page.locator("#evening-table tr").nth(1)).to_contain_text("Ann won")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#name-0")).to_have_value("Ann")  # kept with the settings
    expect(page.locator("#seat-tab-0 > span")).to_have_text("Ann")
    assert page.errors == []


def test_a_next_deal_photo_moved_to_its_seat_takes_the_deal_back_out_of_the_evening(browser, server):
    page = open_page(browser, server, "daishan")
    type_hand(page, "123m456m789m123p55p", "5p")
    give_facts(page)
    scored(page)
    page.locator("#seat-tab-1").click()
    upload(page, "hand_006")
    upload(page, "hand_009")  # another hand in seat 1's place: the next deal, the last one joins the evening
    expect(page.locator("#evening-table tr")).to_have_count(3)
    page.select_option("#move-hand", "2")  # it was seat 2's hand: the deal is the table's again
    read_again(page)
    expect(page.locator("#evening")).to_be_hidden()
    scored(page)
    page.locator("#new-hand").click()
    expect(page.locator("#evening-table tr")).to_have_count(3)  # counted once
    assert page.errors == []


def test_the_next_dealer_offer_survives_a_second_new_hand_and_goes_with_an_undo(browser, server):
    page = fuzhou_deal_scored(browser, server)  # seat 0 deals and wins
    offer = page.locator("#next-dealer")
    page.locator("#new-hand").click()
    expect(offer).to_be_visible()
    expect(offer).to_have_text("Set dealer: Seat 0, streak 1 — won as dealer: keeps the deal")
    page.locator("#new-hand").click()  # a second tap on an empty table: the last deal is still the one scored
    expect(offer).to_be_visible()
    expect(offer).to_have_text("Set dealer: Seat 0, streak 1 — won as dealer: keeps the deal")
    page.locator("#undo").click()  # the deal scored is the table's again
    expect(page.locator("#dealer")).to_have_value("0")
    page.select_option("#dealer", "")  # its dealer unsaid: nothing offered for a deal still in progress
    expect(offer).to_be_hidden()
    assert page.errors == []


def test_a_deal_left_unscored_is_said_to_be_out_of_the_evening_and_names_no_next_dealer(browser, server):
    page = open_page(browser, server, "fuzhou")
    page.select_option("#dealer", "0")
    upload(page, "hand_004")  # read, but no winning hand of these rules: no score
    page.locator("#new-hand").click()
    expect(page.locator("#undo-note")).to_have_text(
        "A new hand: the last one was cleared, unscored, so it is not in this evening.")
    expect(page.locator("#next-dealer")).to_be_hidden()
    expect(page.locator("#evening")).to_be_hidden()
    assert page.errors == []


def test_the_offered_dealer_taken_keeps_the_new_deals_undo_and_the_evening_outlives_its_tab(browser, server):
    page = fuzhou_deal_scored(browser, server)
    page.locator("#new-hand").click()
    page.locator("#next-dealer").click()
    expect(page.locator("#undo-bar")).to_be_visible()  # taking the offer is part of starting the deal
    other = page.context.new_page()  # the tab closed and another opened: the device's last evening
    other.goto(server)
    other.wait_for_selector("body[data-ready=true]")
    expect(other.locator("#evening-table tr")).to_have_count(3)
    page.locator("#undo").click()
    expect(page.locator("#evening")).to_be_hidden()
    assert page.errors == []
