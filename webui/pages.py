"""The table page: one HTML document; its script (static/app.js) does the rest through the JSON API."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template

from scoring.record import MAX_STREAK
from vision.detections import DOUBTFUL_CONFIDENCE
from vision.images import MAX_BYTES, REDUCED_DECODE_SHARE, WORK_SIDE

pages = Blueprint("pages", __name__)


@pages.get("/")
def index() -> str:
    return render_template("index.html", camera=current_app.extensions["mjcam"].camera is not None,
                           max_bytes=MAX_BYTES, work_side=WORK_SIDE, reduced_share=REDUCED_DECODE_SHARE,
                           doubtful=DOUBTFUL_CONFIDENCE, max_streak=MAX_STREAK)
