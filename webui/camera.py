"""A mounted webcam for the table page: frames read in a background thread, captured when the picture stays still.

The source is what OpenCV opens: a device index (``0``) or device node (``/dev/video0``), a video file (a raw
MJPEG stream too; a file OpenCV reads only one frame from is a still image, refused) or a stream URL. Each frame
looked at (a fast camera's every third or so, `LOOK_SECONDS`) is compared with the one before on a small blurred
grey copy; when less than ``motion_fraction`` of its pixels changed for ``still_seconds``, the frame is captured —
once per still spell, and only when it differs from the last capture (a hand laid down, not the same table seen
again). A video file plays at its own frame rate, like a live camera, and the camera ends with it.
"""
from __future__ import annotations

import os
import secrets
import stat
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.images import WORK_SIDE, Photo, decode_photo, fit_within, image_format

os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # FFmpeg's own log off (read when OpenCV first opens a
# video through it): a file it cannot read would print its lines before the one line that says why


class CameraError(ValueError):
    """A camera source that cannot be opened, with one line saying why."""


@dataclass(frozen=True)
class StillnessSettings:
    """When a picture counts as still, and when a still picture counts as new."""

    still_seconds: float = 1.0
    pixel_delta: int = 20
    """A pixel of the small grey copy (0–255) changed when it moved by more than this."""
    motion_fraction: float = 0.005
    """The picture moves while more than this share of pixels change from one frame to the next."""
    change_fraction: float = 0.02
    """A still picture is captured only if more than this share of pixels differ from the last capture."""


SMALL_WIDTH = 160
LIVE_SIDE = 960
KEEP_CAPTURES = 8
NO_FRAME = "no frame, reopening"
"""The end of the status error of a source that stopped sending frames (``lost`` in the status: the page says
it in its own words)."""
REOPEN_SECONDS = 2.0
LOOK_SECONDS = 1 / 12
"""The least time between two frames looked at (decoded, judged for stillness, shown live): a 30 fps camera is
looked at 10 times a second, every third frame, a 10 fps one at each frame; the page asks for the live picture
at most 5 times a second."""
STALL_SECONDS = 3.0
"""A source that sends no frame for this long has stalled (a stream that stays open but sends nothing: OpenCV's
read waits about 30 s before it fails): said as lost, and its stillness clock starts again with the next frame."""


def parse_source(text: str) -> int | str:
    """A device index for digits, otherwise the file path or stream URL itself; CameraError when empty."""
    if not text:
        raise CameraError("camera source is empty (give a device index, a video file or a URL)")
    return int(text) if text.isascii() and text.isdigit() else text  # "²" is a digit to Python, not to int


def small_grey(frame: np.ndarray) -> np.ndarray:
    """The frame reduced to ``SMALL_WIDTH`` pixels wide, grey and blurred: what stillness is judged on."""
    height = max(1, round(frame.shape[0] * SMALL_WIDTH / frame.shape[1]))
    grey = cv2.cvtColor(cv2.resize(frame, (SMALL_WIDTH, height), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(grey, (5, 5), 0)


DIM_LEVEL = 64
"""A picture whose mean grey level (0–255) is below this is dim: a hand laid on a dim table changes its pixels
by less, so the change a pixel must show to count shrinks in proportion, to a quarter at most (`dim_delta`)."""


def dim_delta(a: np.ndarray, b: np.ndarray, pixel_delta: int) -> float:
    """The change a pixel of two small grey frames must show to count: ``pixel_delta``, less in dim light."""
    level = (float(a.mean()) + float(b.mean())) / 2
    return max(pixel_delta / 4, pixel_delta * min(1.0, level / DIM_LEVEL))


def changed_fraction(a: np.ndarray, b: np.ndarray, pixel_delta: float) -> float:
    """The share of pixels that differ by more than ``pixel_delta`` between two small grey frames."""
    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(cv2.absdiff(a, b) > pixel_delta)) / a.size


def _encode_jpeg(image: np.ndarray, max_side: int, quality: int) -> bytes:
    ok, buffer = cv2.imencode(".jpg", fit_within(image, max_side), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG")
    return buffer.tobytes()


class Camera:
    """Reads ``source`` in a background thread (`start`/`stop`); thread-safe accessors for the web views."""

    def __init__(self, source: int | str, settings: StillnessSettings = StillnessSettings()) -> None:
        self.source = source
        self.settings = settings
        self.is_file = False
        self._image_kind: str | None = None
        if isinstance(source, str) and "://" not in source:
            try:
                mode = os.stat(source).st_mode
            except (OSError, ValueError):
                mode = 0
            if stat.S_ISREG(mode):
                self.is_file = True
                try:
                    with open(source, "rb") as file:
                        self._image_kind = image_format(file.read(16))
                except OSError:
                    pass  # OpenCV then says it cannot open it
            elif not stat.S_ISCHR(mode):  # a device node (/dev/video0) is opened like a device index
                what = "a folder" if stat.S_ISDIR(mode) else "not a file or a device" if mode else "no such file"
                raise CameraError(f"camera source {source}: {what} (give a device index, a video file or a URL)")
        self._video = self._open()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._frame: np.ndarray | None = None
        self._previous_small: np.ndarray | None = None
        self._frame_count = 0
        self._passed_count = 0  # frames taken off the source between looks, not decoded
        self._last_time = 0.0
        self._started: float | None = None  # when the thread began reading: no frame since then is a stall too
        self._live_jpeg: tuple[int, bytes] | None = None
        self._still_since: float | None = None
        self._armed = True
        self._last_capture_small: np.ndarray | None = None
        self._captures: OrderedDict[int, tuple[bytes, Photo]] = OrderedDict()
        self._next_id = 1
        self.run = secrets.token_hex(4)
        """This server run's token: capture ids start from 1 in each run, so a page tells captures apart by both."""
        self._ended = False
        self._error: str | None = None

    def _open(self) -> cv2.VideoCapture:
        """The source opened and checked to give a frame; a file must give two (one frame is a still image, however
        it is stored; a raw MJPEG stream starts like a JPEG but is a video), and is opened again, to play from its
        first frame."""
        video = cv2.VideoCapture(self.source)
        if not video.isOpened():
            self._refuse_still_image()
            raise CameraError(f"camera source {self.source}: OpenCV cannot open it")
        if not video.read()[0]:
            video.release()
            self._refuse_still_image()
            raise CameraError(f"camera source {self.source}: OpenCV opens it but reads no frame from it")
        if self.is_file:
            second = video.read()[0]
            video.release()
            if not second:
                self._refuse_still_image(one_frame=True)
            video = cv2.VideoCapture(self.source)
        return video

    def _refuse_still_image(self, one_frame: bool = False) -> None:
        """CameraError for a file that starts like a still image, or any file OpenCV reads just one frame from."""
        if self._image_kind or one_frame:
            kind = f"{self._image_kind} " if self._image_kind else ""
            raise CameraError(f"camera source {self.source}: a still {kind}image, not a video (give a device index, "
                              "a video file or a URL)")

    # -- thread -----------------------------------------------------------------------------------
    def start(self) -> Camera:
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="mjcam-camera", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._video.release()

    def _run(self) -> None:
        fps = self._video.get(cv2.CAP_PROP_FPS) if self.is_file else 0
        frame_period = 1 / fps if 0 < fps <= 240 else 1 / 25
        next_time = time.monotonic()
        looked = -LOOK_SECONDS
        while not self._stop.is_set():
            ok, frame = self._video.grab(), None
            now = time.monotonic()
            if ok and now - looked >= LOOK_SECONDS:  # a frame between looks is taken off the source, not decoded
                ok, frame = self._video.retrieve()
                ok = ok and frame is not None
            if not ok:
                if self.is_file:
                    with self._lock:
                        self._ended = True
                    return
                self._reopen()
                continue
            if frame is None:
                with self._lock:
                    self._passed_count += 1
            else:
                looked = now
                self.process(frame, now)
            if self.is_file:
                next_time += frame_period
                self._stop.wait(max(0.0, next_time - time.monotonic()))

    def _reopen(self) -> None:
        with self._lock:
            self._error = f"camera source {self.source}: {NO_FRAME}"
        self._video.release()
        while not self._stop.wait(REOPEN_SECONDS):
            try:
                self._video = self._open()
            except CameraError:
                continue
            with self._lock:
                self._error = None
            return

    # -- stillness --------------------------------------------------------------------------------
    def process(self, frame: np.ndarray, now: float) -> int | None:
        """Take one frame seen at time ``now`` (seconds); return the new capture's id when it triggers one."""
        small = small_grey(frame)
        settings = self.settings
        with self._lock:
            previous = self._previous_small
            if self._frame_count and now - self._last_time > STALL_SECONDS:
                self._still_since = None  # a gap is no stillness seen
            self._frame, self._previous_small, self._last_time = frame, small, now
            self._frame_count += 1
            if previous is not None and (changed_fraction(small, previous, dim_delta(small, previous, settings.pixel_delta))
                                         > settings.motion_fraction):
                self._still_since, self._armed = None, True
                return None
            if self._still_since is None:
                self._still_since = now
            if not self._armed or now - self._still_since < settings.still_seconds:
                return None
            self._armed = False
            last = self._last_capture_small
            if last is not None and (changed_fraction(small, last, dim_delta(small, last, settings.pixel_delta))
                                     <= settings.change_fraction):
                return None
            return self._add_capture(frame, small)

    def _add_capture(self, frame: np.ndarray, small: np.ndarray) -> int:
        """Store ``frame`` as the next capture: a JPEG (at most the working size) and the photo decoded from
        it, so that a capture is read exactly as the same JPEG uploaded would be (called with the lock held)."""
        jpeg = _encode_jpeg(frame, WORK_SIDE, 90)
        capture_id = self._next_id
        self._next_id += 1
        self._captures[capture_id] = (jpeg, decode_photo(jpeg, f"capture {capture_id}"))
        while len(self._captures) > KEEP_CAPTURES:
            self._captures.popitem(last=False)
        self._last_capture_small = small
        return capture_id

    # -- views ------------------------------------------------------------------------------------
    def capture_now(self) -> int | None:
        """Capture the current frame at once; None before the first frame."""
        with self._lock:
            if self._frame is None:
                return None
            return self._add_capture(self._frame, self._previous_small)

    def capture(self, capture_id: int) -> tuple[bytes, Photo] | None:
        """A kept capture: its JPEG and the decoded photo."""
        with self._lock:
            return self._captures.get(capture_id)

    def frame_jpeg(self) -> bytes | None:
        """The latest frame as a JPEG for the live view (encoded once per frame, at most 960 pixels)."""
        with self._lock:
            frame, count, cached = self._frame, self._frame_count, self._live_jpeg
        if frame is None:
            return None
        if cached is None or cached[0] != count:
            cached = (count, _encode_jpeg(frame, LIVE_SIDE, 80))
            with self._lock:
                self._live_jpeg = cached
        return cached[1]

    def status(self, now: float | None = None) -> dict[str, Any]:
        """Source, frames read and looked at (`LOOK_SECONDS`), seconds the picture has been still, the latest
        capture's id, end or error (``lost``: the source stopped sending frames and is being reopened, or, ``stalled``, has sent
        none for STALL_SECONDS by ``now``, `time.monotonic`, since its last frame or its start)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            still = 0.0 if self._still_since is None else self._last_time - self._still_since
            since = self._last_time if self._frame_count else self._started  # the last frame, or the start
            stalled = not self._ended and since is not None and now - since > STALL_SECONDS
            error = self._error or (f"camera source {self.source}: no frame for {now - since:.0f} s" if stalled else None)
            return {
                "source": str(self.source),
                "running": self._thread is not None and self._thread.is_alive(),
                "ended": self._ended,
                "error": error,
                "lost": self._error is not None and self._error.endswith(NO_FRAME) or stalled,
                "stalled": stalled and self._error is None,
                "frames": self._frame_count + self._passed_count,
                "looked": self._frame_count,
                "still_seconds": round(still, 2),
                "capture": next(reversed(self._captures), None),
                "run": self.run,
                "size": None if self._frame is None else [self._frame.shape[1], self._frame.shape[0]],
            }
