"""`mjcam score` as installed (`pip install -e .`): breakdown, --json, stdin, and one-line errors with status 2."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

MJCAM = Path(sys.executable).parent / "mjcam"
EXAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "rules" / "examples"


def mjcam(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(MJCAM), "score", *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_version():
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)  # no tomllib on Python 3.10
    done = subprocess.run([str(MJCAM), "--version"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, f"mjcam {version}\n")


def test_json_result_object_on_an_example():
    done = mjcam("--json", str(EXAMPLES / "W1.json"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["rules"] == "wenling" and result["net"] == [-15, 48, -15, -18]
    assert {"from", "to", "amount", "reason"} <= set(result["payments"][0])
    seat = result["players"][1]
    assert seat["seat"] == 1 and seat["total"] == 160
    assert {"name", "name_zh", "rule", "value", "unit", "citation"} <= set(seat["items"][0])


@pytest.mark.parametrize("name", ["W1", "W3", "W6", "D1", "D2", "D4"])
def test_json_net_of_every_example(name):
    done = mjcam("--json", str(EXAMPLES / f"{name}.json"))
    assert json.loads(done.stdout)["net"] == json.loads((EXAMPLES / f"{name}.json").read_text())["expected_net"]


def test_readable_breakdown():
    done = mjcam(str(EXAMPLES / "D1.json"))
    assert done.returncode == 0
    assert "P1 South (winner): 14 分" in done.stdout
    assert "对对胡" in done.stdout and "(4 + 1) × 2 + 4 × 1 = 14" in done.stdout
    assert done.stdout.rstrip().endswith("Net: P0 -14  P1 +42  P2 -14  P3 -14")



def test_seats_written_as_whole_floats_read_as_seats():
    record = json.loads((EXAMPLES / "F1.json").read_text())
    as_ints = mjcam("-", stdin=json.dumps(record))
    record["dealer"] = float(record["dealer"])
    record["win"] |= {"player": float(record["win"]["player"]), "from": float(record["win"]["from"])}
    as_floats = mjcam("-", stdin=json.dumps(record))
    assert as_floats.returncode == 0, as_floats.stderr
    assert as_floats.stdout == as_ints.stdout and "P1 wins on a discard from P3 with 5s" in as_floats.stdout


@pytest.mark.parametrize("indicator, line", [
    ("5s", "金 indicator: 5s"), (None, "No 金 indicator given: scored without 金"),
])
def test_the_breakdown_says_which_indicator_it_scored_with(indicator, line):
    record = json.loads((EXAMPLES / "F3a.json").read_text()) | {"indicator": indicator}
    done = mjcam("-", stdin=json.dumps(record))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2] == line

@pytest.mark.parametrize("tile_was_sheng, line", [
    (True, "包三家 applies: the discarder pays for everyone (P0)."),
    (False, "no 包三家: the winning discard was not a 生牌."),
])
def test_the_breakdown_says_whether_bao_applies(tile_was_sheng, line):
    record = json.loads((EXAMPLES / "W1.json").read_text())
    record["win"] |= {"by": "discard", "from": 0}
    record["context"] = {"bao": {"sheng_phase": True, "tile_was_sheng": tile_was_sheng}}
    done = mjcam("-", stdin=json.dumps(record))
    assert done.returncode == 0, done.stderr
    assert line in done.stdout.splitlines()


def test_standard_input():
    done = mjcam("--json", "-", stdin=(EXAMPLES / "D2.json").read_text())
    assert json.loads(done.stdout)["net"] == [0, 11, -11, 0]


def error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mjcam score: ")
    return lines[0]


def test_invalid_record():
    record = json.loads((EXAMPLES / "D1.json").read_text())
    record["players"][1]["concealed"] = "555888m11z0m"
    assert "unknown tile '0m'" in error_line(mjcam("-", stdin=json.dumps(record)))


def test_missing_file():
    assert "cannot read /no/such/table.json" in error_line(mjcam("/no/such/table.json"))


def test_malformed_json():
    assert "is not valid JSON" in error_line(mjcam("-", stdin="{\"rules\": "))


def test_not_an_object():
    assert "must be a JSON object" in error_line(mjcam("-", stdin="[1, 2]"))


def mjcam_bytes(*args: str, stdin: bytes) -> subprocess.CompletedProcess:
    done = subprocess.run([str(MJCAM), "score", *args], input=stdin, capture_output=True, timeout=60)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.parametrize("data, problem", [
    (b"[" * 100_000 + b"]" * 100_000, "standard input is not valid JSON: nested too deeply"),
    (b'{"rules": "daishan", "dealer": ' + b"9" * 5000 + b"}", "standard input holds a number too long"),
    (b'{"rules": "\xe9"}', "standard input is not UTF-8 text"),
    (b" \n", "standard input is empty: no JSON in it"),
    (b'{"rules": "daishan", "dealer": 0, "dealer": 1}', 'standard input gives the key "dealer" twice in one object'),
    (b'{"win": {"player": 1, "player": 2}}', 'standard input gives the key "player" twice in one object'),
])
def test_json_no_record_could_be(data, problem):
    assert problem in error_line(mjcam_bytes("-", stdin=data))


def test_a_record_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "D2.json"
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "D2.json").read_bytes())
    assert json.loads(mjcam("--json", str(path)).stdout)["net"] == [0, 11, -11, 0]


def test_drawn_hand_with_kong_payments_says_what_is_paid():
    from tests.records import player, record

    drawn = record("baicheng", {3: player("", "K1111z"), 1: player("", "k9999m")}, None)
    done = mjcam("-", stdin=json.dumps(drawn))
    assert done.returncode == 0, done.stderr
    assert "only what the payments below list is paid" in done.stdout and "nothing is paid" not in done.stdout
    assert done.stdout.rstrip().endswith("Net: P0 -15  P1 +5  P2 -15  P3 +25")


def test_output_cut_short_by_its_reader_is_no_traceback():
    """The reader closes the pipe before mjcam writes (`mjcam score ... | head`): no traceback."""
    proc = subprocess.Popen([str(MJCAM), "score", str(EXAMPLES / "D1.json")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    assert proc.stderr.read() == ""
    assert proc.wait(timeout=60) == 1


def test_a_usage_error_is_one_line():
    assert "the following arguments are required: FILE" in error_line(mjcam())


def test_an_endless_input_is_read_no_further_than_a_record_can_be():
    done = subprocess.run([str(MJCAM), "score", "/dev/zero"], capture_output=True, text=True, timeout=60)
    assert error_line(done) == "mjcam score: /dev/zero is larger than a table record can be (1 MB at most)"


def test_a_closed_standard_input_is_one_line():
    done = subprocess.run([str(MJCAM), "score", "-"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, preexec_fn=lambda: os.close(0))
    assert error_line(done) == "mjcam score: cannot read standard input: it is closed"


def test_output_that_cannot_be_written_is_one_line_with_status_1():
    with open("/dev/full", "w") as full:
        done = subprocess.run([str(MJCAM), "score", str(EXAMPLES / "W1.json")], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == "mjcam score: cannot write the output (No space left on device)\n"


def test_the_breakdown_shows_values_whole_not_rounded_to_six_digits(tmp_path):
    record = json.loads((EXAMPLES / "BC2.json").read_text(encoding="utf-8"))
    record["options"] = {**record.get("options", {}), "model": "linear", "di": 999_999}
    (tmp_path / "big.json").write_text(json.dumps(record))
    done = mjcam(str(tmp_path / "big.json"))
    assert "399999.6 元" in done.stdout and "400000 元" not in done.stdout


def test_a_terminal_that_cannot_show_chinese_gets_it_escaped_not_a_traceback():
    done = subprocess.run([str(MJCAM), "score", str(EXAMPLES / "D1.json")], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Daishan \\u5cb1\\u5c71\n")
