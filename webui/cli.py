"""`mjcam serve [--host 127.0.0.1] [--port 8000] [--camera SOURCE] [--threads N]`: the table page on waitress."""
from __future__ import annotations

import argparse
import json
import socket
import sys
from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

from vision.detect_cli import MAX_THREADS, thread_count
from webui import too_large

UPLOAD_BODY_LIMIT = 32 * 2**20
"""waitress refuses bodies above this outright (`JsonErrorTask`); the app itself answers 413 above its 20 MB
photo limit."""


class JsonErrorTask(ErrorTask):
    """What waitress refuses itself (a body over its limit, a malformed request) answered as the API answers:
    ``{"error": "one line"}``, not waitress's plain text."""

    def execute(self) -> None:
        error = self.request.error
        if error.code == 413:
            message = too_large(getattr(self.request, "path", ""))
        else:
            message = " ".join(f"{error.reason}: {error.body}".split())
        body = json.dumps({"error": message}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class JsonErrorChannel(HTTPChannel):
    error_task_class = JsonErrorTask


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 lets a phone on the network in)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--camera", metavar="SOURCE",
                        help="a mounted webcam: device index (0), video file or stream URL, read through OpenCV")
    parser.add_argument("--threads", type=thread_count, default=8,
                        help=f"request threads, 1 to {MAX_THREADS} (default 8)")


EVERY_IPV4 = ("0.0.0.0", "")
"""The hosts that mean every IPv4 interface of this machine."""


def url_host(host: str) -> str:
    """The host of the page's URL on this machine when the server listens on ``host``: every IPv4 interface
    as 127.0.0.1, every IPv6 one ("::": waitress takes no IPv4 there) as [::1], an IPv6 address bracketed."""
    if host in EVERY_IPV4:
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def lan_address() -> str | None:
    """This machine's address on its local network (no packet is sent), or None when there is none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def _fail(message: str) -> int:
    print(f"mjcam serve: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from webui import create_app
    from webui.camera import Camera, CameraError, parse_source

    if not 0 <= args.port <= 65535:
        return _fail(f"port must be 0–65535, got {args.port}")
    try:
        camera = Camera(parse_source(args.camera)) if args.camera is not None else None
    except CameraError as error:
        return _fail(str(error))
    app = create_app(config={"CAMERA": camera})
    try:
        return _serve(app, camera, args)
    finally:  # the camera is let go however the server ends, or fails to start
        if camera is not None:
            camera.stop()


def _serve(app: Any, camera: Any, args: argparse.Namespace) -> int:
    import waitress

    from vision.detector import ModelError

    try:
        model = app.extensions["mjcam"].detector.model_info
    except ModelError as error:
        return _fail(str(error))
    try:
        server = waitress.create_server(app, host=args.host, port=args.port, threads=args.threads,
                                        max_request_body_size=UPLOAD_BODY_LIMIT, ident="mjcam")
    except (OSError, ValueError) as error:  # ValueError: a host waitress cannot parse
        return _fail(f"cannot listen on {args.host}:{args.port} ({getattr(error, 'strerror', None) or error})")
    server.channel_class = JsonErrorChannel
    port = server.effective_port
    print(f"mjcam: the table page is at http://{url_host(args.host)}:{port}/ (model {model['detector']}, "
          f"{model['classifier']}; Ctrl+C stops)", flush=True)
    if args.host in EVERY_IPV4:
        address = lan_address()
        if address:
            print(f"mjcam: on this network, open http://{address}:{port}/ on a phone", flush=True)
    if camera is not None:
        print(f"mjcam: camera {args.camera}: captures when the picture stays still for a second", flush=True)
        camera.start()
    server.run()
    return 0
