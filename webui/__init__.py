"""The table page and its JSON API (Flask): photo or webcam in, corrected hand and itemised score out.

`create_app(detector=None, config=None)` builds the application with two blueprints: ``api`` (``/api/…``,
JSON in and out, see README "Web page and API") and ``pages`` (the single table page, plain HTML with
vanilla JS and CSS from ``static/``, no build step, nothing from the internet).
"""
from __future__ import annotations

import threading
from typing import Any

from flask import Flask

from vision.images import MAX_BYTES

MULTIPART_ALLOWANCE = 64 * 1024
"""Room for the multipart envelope and form fields around a photo of the full 20 MB."""


class Services:
    """What the views share: the tile detector (loaded on first use unless given) and the optional camera."""

    def __init__(self, detector: Any = None, camera: Any = None) -> None:
        self._detector = detector
        self._lock = threading.Lock()
        self.camera = camera

    @property
    def detector(self) -> Any:
        """The `TileDetector`; loading the bundled models the first time (thread-safe)."""
        if self._detector is None:
            with self._lock:
                if self._detector is None:
                    from vision.detector import TileDetector

                    self._detector = TileDetector()
        return self._detector


def create_app(detector: Any = None, config: dict[str, Any] | None = None) -> Flask:
    """The Flask application: ``detector`` is a `TileDetector` (default: the bundled models, loaded on
    first use); ``config`` updates Flask's config, and its ``CAMERA`` entry (a `webui.camera.Camera`) adds
    the mounted-webcam endpoints' source.
    """
    from webui.api import api
    from webui.pages import pages

    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BYTES + MULTIPART_ALLOWANCE, CAMERA=None)
    app.config.update(config or {})
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.extensions["mjcam"] = Services(detector, app.config["CAMERA"])
    app.register_blueprint(api)
    app.register_blueprint(pages)
    return app
