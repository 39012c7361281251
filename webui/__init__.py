"""The table page and its JSON API (Flask): photo or webcam in, corrected hand and itemised score out.

`create_app(detector=None, config=None)` builds the application with two blueprints: ``api`` (``/api/…``,
JSON in and out, see README "Web page and API") and ``pages`` (the single table page, plain HTML with
vanilla JS and CSS from ``static/``, no build step, nothing from the internet).
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import Flask

from vision.images import MAX_BYTES

MULTIPART_ALLOWANCE = 64 * 1024
"""Room for the multipart envelope and form fields around a photo of the full 20 MB."""
TOO_LARGE = f"the upload is larger than the {MAX_BYTES // 2**20} MB limit"
"""The error of an upload over the limit (413), from Flask or from waitress."""


def too_large(path: str) -> str:
    """The one line refusing a body over the server's limit (413) sent to ``path``: a table record's limit for
    `/api/score`, the photo limit for the rest."""
    from scoring.record import record_too_large

    return record_too_large("the body") if path == "/api/score" else TOO_LARGE


class Services:
    """What the views share: the tile detector (loaded on first use unless given) and the optional camera."""

    def __init__(self, detector: Any, camera: Any, models: tuple[Path, Path], concurrency: int) -> None:
        self._detector = detector
        self._models = models
        self._lock = threading.Lock()
        self.camera = camera
        self.reading_slots = threading.BoundedSemaphore(concurrency)
        """Photos read at once: ONNX Runtime already spreads one photo over every core, so more only queue
        inside it and hold more memory."""

    @property
    def detector(self) -> Any:
        """The `TileDetector`, loading the models the first time (thread-safe); `vision.detector.ModelError` when
        they cannot be."""
        if self._detector is None:
            from vision.detector import load_detector

            with self._lock:
                if self._detector is None:
                    self._detector = load_detector(*self._models)
        return self._detector


def create_app(detector: Any = None, config: dict[str, Any] | None = None) -> Flask:
    """The Flask application: ``detector`` is a `TileDetector` (default: one on the ``DETECTOR_MODEL`` and
    ``CLASSIFIER_MODEL`` of the config, the bundled models unless set, loaded on first use); ``config``
    updates Flask's config: ``CAMERA`` (a `webui.camera.Camera`) is the mounted webcam,
    ``READING_CONCURRENCY`` (default 2) how many photos are read at once.
    """
    from vision.detector import CLASSIFIER_MODEL, DETECTOR_MODEL
    from webui.api import api
    from webui.pages import pages

    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BYTES + MULTIPART_ALLOWANCE, CAMERA=None, READING_CONCURRENCY=2,
                      DETECTOR_MODEL=DETECTOR_MODEL, CLASSIFIER_MODEL=CLASSIFIER_MODEL)
    app.config.update(config or {})
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    models = (Path(app.config["DETECTOR_MODEL"]), Path(app.config["CLASSIFIER_MODEL"]))
    app.extensions["mjcam"] = Services(detector, app.config["CAMERA"], models, app.config["READING_CONCURRENCY"])
    app.register_blueprint(api)
    app.register_blueprint(pages)
    return app
