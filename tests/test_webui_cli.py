"""`mjcam serve`: waitress on localhost, the URL printed, one clear line for what cannot start."""
import ipaddress
import json
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from webui.cli import lan_address, url_host

ROOT = Path(__file__).resolve().parents[1]


def serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mjcam.cli", "serve", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_serves_on_localhost_and_prints_the_url():
    process = serve("--port", "0")
    try:
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", line).group(0)
        with urllib.request.urlopen(url + "api/health", timeout=30) as response:
            assert response.headers["Server"] == "mjcam"  # waitress, not Flask's development server
            assert json.load(response)["ok"] is True
        with urllib.request.urlopen(url, timeout=30) as response:
            assert b'capture="environment"' in response.read()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_all_interfaces_print_the_lan_address_when_there_is_one():
    process = serve("--host", "0.0.0.0", "--port", "0")
    try:
        first = process.stdout.readline()
        assert "http://127.0.0.1:" in first
        address = lan_address()
        if address is not None:
            assert f"http://{address}:" in process.stdout.readline()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_lan_address_is_a_non_loopback_ipv4_or_none():
    address = lan_address()
    assert address is None or (ipaddress.IPv4Address(address) and not address.startswith("127."))


def run_failing(*args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "mjcam.cli", "serve", *args], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().split("\n")
    assert len(lines) == 1 and lines[0].startswith("mjcam serve: ")
    return lines[0]


def test_missing_camera_file():
    assert "no such file" in run_failing("--camera", "no-such-video.avi")


def test_port_in_use():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert "cannot listen on 127.0.0.1" in run_failing("--port", str(taken.getsockname()[1]))


def test_bad_port_and_threads():
    assert "port must be" in run_failing("--port", "70000")
    assert "argument --threads: '0' is not a whole number from 1 to" in run_failing("--threads", "0")


def test_what_waitress_refuses_is_answered_in_json():
    """A body over waitress's own limit never reaches the app: it is answered like the app's errors."""
    process = serve("--port", "0")
    try:
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline()).group(1))
        for url, head, status, expected in (
            ("/api/detect", "Content-Length: 40000000\r\nContent-Type: multipart/form-data; boundary=x", 413,
             "the upload is larger than the 20 MB limit"),
            ("/api/score", "Content-Length: 40000000\r\nContent-Type: application/json", 413,
             "the body is larger than a table record can be (1 MB at most)"),
            ("/api/detect", "Content-Length: many", 400, "Bad Request"),
        ):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
                connection.sendall(f"POST {url} HTTP/1.1\r\nHost: here\r\n{head}\r\n\r\n".encode())
                answer = b""
                while chunk := connection.recv(4096):
                    answer += chunk
            header, body = answer.decode().split("\r\n\r\n", 1)
            assert header.startswith(f"HTTP/1.1 {status} ") and "Content-Type: application/json" in header
            message = json.loads(body)["error"]
            assert expected in message and "\n" not in message
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_printed_url_opens_for_every_kind_of_host():
    assert url_host("0.0.0.0") == url_host("") == "127.0.0.1"
    assert url_host("::") == "[::1]" and url_host("::1") == "[::1]" and url_host("fe80::1") == "[fe80::1]"
    assert url_host("192.168.1.5") == "192.168.1.5" and url_host("localhost") == "localhost"


def test_the_camera_is_let_go_when_the_server_cannot_start(tmp_path, monkeypatch, capsys):
    import webui.camera
    from mjcam.cli import main
    from tests.table_video import VALID_IMAGES, write_table_video

    video = tmp_path / "table.avi"
    write_table_video(video, sorted(VALID_IMAGES.glob("*.jpg"))[:1], still_seconds=0.5)
    opened = []

    class WatchedCamera(webui.camera.Camera):  # the real camera, remembered to look at afterwards
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            opened.append(self)

    monkeypatch.setattr(webui.camera, "Camera", WatchedCamera)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert main(["serve", "--camera", str(video), "--port", str(taken.getsockname()[1])]) == 2
    assert "cannot listen on" in capsys.readouterr().err
    assert len(opened) == 1 and not opened[0]._video.isOpened()
